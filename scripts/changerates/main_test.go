package main

import (
	"strings"
	"testing"

	"github.com/webload/webload/changepoint"
)

// The program prints a row per case and rule, and one per case of change points; the rates
// themselves are what it measures, not what this checks.
func TestRun(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := run(&b, 3, changepoint.DefaultConfig()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, sc := range scenarios {
		if n := strings.Count(out, "| "+sc.name+" |"); n != 4 {
			t.Errorf("%q: %d rows, want 3 rules and its change points:\n%s", sc.name, n, out)
		}
	}
}
