package main

import "github.com/webload/webload/internal/atomicfile"

// checkOutputs books a problem for every file the run is asked to write that it could not: a
// missing folder, a file where a folder should be, a folder without write access. They are
// found before the first request, so that a mistyped path costs a second, not the result of
// an hour of load. Each check does what the write will do (a temporary file created and
// removed in the folder) and leaves nothing behind.
func checkOutputs(o *runOptions, p *problems) {
	outputs := []struct {
		flag, name, path string
		check            func(string) error
	}{
		{"output", "-o", o.output, atomicfile.CheckWrite},
		{"html", "--html", o.html, atomicfile.CheckWrite},
		{"hdr-log", "--hdr-log", o.hdrLog, atomicfile.CheckWrite},
		{"junit", "--junit", o.junit, atomicfile.CheckWrite},
		{"log", "-l", o.log, atomicfile.CheckAppend},    // appended to, run after run
		{"csv", "--csv", o.csv, atomicfile.CheckAppend}, // created in place, written as the run goes
		{"history", "--history", o.history, atomicfile.CheckDir},
	}
	for _, out := range outputs {
		if out.path == "" {
			continue
		}
		if err := out.check(out.path); err != nil {
			p.addf(out.flag, "%s %s: %w", out.name, out.path, err)
		}
	}
}
