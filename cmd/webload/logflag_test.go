package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogFlagWithoutFile: siege's -l takes its file glued and alone logs to siege's own file;
// webload's needs the FILE, and a bare -l, which would take the URL or the next flag for it,
// is one line naming -l rather than "no URL" or "expected one URL".
func TestLogFlagWithoutFile(t *testing.T) {
	t.Parallel()
	const url = "http://127.0.0.1:1/"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"alone", []string{"-l"}, "webload: -l needs the FILE to log to (-l FILE)"},
		{"before the URL", []string{"-l", url}, "webload: -l needs the FILE to log to before the URL (-l FILE " + url + ")"},
		{"after the URL", []string{url, "-l"}, "webload: -l needs the FILE to log to (-l FILE)"},
		{"before a flag", []string{"-l", "-c", "2", url}, `webload: -l needs the FILE to log to (-l FILE), not "-c"`},
		{"long name", []string{"--log", url}, "webload: --log needs the FILE to log to before the URL (--log FILE " + url + ")"},
		{"run command", []string{"run", "-l", url}, "webload: -l needs the FILE to log to before the URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webload(t, nil, tc.args...)
			if code != exitUsage || !strings.HasPrefix(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("webload %s: exit %d, stderr %q; want exit %d and one line starting %q",
					strings.Join(tc.args, " "), code, stderr, exitUsage, tc.want)
			}
		})
	}
}

// TestLogFlagWithFile: -l FILE, glued -lFILE and --log=FILE log one line each; a -l that is
// another flag's value is no -l.
func TestLogFlagWithFile(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	for i, form := range [][]string{
		{"-l", filepath.Join(dir, "spaced.log")},
		{"-l" + filepath.Join(dir, "glued.log")},
		{"--log=" + filepath.Join(dir, "equals.log")},
		{"-l", filepath.Join(dir, "marked.log"), "-m", "-l"},
	} {
		args := append(append([]string{"-q", "-c", "1", "-r", "1"}, form...), site.URL+"/")
		if _, stderr, code := webload(t, nil, args...); code != 0 {
			t.Fatalf("form %d, webload %s: exit %d, stderr %q", i, strings.Join(args, " "), code, stderr)
		}
	}
	for _, name := range []string{"spaced.log", "glued.log", "equals.log", "marked.log"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || len(b) == 0 {
			t.Errorf("no log line in %s: %v", name, err)
		}
	}
}
