package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/siegerc"
)

// writeRC writes a siegerc into a fresh folder and returns its path.
func writeRC(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "siegerc")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func set(flag, value string, line int) siegerc.Setting {
	return siegerc.Setting{Flag: flag, Value: value, Line: line}
}

// TestSiegercFlagValues checks the values whose syntax is the run flags': a bad one is an
// error naming the siegerc line, a good one passes as written.
func TestSiegercFlagValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		line int
		want string // "" for no error
	}{
		{"bad time", "time = soon\n", 1, "time: want NUM[S|M|H]"},
		{"zero timeout", "timeout = 0\n", 1, "timeout: want more than 0 seconds"},
		{"negative delay", "delay = -1\n", 1, "delay:"},
		{"good values", "time = 90S\ndelay = 0.5\ntimeout = 1m30s\n", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := writeRC(t, tc.text)
			settings, _, err := siegerc.Read(path, siegerc.Options{Check: checkSiegercValue})
			if tc.want == "" {
				if err != nil || len(settings) != strings.Count(tc.text, "\n") {
					t.Fatalf("settings %v, error %v", settings, err)
				}
				return
			}
			prefix := fmt.Sprintf("%s:%d: ", path, tc.line)
			if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want %q...%q", err, prefix, tc.want)
			}
		})
	}
}
