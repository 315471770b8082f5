// Package golden compares a test's output with a file kept beside the test, the way every
// package's golden tests do it: a difference shows both texts, and -update rewrites the file so
// that the change shows in review.
package golden

import (
	"bytes"
	"os"
	"testing"
)

// Check compares got with the file at path. With update it writes got there instead, so the
// test passes and the diff is left for review.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("rewrite golden file: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run the test with -update after checking the difference):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
