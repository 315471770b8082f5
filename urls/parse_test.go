package urls

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/webload/webload/internal/testtier"
)

// bodyJSON is the content of testdata/body.json.
const bodyJSON = "{\"name\": \"bob\", \"tags\": [\"a\", \"b\"]}\n"

// parseCase is one successful Parse of text in the testdata folder.
type parseCase struct {
	name string
	text string
	env  map[string]string
	want []Target
}

// errorCase is one failing Parse; want is the exact error text.
type errorCase struct {
	name string
	text string
	env  map[string]string
	want string
}

// get builds the expected GET target at a line of urls.txt.
func get(url string, line int) Target {
	return Target{Method: "GET", URL: url, Source: src(line)}
}

// req builds an expected target with a method and an optional body.
func req(method, url string, body []byte, contentType string, line int) Target {
	return Target{Method: method, URL: url, Body: body, ContentType: contentType, Source: src(line)}
}

func src(line int) string { return "urls.txt:" + strconv.Itoa(line) }

func getenvFrom(env map[string]string) func(string) (string, bool) {
	if env == nil {
		return nil
	}
	return func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}
}

func parseCases() []parseCase {
	b := func(s string) []byte { return []byte(s) }
	return []parseCase{
		{name: "single url", text: "http://h/\n", want: []Target{get("http://h/", 1)}},
		{name: "no final newline", text: "http://a/\nhttp://b/", want: []Target{get("http://a/", 1), get("http://b/", 2)}},
		{name: "blank lines and comments", text: "# c\n\n   \n\t# indented\n#http://x/\nhttp://h/a\n",
			want: []Target{get("http://h/a", 6)}},
		{name: "surrounding blanks trimmed", text: " \t http://h/a \t \n", want: []Target{get("http://h/a", 1)}},
		{name: "crlf", text: "A=h\r\n\r\nhttp://$A/x\r\nhttp://h/ POST a=1\r\n",
			want: []Target{get("http://h/x", 3), req("POST", "http://h/", b("a=1"), "", 4)}},
		{name: "bare cr at end of line", text: "http://h/\r\r\n", want: []Target{get("http://h/", 1)}},
		{name: "bom", text: "\ufeffhttp://h/\n", want: []Target{get("http://h/", 1)}},
		{name: "bom before variable", text: "\ufeffA=h\nhttp://$A/\n", want: []Target{get("http://h/", 2)}},
		{name: "bom before comment", text: "\ufeff# c\nhttp://h/\n", want: []Target{get("http://h/", 2)}},

		// Variables.
		{name: "variable forms", text: "H=h\nhttp://$(H)/${H}/$H\n", want: []Target{get("http://h/h/h", 2)}},
		{name: "bare name stops at colon", text: "HOST=h\nhttp://$HOST:8080/\n", want: []Target{get("http://h:8080/", 2)}},
		{name: "variable uses earlier variable", text: "P=http\nH=h:81\nU=$(P)://$(H)\n$(U)/x\n",
			want: []Target{get("http://h:81/x", 4)}},
		{name: "redefinition applies to later lines", text: "H=a\nhttp://$H/\nH=b\nhttp://$H/\n",
			want: []Target{get("http://a/", 2), get("http://b/", 4)}},
		{name: "value skips blanks equals and colons", text: "H= :=:h\nhttp://$H/\n", want: []Target{get("http://h/", 2)}},
		{name: "inline comment on variable", text: "H=h   # the host\nhttp://$H/\n", want: []Target{get("http://h/", 2)}},
		{name: "inline comment after tab", text: "H=h\t# the host\nhttp://$H/\n", want: []Target{get("http://h/", 2)}},
		{name: "inline comment with slash", text: "H=h # see http://x/\nhttp://$H/\n", want: []Target{get("http://h/", 2)}},
		{name: "variable value with slash", text: "U=http://h/a\n$U/b\n", want: []Target{get("http://h/a/b", 2)}},
		{name: "glued hash kept in value", text: "V=a#b\nhttp://h/ POST $V\n",
			want: []Target{req("POST", "http://h/", b("a#b"), "", 2)}},
		{name: "empty value", text: "E=\nhttp://h/$(E)x\n", want: []Target{get("http://h/x", 2)}},
		{name: "value only a comment", text: "E= # nothing\nhttp://h/$(E)x\n", want: []Target{get("http://h/x", 2)}},
		{name: "digit and underscore names", text: "A_1=h\n1=p\nhttp://$A_1/$1\n", want: []Target{get("http://h/p", 3)}},
		{name: "space before equals is not a variable", text: "localhost/?a = 1\n",
			want: []Target{get("http://localhost/?a%20=%201", 1)}},
		{name: "query string is not a variable", text: "h/p?a=1\n", want: []Target{get("http://h/p?a=1", 1)}},
		{name: "environment fallback", text: "http://$HOST/\n", env: map[string]string{"HOST": "envhost"},
			want: []Target{get("http://envhost/", 1)}},
		{name: "file variable shadows environment", text: "HOST=filehost\nhttp://$HOST/\n",
			env: map[string]string{"HOST": "envhost"}, want: []Target{get("http://filehost/", 2)}},
		{name: "environment in variable value", text: "U=http://${HOST}\n$U/\n", env: map[string]string{"HOST": "e"},
			want: []Target{get("http://e/", 2)}},
		{name: "escaped dollar", text: "http://h/price?amount=\\$10\n", want: []Target{get("http://h/price?amount=$10", 1)}},
		{name: "escaped dollar in body", text: "http://h/ POST {\"p\":\"\\$5\"}\n",
			want: []Target{req("POST", "http://h/", b(`{"p":"$5"}`), "", 1)}},
		{name: "lone dollar kept", text: "http://h/a$\n", want: []Target{get("http://h/a$", 1)}},

		// Methods.
		{name: "every method", text: "h/ GET\nh/ HEAD\nh/ POST\nh/ PUT\nh/ PATCH\nh/ DELETE\nh/ OPTIONS\n",
			want: []Target{get("http://h/", 1), req("HEAD", "http://h/", nil, "", 2), req("POST", "http://h/", nil, "", 3),
				req("PUT", "http://h/", nil, "", 4), req("PATCH", "http://h/", nil, "", 5),
				req("DELETE", "http://h/", nil, "", 6), req("OPTIONS", "http://h/", nil, "", 7)}},
		{name: "methods with bodies", text: "h/ PATCH a\nh/ DELETE b\nh/ OPTIONS c\n",
			want: []Target{req("PATCH", "http://h/", b("a"), "", 1), req("DELETE", "http://h/", b("b"), "", 2),
				req("OPTIONS", "http://h/", b("c"), "", 3)}},
		{name: "tabs around method", text: "http://h/\tPOST\ta=1\n", want: []Target{req("POST", "http://h/", b("a=1"), "", 1)}},
		{name: "many blanks around method", text: "http://h/   PUT    x\n", want: []Target{req("PUT", "http://h/", b("x"), "", 1)}},
		{name: "lower-case method is url text", text: "http://h/ post x\n", want: []Target{get("http://h/%20post%20x", 1)}},
		{name: "glued method is url text", text: "http://h/POST\n", want: []Target{get("http://h/POST", 1)}},
		{name: "longer word is url text", text: "http://h/a POSTER\n", want: []Target{get("http://h/a%20POSTER", 1)}},
		{name: "first keyword wins", text: "http://h/ PUT a POST b\n", want: []Target{req("PUT", "http://h/", b("a POST b"), "", 1)}},
		{name: "method from variable", text: "M=POST\nhttp://h/ $M x\n", want: []Target{req("POST", "http://h/", b("x"), "", 2)}},
		{name: "space in url escaped", text: "http://h/a b\n", want: []Target{get("http://h/a%20b", 1)}},

		// Comments after the URL.
		{name: "trailing comment", text: "http://h/ # comment\n", want: []Target{get("http://h/", 1)}},
		{name: "trailing comment after tab", text: "http://h/a\t#comment\n", want: []Target{get("http://h/a", 1)}},
		{name: "keyword inside trailing comment", text: "http://h/ # POST x\n", want: []Target{get("http://h/", 1)}},
		{name: "fragment is not a comment", text: "http://h/page#frag\n", want: []Target{get("http://h/page", 1)}},
		{name: "hash in body is data", text: "http://h/ POST a=1 #2\n", want: []Target{req("POST", "http://h/", b("a=1 #2"), "", 1)}},

		// Bodies.
		{name: "json body kept byte for byte", text: "http://h/ POST {\"a\": 1, \"b\": [1, 2]}\n",
			want: []Target{req("POST", "http://h/", b(`{"a": 1, "b": [1, 2]}`), "", 1)}},
		{name: "body with dollar-less braces", text: "http://h/ PUT {}\n", want: []Target{req("PUT", "http://h/", b("{}"), "", 1)}},
		{name: "content type with semicolon", text: "http://h/ POST -T application/json; {\"a\":1}\n",
			want: []Target{req("POST", "http://h/", b(`{"a":1}`), "application/json", 1)}},
		{name: "content type glued semicolon", text: "http://h/ POST -T text/plain;x y\n",
			want: []Target{req("POST", "http://h/", b("x y"), "text/plain", 1)}},
		{name: "content type ended by blank", text: "http://h/ POST -T text/plain x\n",
			want: []Target{req("POST", "http://h/", b("x"), "text/plain", 1)}},
		{name: "content type without body", text: "http://h/ PUT -T text/plain;\n",
			want: []Target{req("PUT", "http://h/", nil, "text/plain", 1)}},
		{name: "dash T glued is body", text: "http://h/ POST -Tx\n", want: []Target{req("POST", "http://h/", b("-Tx"), "", 1)}},
		{name: "body file", text: "http://h/ POST <body.json\n", want: []Target{req("POST", "http://h/", b(bodyJSON), "", 1)}},
		{name: "body file after blank", text: "http://h/ POST < body.json\n",
			want: []Target{req("POST", "http://h/", b(bodyJSON), "", 1)}},
		{name: "body file with content type", text: "http://h/ PUT -T application/json; <body.json\n",
			want: []Target{req("PUT", "http://h/", b(bodyJSON), "application/json", 1)}},
		{name: "body file from variable", text: "F=body.json\nhttp://h/ POST <$F\n",
			want: []Target{req("POST", "http://h/", b(bodyJSON), "", 2)}},
		{name: "head without body", text: "http://h/ HEAD\n", want: []Target{req("HEAD", "http://h/", nil, "", 1)}},
	}
}

