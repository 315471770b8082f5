package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// `-f -` reads the URL list from standard input, so a list can be piped from another command
// (`webload urls import ... | webload -f -`) without a temporary file.
func TestURLFileFromStandardInput(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	list := fmt.Sprintf("# piped\n%[1]s/a\n%[1]s/b POST x=1\n", site.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out, errw bytes.Buffer
	app := newApp(&out, &errw, func(string) (string, bool) { return "", false })
	app.Reader = strings.NewReader(list)
	err := runCLI(ctx, app, []string{"webload", "-b", "-c", "2", "-r", "3", "-f", "-"})
	if code := exitCode(err, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	hits := site.snapshot()
	if hits["/a"]+hits["/b"] != 6 || hits["/a"] == 0 || hits["/b"] == 0 {
		t.Errorf("hits %v, want 6 requests over /a and /b", hits)
	}
}

// An absolute "<file" body in a URL file is refused unless --allow-absolute-bodies is given,
// and the error says how to allow it.
func TestAbsoluteBodiesNeedTheFlag(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	body := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(body, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(file, []byte(site.URL+"/post POST <"+body+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := webload(t, nil, "-b", "-c", "1", "-r", "1", "-f", file)
	if code != 2 || !strings.Contains(stderr, file+":1: ") || !strings.Contains(stderr, "--allow-absolute-bodies") {
		t.Errorf("without the flag: exit %d, stderr %q; want exit 2 naming %s:1 and the flag", code, stderr, file)
	}
	_, stderr, code = webload(t, nil, "-b", "-c", "1", "-r", "1", "--allow-absolute-bodies", "-f", file)
	if code != 0 {
		t.Fatalf("with the flag: exit %d: %s", code, stderr)
	}
	if n := site.snapshot()["/post"]; n != 1 {
		t.Errorf("/post hit %d times, want 1", n)
	}
}

// `file = -` in a siegerc reads the URL list from standard input, as `-f -` does, and not a
// file named "-"; a URL or -f on the command line wins over it, and stdin is then left alone.
func TestSiegercFileDashIsStandardInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string // before the site's URL, when withURL
		withURL  bool
		wantHits map[string]int
	}{
		{name: "file from the siegerc", wantHits: map[string]int{"/a": 2, "/b": 2}},
		{name: "a URL on the command line wins", withURL: true, wantHits: map[string]int{"/cli": 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			site := newCounter(t, 0, 200)
			dir := t.TempDir()
			rc := filepath.Join(dir, "siegerc")
			if err := os.WriteFile(rc, []byte("file = -\nconcurrent = 2\nreps = 2\nbenchmark = true\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			// A file named "-" beside the siegerc is what a path relative to the siegerc would
			// read; it must not be.
			if err := os.WriteFile(filepath.Join(dir, "-"), []byte(site.URL+"/wrong\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var out, errw bytes.Buffer
			app := newApp(&out, &errw, func(string) (string, bool) { return "", false })
			app.Reader = strings.NewReader(fmt.Sprintf("%[1]s/a\n%[1]s/b\n", site.URL))
			args := []string{"webload", "-R", rc, "--no-parser"}
			if tc.withURL {
				args = append(args, site.URL+"/cli")
			}
			err := runCLI(ctx, app, args)
			if code := exitCode(err, &errw); code != 0 {
				t.Fatalf("exit %d: %s", code, errw.String())
			}
			if got := site.snapshot(); !maps.Equal(got, tc.wantHits) {
				t.Errorf("hits %v, want %v", got, tc.wantHits)
			}
		})
	}
}
