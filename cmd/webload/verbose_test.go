package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// -v prints each request as it was sent: a redirect hop with its own method and URL (a POST
// answered by 303 is followed by a GET), and each resource by its URL, all URLs in full.
func TestVerboseNamesEachRequest(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/login":
			http.Redirect(w, r, "/wiki/Main_Page", http.StatusSeeOther)
		case "/wiki/Main_Page":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<link rel=stylesheet href="/load.php?only=styles"><img src=/logo.png>`))
		default:
			_, _ = w.Write([]byte("resource"))
		}
	}))
	t.Cleanup(site.Close)
	file := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(file, []byte(site.URL+"/login POST user=a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := webload(t, nil, "-v", "-c", "1", "-r", "1", "--parser", "-f", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	line := regexp.MustCompile(`(?m)^HTTP/1\.1 (\d+) +\d+\.\d\d secs: +\d+ bytes ==> (\S+) +(\S+)$`)
	var got []string
	for _, m := range line.FindAllStringSubmatch(stdout, -1) {
		got = append(got, m[1]+" "+m[2]+" "+m[3])
	}
	want := []string{
		"303 POST " + site.URL + "/login",
		"200 GET " + site.URL + "/wiki/Main_Page",
	}
	resources := map[string]bool{"200 GET " + site.URL + "/load.php?only=styles": true, "200 GET " + site.URL + "/logo.png": true}
	if len(got) != 4 || got[0] != want[0] || got[1] != want[1] || !resources[got[2]] || !resources[got[3]] || got[2] == got[3] {
		t.Errorf("verbose lines %q\nwant %q and then the two resources %v (in either order)\nstdout:\n%s", got, want, resources, stdout)
	}
}