func errorCases() []errorCase {
	long := "# " + strings.Repeat("x", maxLineBytes-1) // one byte over the limit
	return []errorCase{
		{"unsupported scheme at line 7", "# 1\n\nA=1\nB=2\n# 5\nhttp://h/\nftp://h/\n", nil, `urls.txt:7: unsupported scheme "ftp"`},
		{"mailto", "mailto:a@b.c\n", nil, `urls.txt:1: unsupported scheme "mailto"`},
		{"undefined variable", "# 1\nhttp://h/\nhttp://$(HOST)/\n", nil, "urls.txt:3: undefined variable HOST (set it in the environment or on a line HOST=VALUE above this one)"},
		{"undefined bare variable", "http://$HOST:8080/\n", nil, "urls.txt:1: undefined variable HOST (set it in the environment or on a line HOST=VALUE above this one)"},
		{"undefined without environment", "http://$HOST/\n", map[string]string{"OTHER": "x"}, "urls.txt:1: undefined variable HOST (set it in the environment or on a line HOST=VALUE above this one)"},
		{"undefined in value", "U=http://$(HOST)\n", nil, "urls.txt:1: undefined variable HOST (set it in the environment or on a line HOST=VALUE above this one)"},
		{"used before defined", "http://$A/\nA=h\n", nil, "urls.txt:1: undefined variable A (set it in the environment or on a line A=VALUE above this one)"},
		{"undefined in body", "http://h/ POST {\"p\":\"$5\"}\n", nil, "urls.txt:1: undefined variable 5 (set it in the environment or on a line 5=VALUE above this one)"},
		{"unterminated parens", "http://$(HOST/\n", nil, `urls.txt:1: unterminated "$(": missing ")"`},
		{"unterminated braces", "http://${HOST/\n", nil, `urls.txt:1: unterminated "${": missing "}"`},
		{"unterminated in value", "H=$(A\n", nil, `urls.txt:1: unterminated "$(": missing ")"`},
		{"invalid variable name", "http://$(A-B)/\n", nil, `urls.txt:1: invalid variable name "A-B"`},
		{"missing variable name", "=x\n", nil, `urls.txt:1: missing variable name before "="`},
		{"invalid port", "http://h/\n\nhttp://h:80a/\n", nil, `urls.txt:3: invalid port "80a"`},
		{"missing host", "http:///p\n", nil, "urls.txt:1: missing host"},
		{"invalid host", "http://a,b/\n", nil, `urls.txt:1: invalid host "a,b"`},
		{"bom only at start", "http://h/\n\ufeffhttp://h/\n", nil, `urls.txt:2: invalid host "\ufeffhttp"`},
		{"missing url after expansion", "E=\n$(E)\n", nil, "urls.txt:2: missing URL"},
		{"get with body", "http://h/ GET x\n", nil, "urls.txt:1: GET takes no body"},
		{"head with body", "http://h/ HEAD x\n", nil, "urls.txt:1: HEAD takes no body"},
		{"get with content type", "http://h/ GET -T text/plain;\n", nil, "urls.txt:1: GET takes no body"},
		{"missing content type", "http://h/ POST -T ;x\n", nil, "urls.txt:1: missing content type after -T"},
		{"dash T alone", "http://h/ POST -T\n", nil, "urls.txt:1: missing content type after -T"},
		{"missing body file name", "http://h/ POST <\n", nil, `urls.txt:1: missing body file name after "<"`},
		{"missing body file name after blank", "http://h/ POST <  \t\n", nil, `urls.txt:1: missing body file name after "<"`},
		{"unreadable body file", "http://h/ POST <missing.json\n", nil,
			"urls.txt:1: read body file missing.json: openat missing.json: no such file or directory"},
		{"body file is a folder", "http://h/ POST <fuzz\n", nil, "urls.txt:1: read body file fuzz: not a regular file (a directory)"},
		{"url error before body error", "ftp://h/ POST <missing.json\n", nil, `urls.txt:1: unsupported scheme "ftp"`},
		{"stops at first error", "ftp://h/\nhttp://$X/\n", nil, `urls.txt:1: unsupported scheme "ftp"`},
		{"empty file", "", nil, "urls.txt: no URLs in file"},
		{"only blanks", "\n  \r\n\t\n", nil, "urls.txt: no URLs in file"},
		{"only bom", "\ufeff", nil, "urls.txt: no URLs in file"},
		{"only comments and variables", "# c\nA=1\n", nil, "urls.txt: no URLs in file"},
		{"line over limit", "http://h/\n" + long + "\n", nil, "urls.txt:2: line longer than 16 MiB"},
		{"line far over limit", "http://h/\n\n" + long + strings.Repeat("y", 100) + "\nhttp://h/\n", nil,
			"urls.txt:3: line longer than 16 MiB"},
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	for _, c := range parseCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(strings.NewReader(c.text), "urls.txt", "testdata", Options{Getenv: getenvFrom(c.env)})
			if err != nil {
				t.Fatalf("Parse(%q) error: %v", c.text, err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Parse(%q)\n got %#v\nwant %#v", c.text, got, c.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, c := range errorCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(strings.NewReader(c.text), "urls.txt", "testdata", Options{Getenv: getenvFrom(c.env)})
			if err == nil {
				t.Fatalf("Parse succeeded with %d targets, want error %q", len(got), c.want)
			}
			if got != nil {
				t.Errorf("Parse returned targets %v along with error", got)
			}
			if err.Error() != c.want {
				t.Errorf("Parse error\n got %q\nwant %q", err, c.want)
			}
			var le *LineError
			if !errors.As(err, &le) || le.File != "urls.txt" {
				t.Errorf("Parse error %#v is not a *LineError for urls.txt", err)
			}
		})
	}
}

