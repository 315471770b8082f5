package dbsite

import (
	"strconv"
	"strings"
	"testing"
)

func TestDollarPlaceholders(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"SELECT name FROM t WHERE id = ?", "SELECT name FROM t WHERE id = $1"},
		{"SELECT a FROM t WHERE b = ? AND c = ? LIMIT ?", "SELECT a FROM t WHERE b = $1 AND c = $2 LIMIT $3"},
		{"SELECT 'é' WHERE x=?", "SELECT 'é' WHERE x=$1"},
	}
	for _, tc := range tests {
		if got := dollarPlaceholders(tc.in); got != tc.want {
			t.Errorf("dollarPlaceholders(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzDollarPlaceholders: every ? becomes the next $N, in order, and nothing else changes.
func FuzzDollarPlaceholders(f *testing.F) {
	f.Add("SELECT name FROM t WHERE id = ?")
	f.Add("??")
	f.Add("")
	f.Fuzz(func(t *testing.T, q string) {
		got := dollarPlaceholders(q)
		if strings.Contains(got, "?") {
			t.Fatalf("%q: a ? is left in %q", q, got)
		}
		n := strings.Count(q, "?")
		want := q
		for i := 1; i <= n; i++ {
			want = strings.Replace(want, "?", "$"+strconv.Itoa(i), 1)
		}
		if got != want {
			t.Fatalf("%q became %q, want %q", q, got, want)
		}
	})
}
