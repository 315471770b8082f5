package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/contentsite"
)

// Two stacks reached by one production name through --connect-to or --resolve answer alike,
// although each page links to its stack by the address it is really served on (MediaWiki's
// "Retrieved from" line): the addresses a run connects to are masked in the fingerprints as the
// URLs' own hosts are.
func TestMappedStacksCompareAlike(t *testing.T) {
	t.Parallel()
	var ports []string
	for range 2 {
		s, err := contentsite.Start(contentsite.Baseline)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		u, err := url.Parse(s.URLs()[0])
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, u.Port())
	}
	for _, tc := range []struct {
		name string
		base func(port string) string   // the URL list's scheme and host
		args func(port string) []string // the mapping to the stack on port
	}{
		{"connect-to", func(string) string { return "http://www.shop.example" },
			func(p string) []string { return []string{"--connect-to", "www.shop.example:80:127.0.0.1:" + p} }},
		{"resolve", func(p string) string { return "http://www.shop.example:" + p },
			func(p string) []string { return []string{"--resolve", "www.shop.example:" + p + ":127.0.0.1"} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var results []string
			for i, p := range ports {
				list := filepath.Join(dir, "urls"+p+".txt")
				var b strings.Builder
				for _, path := range contentsite.Paths {
					b.WriteString(tc.base(p) + path + "\n")
				}
				if err := os.WriteFile(list, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(dir, "stack"+string(rune('1'+i))+".json")
				args := append([]string{"-q", "-c", "2", "-r", "10", "--no-parser", "-f", list, "-o", out}, tc.args(p)...)
				if _, stderr, code := webload(t, nil, args...); code != 0 {
					t.Fatalf("stack on port %s: exit %d: %s", p, code, stderr)
				}
				results = append(results, out)
			}
			stdout, stderr, code := webload(t, nil, "compare", "--max-content-changes", "0", results[0], results[1])
			if code != 0 || !strings.Contains(stdout, "Content: the 10 URLs answer as the baseline did") {
				t.Errorf("exit %d, want 0 and no content change:\n%s%s", code, stdout, stderr)
			}
		})
	}
}