func TestParseErrorKinds(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("#", maxLineBytes+1)
	cases := []struct {
		name     string
		text     string
		sentinel error
		line     int
	}{
		{"empty", "", ErrEmpty, 0},
		{"undefined", "\nhttp://$X/", ErrUndefinedVariable, 2},
		{"scheme", "\n\nftp://h/", ErrUnsupportedScheme, 3},
		{"too long", long, ErrLineTooLong, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(strings.NewReader(c.text), "urls.txt", "", Options{})
			if !errors.Is(err, c.sentinel) {
				t.Errorf("errors.Is(%v, %v) = false", err, c.sentinel)
			}
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v is not a *LineError", err)
			}
			if le.Line != c.line {
				t.Errorf("LineError.Line = %d, want %d", le.Line, c.line)
			}
		})
	}
}

// TestParseLongestLine checks that a line exactly at the limit is accepted,
// so the limit is where the message says.
func TestParseLongestLine(t *testing.T) {
	testtier.Maths(t)
	t.Parallel()
	long := "#" + strings.Repeat("x", maxLineBytes-1)
	for _, eol := range []string{"\n", "\r\n", ""} {
		text := long + eol + "http://h/\n"
		if eol == "" {
			text = "http://h/\n" + long
		}
		if _, err := Parse(strings.NewReader(text), "urls.txt", "", Options{}); err != nil {
			t.Errorf("line of %d bytes ending %q: %v", len(long), eol, err)
		}
	}
}

// TestParseConcurrent shows that parses share no state: each sees only its
// own variables.
func TestParseConcurrent(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"a", "b", "c", "d"} {
		t.Run(host, func(t *testing.T) {
			t.Parallel()
			for range 50 {
				got, err := Parse(strings.NewReader("H="+host+"\nhttp://$H/\n"), "urls.txt", "", Options{})
				if err != nil || got[0].URL != "http://"+host+"/" {
					t.Fatalf("got %v, %v", got, err)
				}
			}
		})
	}
}
