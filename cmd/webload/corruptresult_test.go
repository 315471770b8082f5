package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hand-corrupted result is refused by every command that reads saved results, with exit 2 and
// one line naming the file and the JSON key, instead of being judged as if measured.
func TestCorruptResultsAreRefused(t *testing.T) {
	t.Parallel()
	saved := filepath.Join("..", "..", "stats", "testdata", "saved")
	corrupt := filepath.Join("..", "..", "stats", "testdata", "corrupt")
	for _, fix := range []struct{ file, key string }{
		{"negative-status.json", `status_codes["200"] is -100`},
		{"p95-beyond.json", "percentiles.p95 is 9999 s"},
		{"nan.json", `after key "response_time"`},
	} {
		bad := filepath.Join(corrupt, fix.file)
		history := t.TempDir()
		for i, p := range []string{filepath.Join(saved, "closed.json"), bad} {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(history, []string{"1.json", "2.json"}[i]), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		for _, cmd := range []struct {
			name, file string
			args       []string
		}{
			{"compare", bad, []string{"compare", filepath.Join(saved, "closed.json"), bad}},
			{"merge", bad, []string{"merge", filepath.Join(saved, "shard0.json"), bad}},
			{"report", bad, []string{"report", "--html", filepath.Join(t.TempDir(), "r.html"), bad}},
			{"compare --history", filepath.Join(history, "2.json"), []string{"compare", "--history", history, "--min-history", "2"}},
		} {
			t.Run(cmd.name+" "+fix.file, func(t *testing.T) {
				t.Parallel()
				stdout, stderr, code := webload(t, nil, cmd.args...)
				if code != exitUsage {
					t.Errorf("exit %d, want %d\n%s%s", code, exitUsage, stdout, stderr)
				}
				line := strings.TrimSuffix(stderr, "\n")
				if strings.Contains(line, "\n") || !strings.Contains(line, cmd.file) || !strings.Contains(line, fix.key) {
					t.Errorf("stderr %q: want one line naming %s and %q", stderr, cmd.file, fix.key)
				}
			})
		}
	}
}
