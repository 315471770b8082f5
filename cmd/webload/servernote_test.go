package main

import (
	"strings"
	"testing"
	"time"
)

// LA and MEM read with --server-metrics local measure this machine: compare says so, in every
// format, beside the columns.
func TestCompareSaysServerMetricsLocal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := stackRun(t, dir, "old", time.Millisecond, "--server-metrics", "local")
	b := stackRun(t, dir, "new", time.Millisecond)
	tests := []struct {
		format string
		want   []string
	}{
		{"text", []string{"LA†", "MEM (MB)†", "Note: † LA and MEM were read on the load machine itself (--server-metrics local) in old"}},
		{"md", []string{"| LA† |", "| MEM (MB)† |", "Note: † LA and MEM were read on the load machine itself"}},
		{"json", []string{`"note": "read on the load machine (--server-metrics local), not the server, in old"`}},
	}
	for _, tc := range tests {
		stdout, stderr, code := webload(t, nil, "compare", "--format", tc.format, a, b)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", tc.format, code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s lacks %q:\n%s", tc.format, w, stdout)
			}
		}
	}
}
