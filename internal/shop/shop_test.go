package shop

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestShopServesItsPages(t *testing.T) {
	t.Parallel()
	site, err := Start(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	pages := site.URLs()
	if len(pages) != 50 {
		t.Fatalf("%d pages, want 50", len(pages))
	}
	sizes := map[int]bool{}
	for _, u := range []string{pages[0], pages[1], pages[20], pages[49]} {
		if !strings.HasPrefix(u, "http://127.0.0.1:") {
			t.Fatalf("page %s is not on loopback", u)
		}
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasSuffix(string(body), "</body></html>\n") {
			t.Errorf("%s: status %d, %d bytes", u, resp.StatusCode, len(body))
		}
		sizes[len(body)] = true
	}
	if len(sizes) < 3 {
		t.Errorf("pages should differ in size, got sizes %v", sizes)
	}
	resp, err := http.Get(site.URL() + "/nowhere")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown page: status %d, want 404", resp.StatusCode)
	}
}

func TestShopStaysOnLoopback(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:0", ":0"} {
		if site, err := Start(Config{Addr: addr}); err == nil {
			site.Close()
			t.Errorf("Start(%q) served off loopback", addr)
		}
	}
}
