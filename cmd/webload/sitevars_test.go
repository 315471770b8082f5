package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSiteVariableAtRun: SITE in the environment reaches a list that uses $(SITE), and a list
// that names its host literally is loaded as written, with a warning that SITE went unused;
// the banner names the host either way.
func TestSiteVariableAtRun(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	tests := []struct {
		name, list string
		env        map[string]string
		warning    string
	}{
		{"the list uses $(SITE)", "$(SITE)/a\n", map[string]string{"SITE": site.URL}, ""},
		{"the list names its host", site.URL + "/a\n", map[string]string{"SITE": "http://127.0.0.1:9"},
			"webload: warning: SITE is set (http://127.0.0.1:9) but urls.txt never uses $(SITE): its URLs go to " + site.URL + " as written\n"},
		{"the list defines SITE", "SITE=" + site.URL + "\n$(SITE)/a\n", map[string]string{"SITE": "http://127.0.0.1:9"},
			"webload: warning: SITE is set (http://127.0.0.1:9) but urls.txt:1 defines SITE, which wins over the environment\n"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sub := filepath.Join(dir, string(rune('a'+i)))
			if err := os.Mkdir(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			list := filepath.Join(sub, "urls.txt")
			if err := os.WriteFile(list, []byte(tc.list), 0o644); err != nil {
				t.Fatal(err)
			}
			before := site.snapshot()["/a"]
			_, stderr, code := webload(t, tc.env, "-c", "1", "-r", "2", "-f", list)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := site.snapshot()["/a"] - before; got != 2 {
				t.Errorf("the site got %d requests, want 2", got)
			}
			if !strings.Contains(stderr, "over 1 URL on "+site.URL+"\n") {
				t.Errorf("the banner does not name %s:\n%s", site.URL, stderr)
			}
			warning := strings.ReplaceAll(tc.warning, "urls.txt", list)
			if got := strings.Contains(stderr, "warning:"); got != (warning != "") || warning != "" && !strings.Contains(stderr, warning) {
				t.Errorf("stderr:\n%s\nwant the warning %q", stderr, warning)
			}
		})
	}
}
