package shop

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite examples/shop-urls.txt")

const urlsFile = "../../examples/shop-urls.txt"

// The example URL file must list exactly the shop's pages, so loading it hits no 404.
func TestExampleURLFileMatchesTheShop(t *testing.T) {
	var b strings.Builder
	b.WriteString("# The sample shop's 50 most visited pages, in siege's format. Start the shop with\n")
	b.WriteString("#   webload demo --serve --addr 127.0.0.1:8081\n")
	b.WriteString("# and load it with\n")
	b.WriteString("#   SITE=http://127.0.0.1:8081 webload -c 20 -r 50 -f examples/shop-urls.txt\n\n")
	for _, p := range Catalogue() {
		b.WriteString("$(SITE)" + p + "\n")
	}
	if *update {
		if err := os.WriteFile(urlsFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(urlsFile)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if string(got) != b.String() {
		t.Errorf("%s is out of date; run go test ./internal/shop -update", urlsFile)
	}
}
