package stats

import "testing"

func TestLabel(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		label string
		i     int
		want  string
	}{
		{"labelled", "MySQL 5.1", 3, "MySQL 5.1"},
		{"first unlabelled", "", 0, "run 1"},
		{"third unlabelled", "", 2, "run 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := Label(&Report{Label: c.label}, c.i); got != c.want {
				t.Errorf("Label(%q, %d) = %q; want %q", c.label, c.i, got, c.want)
			}
		})
	}
}

func TestPrintable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, want string
	}{
		{"plain", "MariaDB 10.0 – XtraDB", "MariaDB 10.0 – XtraDB"},
		{"terminal colour", "a\x1b[31mb", `a\x1b[31mb`},
		{"forged CI line", "a\n::error::x", `a\n::error::x`},
		{"carriage return and tab", "a\rb\tc", `a\rb\tc`},
		{"DEL and C1 CSI", "a\x7fb\u009bc", `a\x7fb\u009bc`},
		{"byte that is no UTF-8", "a\xffb", `a\xffb`},
		{"line separator, no control", "a\u2028b", "a\u2028b"},
		{"backslashes kept", `C:\runs\x`, `C:\runs\x`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := Printable(c.in)
			if got != c.want {
				t.Errorf("Printable(%q) = %q; want %q", c.in, got, c.want)
			}
			if again := Printable(got); again != got {
				t.Errorf("escaping twice changed %q to %q", got, again)
			}
		})
	}
}
