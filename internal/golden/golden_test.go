package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder keeps what Check reports instead of failing the test that runs it.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, format)
}

func TestCheck(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "out.golden")
	if err := os.WriteFile(path, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		got      string
		update   bool
		wantErr  bool
		wantFile string
	}{
		{name: "same output passes", got: "kept\n", wantFile: "kept\n"},
		{name: "other output fails and leaves the file", got: "changed\n", wantErr: true, wantFile: "kept\n"},
		{name: "update rewrites the file", got: "changed\n", update: true, wantFile: "changed\n"},
		{name: "after the update the new output passes", got: "changed\n", wantFile: "changed\n"},
	}
	for _, tc := range tests { // in order: each case sees the file the last one left
		r := &recorder{TB: t}
		Check(r, path, []byte(tc.got), tc.update)
		if failed := len(r.errors) > 0; failed != tc.wantErr {
			t.Errorf("%s: failed = %v, want %v (%s)", tc.name, failed, tc.wantErr, strings.Join(r.errors, "; "))
		}
		if b, _ := os.ReadFile(path); string(b) != tc.wantFile {
			t.Errorf("%s: file holds %q, want %q", tc.name, b, tc.wantFile)
		}
	}
}
