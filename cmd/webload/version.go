package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionLine is what -V prints: the release, and what the build itself records of where it
// came from (the commit and its time, and whether the tree had changes), so that a report of a
// problem names the binary exactly; the Go release and the platform last.
func versionLine(info *debug.BuildInfo, ok bool) string {
	var parts []string
	if ok {
		settings := map[string]string{}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			commit := "commit " + rev[:min(12, len(rev))]
			if settings["vcs.modified"] == "true" {
				commit += " with local changes"
			}
			parts = append(parts, commit)
		}
		if at := settings["vcs.time"]; at != "" {
			parts = append(parts, "committed "+at)
		}
	}
	parts = append(parts, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
	return fmt.Sprintf("webload %s (%s)\n", version, strings.Join(parts, ", "))
}

// printVersion answers -V.
func printVersion(w io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	_, err := io.WriteString(w, versionLine(info, ok))
	return err
}
