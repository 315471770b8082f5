package main

import (
	"os"
	"path/filepath"
	"testing"
)

// An output that cannot be written is found before the first request: the run exits 2 with one
// line naming the flag, the path and what is wrong, and the site sees no request at all.
func TestUnwritableOutputsStopTheRunBeforeItStarts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing-dir")
	file := filepath.Join(dir, "file.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // after the subtests
		entries, err := os.ReadDir(dir)
		if err != nil || len(entries) != 1 {
			t.Errorf("the folder holds %d entries after the checks (%v), want only the file the test made", len(entries), err)
		}
	})
	tests := []struct {
		name string
		args []string
		want string // the whole of stderr
	}{
		{"-o", []string{"-o", filepath.Join(missing, "x.json")},
			"-o " + filepath.Join(missing, "x.json") + ": directory " + missing + " does not exist"},
		{"--html", []string{"--html", filepath.Join(missing, "r.html")},
			"--html " + filepath.Join(missing, "r.html") + ": directory " + missing + " does not exist"},
		{"--hdr-log", []string{"--hdr-log", filepath.Join(file, "x.hlog")},
			"--hdr-log " + filepath.Join(file, "x.hlog") + ": " + file + " is not a directory"},
		{"-l", []string{"-l", filepath.Join(missing, "siege.log")},
			"-l " + filepath.Join(missing, "siege.log") + ": directory " + missing + " does not exist"},
		{"--csv", []string{"--csv", dir},
			"--csv " + dir + ": " + dir + " is a directory"},
		{"--junit", []string{"--assert", "p95<10s", "--junit", filepath.Join(missing, "j.xml")},
			"--junit " + filepath.Join(missing, "j.xml") + ": directory " + missing + " does not exist"},
		{"--history", []string{"--history", filepath.Join(file, "runs")},
			"--history " + filepath.Join(file, "runs") + ": " + file + " is not a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			site := newCounter(t, 0, 200)
			args := append([]string{"-c", "1", "-r", "1"}, tc.args...)
			_, stderr, code := webload(t, nil, append(args, site.URL+"/")...)
			if code != exitUsage || stderr != "webload: "+tc.want+"\n" {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, "webload: "+tc.want+"\n")
			}
			if hits := site.snapshot(); len(hits) != 0 {
				t.Errorf("the site saw requests %v before the mistake was found", hits)
			}
		})
	}
}
