package urls

import (
	"errors"
	"strings"
	"testing"
)

// mapValues is a user's variables for the tests.
type mapValues map[string]string

func (m mapValues) Value(name string) (string, bool) { v, ok := m[name]; return v, ok }

func TestPerUserLines(t *testing.T) {
	t.Parallel()
	perUser := func(name string) bool { return name == "user" || name == "pass" }
	tests := []struct {
		name, in           string
		url, body          string // the target as kept, references in
		urlVars, bodyVars  bool
		filledURL, filledB string // with user "A&B é" and pass "p+w d"
	}{
		{"plain line", "http://h/a?x=1", "http://h/a?x=1", "", false, false, "", ""},
		{"data column in the path", "http://h/wiki/User:$(user)", "http://h/wiki/User:$(user)", "", true, false, "http://h/wiki/User:A%26B%20%C3%A9", ""},
		{"every form of reference", "http://h/${user}/$user?p=$(pass)", "http://h/$(user)/$(user)?p=$(pass)", "", true, false, "http://h/A%26B%20%C3%A9/A%26B%20%C3%A9?p=p%2Bw%20d", ""},
		{"file variable expanded, data column kept", "S=http://h\n$(S)/u/$(user)", "http://h/u/$(user)", "", true, false, "http://h/u/A%26B%20%C3%A9", ""},
		{"form body is form-encoded", "http://h/login POST name=$(user)&pw=$(pass)", "http://h/login", "name=$(user)&pw=$(pass)", false, true, "", "name=A%26B+%C3%A9&pw=p%2Bw+d"},
		{"json body as is", `http://h/api POST -T application/json; {"u":"$(user)"}`, "http://h/api", `{"u":"$(user)"}`, false, true, "", `{"u":"A&B é"}`},
		{"escaped dollar stays", `http://h/a?x=\$y`, "http://h/a?x=$y", "", false, false, "", ""},
		{"extracted name in a later line", "#@extract tok header:X-T\nhttp://h/a\nhttp://h/b?t=$(tok)", "http://h/b?t=$(tok)", "", true, false, "", ""},
	}
	vals := mapValues{"user": "A&B é", "pass": "p+w d", "tok": "t"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(strings.NewReader(tt.in), "u.txt", "", Options{PerUser: perUser})
			if err != nil {
				t.Fatal(err)
			}
			tg := got[len(got)-1]
			if tg.URL != tt.url || string(tg.Body) != tt.body {
				t.Fatalf("kept %q %q, want %q %q", tg.URL, tg.Body, tt.url, tt.body)
			}
			if (tg.URLVars != nil) != tt.urlVars || (tg.BodyVars != nil) != tt.bodyVars {
				t.Fatalf("templates url %v body %v, want %v %v", tg.URLVars != nil, tg.BodyVars != nil, tt.urlVars, tt.bodyVars)
			}
			if tt.filledURL != "" {
				b, err := tg.URLVars.Append(nil, vals, InURL)
				if err != nil || string(b) != tt.filledURL {
					t.Errorf("URL filled %q (%v), want %q", b, err, tt.filledURL)
				}
			}
			if tt.filledB != "" {
				ct := tg.ContentType
				if ct == "" {
					ct = "application/x-www-form-urlencoded" // the run's default, as siege's
				}
				b, err := tg.BodyVars.Append(nil, vals, BodyPlace(ct))
				if err != nil || string(b) != tt.filledB {
					t.Errorf("body filled %q (%v), want %q", b, err, tt.filledB)
				}
			}
		})
	}
}

func TestTemplateUnsetAndHeaderValues(t *testing.T) {
	t.Parallel()
	tmpl := CompileTemplate("Bearer $(tok) for $(user)", func(n string) bool { return n == "tok" || n == "user" })
	if got := strings.Join(tmpl.Names(), ","); got != "tok,user" {
		t.Fatalf("names %q", got)
	}
	_, err := tmpl.Append(nil, mapValues{"user": "a"}, InHeader)
	var unset *UnsetError
	if !errors.As(err, &unset) || unset.Name != "tok" || !errors.Is(err, ErrUnset) {
		t.Fatalf("unset value gave %v", err)
	}
	_, err = tmpl.Append(nil, mapValues{"user": "a", "tok": "x\r\nEvil: 1"}, InHeader)
	if !errors.Is(err, ErrValueBreaksHeader) || strings.Contains(err.Error(), "Evil") {
		t.Fatalf("a value with CRLF in a header gave %v", err)
	}
	if CompileTemplate("$(other) $(user", func(n string) bool { return n == "user" }) != nil {
		t.Error("a text with no complete per-user reference has a template")
	}
	if CompileTemplate("x $(user)", nil) != nil {
		t.Error("no per-user names, yet a template")
	}
}

func TestDataColumnDefinedInFileIsRefused(t *testing.T) {
	t.Parallel()
	_, err := Parse(strings.NewReader("user=bob\nhttp://h/$(user)\n"), "u.txt", "", Options{PerUser: func(n string) bool { return n == "user" }})
	if err == nil || !strings.HasPrefix(err.Error(), "u.txt:1: user is a per-user variable") {
		t.Fatalf("error %v", err)
	}
}
