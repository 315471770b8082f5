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

// A check's $(NAME) takes the value of the file's variable or the environment's, which stands
// for itself: quoted in a regular expression, escaped in any string. A regular expression's own
// $ and ${n} are left alone, and a per-user or undefined variable is refused, naming its line
// and column, where it used to stay in the check and never match.
func TestCheckVariables(t *testing.T) {
	t.Parallel()
	env := map[string]string{"SITE_NAME": `Kettle "Shop" 2.0`, "CODE": "200"}
	opt := Options{
		Getenv:  func(n string) (string, bool) { v, ok := env[n]; return v, ok },
		PerUser: func(n string) bool { return n == "user" },
	}
	for _, tc := range []struct {
		name, in, want string
		err            string // the error's start, "" for none
	}{
		{"file variable in a regular expression", "WHO=a.b (c)\n#@check body~\"Hello, $(WHO)!\"\nhttp://h/\n",
			`body~"Hello, a\.b \(c\)!"`, ""},
		{"backslashes and quotes", "WHO=\\\" x\\\n#@check body~\"$(WHO)\" && header:X==\"$(WHO)\"\nhttp://h/\n",
			`body~"\\\\\" x\\\\" && header:X=="\\\" x\\"`, ""},
		{"environment variable in a header value", "#@check header:X-Site==\"$(SITE_NAME)\" && status==$(CODE)\nhttp://h/\n",
			`header:X-Site=="Kettle \"Shop\" 2.0" && status==200`, ""},
		{"the file's definition wins", "CODE=404\n#@check status==$(CODE)\nhttp://h/\n", "status==404", ""},
		{"a regular expression's own dollars", "#@check body~\"x$\" && body!~\"${1}\\$(CODE)$(a-b)\"\nhttp://h/\n",
			`body~"x$" && body!~"${1}\$(CODE)$(a-b)"`, ""},
		{"per-user variable", "#@check body~\"Hello, $(user)\"\nhttp://h/\n", "",
			"u.txt:1: col 22: $(user) is a per-user variable"},
		{"set by #@extract", "#@extract token css:input[name=t] value\nhttp://h/\n#@check body~\"$(token)\"\nhttp://h/b\n", "",
			"u.txt:3: col 15: $(token) is a per-user variable"},
		{"undefined", "#@check body~\"$(NOPE)\"\nhttp://h/\n", "",
			"u.txt:1: col 15: undefined variable NOPE (set it in the environment or on a line NOPE=VALUE above this one)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(strings.NewReader(tc.in), "u.txt", "", opt)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			last := got[len(got)-1]
			if len(last.Checks) != 1 || last.Checks[0].String() != tc.want {
				t.Errorf("checks %q, want %q", last.Checks, tc.want)
			}
		})
	}
}

// The check a variable filled in matches its value, special characters and all.
func TestCheckVariableMatches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		value, yes, no string
	}{
		{"a.b (c)", "a.b (c)", "aXb (c)"},
		{`\" x\`, `\" x\`, `" x`},
	} {
		env := func(string) (string, bool) { return tc.value, true }
		got, err := Parse(strings.NewReader("#@check body~\"<p>$(WHO)</p>\" && header:X==\"$(WHO)\"\nhttp://h/\n"), "u.txt", "", Options{Getenv: env})
		if err != nil {
			t.Fatal(err)
		}
		var e check.Eval
		for v, want := range map[string]bool{tc.yes: true, tc.no: false} {
			body := "<p>" + v + "</p>"
			e.Start(check.NewSet(got[0].Checks...), 200)
			if ok := e.Finish(func(string) []byte { return []byte(v) }, int64(len(body)), []byte(body)); ok != want {
				t.Errorf("value %q: %q passes %v, want %v", tc.value, v, ok, want)
			}
		}
	}
}
