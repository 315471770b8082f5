package urls

import (
	"errors"
	"strings"
	"testing"

	"github.com/webload/webload/check"
)

func TestCheckDirectives(t *testing.T) {
	t.Parallel()
	in := "#@check status==200\n#@weight 3\n  #@check body!~\"database error\"\nhttp://h/a\nhttp://h/b\n# a comment\n#@check size>=10KB\nhttp://h/c POST x=1\n"
	got, err := Parse(strings.NewReader(in), "u.txt", "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"status==200", `body!~"database error"`}, nil, {"size>=10KB"}}
	for i, tg := range got {
		var have []string
		for _, e := range tg.Checks {
			have = append(have, e.String())
		}
		if strings.Join(have, "|") != strings.Join(want[i], "|") {
			t.Errorf("target %d checks %q, want %q", i, have, want[i])
		}
	}
	if got[0].Weight != 3 {
		t.Errorf("a check between a weight and its URL lost the weight: %v", got[0].Weight)
	}
}

func TestCheckDirectiveErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"bad operator", "http://h/a\n#@check status=200\nhttp://h/b\n", "u.txt:2: col 15: want ==, !=, <, <=, > or >= after status"},
		{"column counts the line's blanks", "  #@check   body~\"(\"\nhttp://h/\n", "u.txt:1: col 18: bad regular expression"},
		{"empty", "#@check\nhttp://h/\n", "u.txt:1: col 8: empty check"},
		{"no URL after it", "http://h/a\n#@check status==200\n# the end\n", "u.txt:2: #@check applies to no URL: it must stand before a URL line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(strings.NewReader(tt.in), "u.txt", "", Options{})
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			var ce *check.Error
			if strings.Contains(tt.want, "col ") && !errors.As(err, &ce) {
				t.Errorf("error %v should wrap a *check.Error", err)
			}
		})
	}
}
