package urls

import (
	"errors"
	"strings"
	"testing"

	"github.com/webload/webload/extract"
)

func TestExtractDirectives(t *testing.T) {
	t.Parallel()
	in := "#@extract token css:input[name=wpLoginToken] value\n" +
		"#@check status==200\n" +
		"  #@extract\tsid cookie:wiki_session \r\n" +
		"#@weight 2\n" +
		"http://h/login\n" +
		"http://h/b\n" +
		"# a comment\n" +
		"#@extract id json:items.0.id\n" +
		"http://h/c POST x=1\n"
	got, err := Parse(strings.NewReader(in), "u.txt", "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"token css:input[name=wpLoginToken] value", "sid cookie:wiki_session"}, nil, {"id json:items.0.id"}}
	if len(got) != len(want) {
		t.Fatalf("%d targets, want %d", len(got), len(want))
	}
	for i, tg := range got {
		var have []string
		for _, r := range tg.Extracts {
			have = append(have, r.String())
		}
		if strings.Join(have, "|") != strings.Join(want[i], "|") {
			t.Errorf("target %d extracts %q, want %q", i, have, want[i])
		}
	}
	if len(got[0].Checks) != 1 || got[0].Weight != 2 {
		t.Errorf("extracts around a check and a weight lost them: %+v", got[0])
	}
}

func TestExtractDirectiveErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"unknown source", "http://h/a\n#@extract t xpath://a\nhttp://h/b\n", `u.txt:2: col 13: unknown source "xpath"`},
		{"column counts the line's blanks", "  #@extract  t regex:(\nhttp://h/\n", "u.txt:1: col 22: bad regular expression"},
		{"bad name", "#@extract my-token header:X\nhttp://h/\n", `u.txt:1: col 11: bad variable name "my-token"`},
		{"empty", "#@extract\nhttp://h/\n", "u.txt:1: col 10: want NAME SOURCE"},
		{"no URL after it", "http://h/a\n#@extract t header:X\n# the end\n", "u.txt:2: #@extract applies to no URL: it must stand before a URL line"},
		{"no URL after a check and an extract", "http://h/a\n#@check status==200\n#@extract t header:X\n", "u.txt:2: #@check applies to no URL"},
		{"extract first, then a check, no URL", "http://h/a\n#@extract t header:X\n#@check status==200\n", "u.txt:2: #@extract applies to no URL"},
		{"a definition of an extracted name", "#@extract token header:X-Token\nhttp://h/a\ntoken=x\n", "u.txt:3: token is a per-user variable"},
		{"a name used before the line that extracts it", "http://h/b?t=$(token)\n#@extract token header:X-Token\nhttp://h/a\n", "u.txt:1: undefined variable token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(strings.NewReader(tt.in), "u.txt", "", Options{})
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			var le *LineError
			if !errors.As(err, &le) {
				t.Errorf("error %v is not a *LineError", err)
			}
			var ee *extract.Error
			if strings.Contains(tt.want, "col ") && !errors.As(err, &ee) {
				t.Errorf("error %v should wrap an *extract.Error", err)
			}
		})
	}
}

// TestExtractNamesAreVariableNames pins that extract accepts as a variable name exactly what a
// URL file's $(NAME) does, so every extracted value can be referred to.
func TestExtractNamesAreVariableNames(t *testing.T) {
	t.Parallel()
	for c := 0; c < 256; c++ {
		s := string([]byte{byte(c)})
		if extract.IsName(s) != isName(s) {
			t.Errorf("byte %q: extract.IsName %v, urls %v", s, extract.IsName(s), isName(s))
		}
	}
	if extract.IsName("") || isName("") {
		t.Error("the empty name is accepted")
	}
}
