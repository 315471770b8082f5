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
