package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/urls"
)

// accessLog writes a combined-format log whose pages were visited 60, 30 and 10 times, with
// noise the import must leave out: an asset, a bot, a 404 and a POST.
func accessLog(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	line := func(method, path string, status int, agent string) {
		fmt.Fprintf(&b, "203.0.113.7 - - [10/Nov/2026:13:55:36 +0000] \"%s %s HTTP/1.1\" %d 2326 \"-\" \"%s\"\n", method, path, status, agent)
	}
	for i := range 100 {
		switch {
		case i%10 == 9:
			line("GET", "/checkout", 200, "Mozilla/5.0")
		case i%10 >= 6:
			line("GET", "/catalog?page=2", 200, "Mozilla/5.0")
		default:
			line("GET", "/", 200, "Mozilla/5.0")
		}
	}
	line("GET", "/static/app.css", 200, "Mozilla/5.0")
	line("GET", "/", 200, "Googlebot/2.1")
	line("GET", "/missing", 404, "Mozilla/5.0")
	line("POST", "/cart", 200, "Mozilla/5.0")
	path := filepath.Join(dir, "access.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The end-to-end promise: import a log, run the list, and the site sees the log's proportions.
func TestImportedLogDrivesTheLoad(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	list := filepath.Join(dir, "urls.txt")
	_, stderr, code := webload(t, nil, "urls", "import", "--base", site.URL, "-o", list, accessLog(t, dir))
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "kept 3 URLs covering 100.0 %") || !strings.Contains(stderr, "skipped 1 rows: bot") {
		t.Errorf("import summary:\n%s", stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"-r walks the weights", []string{"-c", "10", "-r", "20"}},
		{"open model with a total", []string{"--rate", "500", "-r", "200"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := site.snapshot()
			_, stderr, code := webload(t, nil, append(append([]string{"-q"}, tc.args...), "-f", list)...)
			if code != 0 {
				t.Fatalf("run: exit %d: %s", code, stderr)
			}
			after := site.snapshot()
			for path, want := range map[string]int{"/": 120, "/catalog": 60, "/checkout": 20} {
				if got := after[path] - before[path]; got != want {
					t.Errorf("%s hit %d times, want %d (the log's 60:30:10 of 200)", path, got, want)
				}
			}
		})
	}
	// The file stays a URL file siege reads: its weights are comments to siege.
	if _, err := exec.LookPath("siege"); err != nil {
		t.Log("siege not installed; checked with webload's own parser only")
		return
	}
	home := t.TempDir()
	before := site.snapshot()["/"] + site.snapshot()["/catalog"] + site.snapshot()["/checkout"]
	cmd := exec.Command("siege", "-c", "1", "-r", "3", "-f", list)
	cmd.Env = append(os.Environ(), "HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("siege rejected the file: %v\n%s", err, out)
	}
	after := site.snapshot()["/"] + site.snapshot()["/catalog"] + site.snapshot()["/checkout"]
	if after-before != 3 {
		t.Errorf("siege made %d requests from the imported file, want 3", after-before)
	}
}

func TestImportBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.csv")
	if err := os.WriteFile(empty, []byte("Page,Pageviews\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no files", []string{"urls", "import"}, "give the files to read"},
		{"missing file", []string{"urls", "import", "--base", "http://127.0.0.1:1", filepath.Join(dir, "nope.csv")}, "no such file"},
		{"no usable rows", []string{"urls", "import", "--base", "http://127.0.0.1:1", empty}, "no usable rows"},
		{"unknown format", []string{"urls", "import", "--format", "xls", empty}, `unknown format "xls"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webload(t, nil, tc.args...)
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and one line with %q", code, stderr, tc.want)
			}
		})
	}
}

var updateExamples = flag.Bool("update", false, "rewrite the imported URL files in examples/import")

// Every sample export imports into the URL file kept beside it, and that file is one webload
// (and siege) reads.
func TestImportExamples(t *testing.T) {
	t.Parallel()
	samples, err := filepath.Glob("../../examples/import/*.csv")
	if err != nil {
		t.Fatal(err)
	}
	samples = append(samples, "../../examples/import/access.log")
	for _, sample := range samples {
		t.Run(filepath.Base(sample), func(t *testing.T) {
			t.Parallel()
			args := []string{"urls", "import", "--base", "http://127.0.0.1:8080"}
			if strings.Contains(sample, "generic") {
				args = append(args, "--format", "csv", "--url-column", "endpoint", "--count-column", "hits")
			}
			stdout, stderr, code := webload(t, nil, append(args, sample)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			// The header names the input as given; keep it independent of the test's folder.
			stdout = strings.ReplaceAll(stdout, "../../examples/import/", "examples/import/")
			golden := strings.TrimSuffix(sample, filepath.Ext(sample)) + ".urls.txt"
			if *updateExamples {
				if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/webload -run TestImportExamples -update)", err)
			}
			if stdout != string(want) {
				t.Errorf("%s is out of date:\n%s", golden, stdout)
			}
			if _, err := urls.ParseFile(golden, urls.Options{}); err != nil {
				t.Errorf("the imported file does not parse: %v", err)
			}
		})
	}
}
