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

// TestImportedListFollowsSITE: the README's way to point an imported list at another stack,
// --base '$(SITE)' at import and SITE=... at run time, loads the stack SITE names.
func TestImportedListFollowsSITE(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	list := filepath.Join(dir, "urls.txt")
	_, stderr, code := webload(t, nil, "urls", "import", "--base", "$(SITE)", "-o", list, accessLog(t, dir))
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	text, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "\n$(SITE)/catalog?page=2\n") || !strings.Contains(string(text), "# The URLs start with $(SITE): run with SITE=http://host:port in the environment") {
		t.Errorf("the list:\n%s", text)
	}
	_, stderr, code = webload(t, nil, "-c", "1", "-r", "1", "-f", list)
	if code != 2 || !strings.Contains(stderr, "undefined variable SITE") {
		t.Errorf("without SITE: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = webload(t, map[string]string{"SITE": site.URL}, "-q", "-c", "2", "-r", "10", "-f", list)
	if code != 0 || strings.Contains(stderr, "warning") {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	hits := site.snapshot()
	if hits["/"]+hits["/catalog"]+hits["/checkout"] != 20 {
		t.Errorf("the site SITE names got %v, want 20 requests", hits)
	}
}
