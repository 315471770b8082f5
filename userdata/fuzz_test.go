package userdata

import (
	"bytes"
	"strings"
	"testing"

	"github.com/webload/webload/extract"
)

// FuzzRead feeds Parse arbitrary files: it never panics, a table it accepts has valid,
// distinct names and rows as wide as its header, and an error is one line that names the file.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"user,pass\nalice,a\n",
		"\ufeffuser,pass\r\n\"a,b\",\"c\"\"d\"\r\n",
		"user\n\n\n",
		"a,a\n1,2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := Parse(bytes.NewReader(data), "f.csv", Random)
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "f.csv") || strings.Contains(msg, "\n") {
				t.Fatalf("error %q: want one line starting with the file name", msg)
			}
			return
		}
		if tab.Len() < 1 || len(tab.Names()) < 1 {
			t.Fatalf("accepted %d rows of %d names", tab.Len(), len(tab.Names()))
		}
		seen := map[string]bool{}
		for _, n := range tab.Names() {
			if !extract.IsName(n) || seen[n] {
				t.Fatalf("accepted the name %q (seen before: %v)", n, seen[n])
			}
			seen[n] = true
		}
		for u := range tab.Len() + 1 {
			if row := tab.Row(u, nil); len(row) != len(tab.Names()) {
				t.Fatalf("row %d has %d values for %d names", u, len(row), len(tab.Names()))
			}
		}
	})
}
