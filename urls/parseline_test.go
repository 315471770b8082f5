package urls

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseLine(t *testing.T) {
	t.Parallel()
	env := map[string]string{"HOST": "envhost", "M": "PUT"}
	cases := []struct {
		name string
		line string
		want Target
	}{
		{"post", "http://h/p POST a=1", Target{Method: "POST", URL: "http://h/p", Body: []byte("a=1"), Source: "command line"}},
		{"no scheme", "h/p", Target{Method: "GET", URL: "http://h/p", Source: "command line"}},
		{"trimmed", " \thttp://h/ \r\n", Target{Method: "GET", URL: "http://h/", Source: "command line"}},
		{"environment", "http://$HOST:8080/ $M x", Target{Method: "PUT", URL: "http://envhost:8080/", Body: []byte("x"), Source: "command line"}},
		{"escaped dollar", `http://h/?p=\$1`, Target{Method: "GET", URL: "http://h/?p=$1", Source: "command line"}},
		{"content type", "http://h/ POST -T text/plain; hi", Target{Method: "POST", URL: "http://h/", Body: []byte("hi"), ContentType: "text/plain", Source: "command line"}},
		{"body file relative to current folder", "http://h/ POST <testdata/body.json",
			Target{Method: "POST", URL: "http://h/", Body: []byte(bodyJSON), Source: "command line"}},
		{"trailing comment", "http://h/ # note", Target{Method: "GET", URL: "http://h/", Source: "command line"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseLine(c.line, Options{Getenv: getenvFrom(env)})
			if err != nil {
				t.Fatalf("ParseLine(%q) error: %v", c.line, err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParseLine(%q)\n got %#v\nwant %#v", c.line, got, c.want)
			}
		})
	}
}

func TestParseLineErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, line, want string
	}{
		{"scheme", "ftp://h/", `command line: unsupported scheme "ftp"`},
		{"empty", "  ", "command line: missing URL"},
		{"variable definitions are not special", "A=b", `command line: invalid host "A=b"`},
		{"undefined", "http://$NOPE/", "command line: undefined variable NOPE"},
		{"port", "h:99999", `command line: invalid port "99999"`},
		{"get body", "h GET x", "command line: GET takes no body"},
		{"body file", "h POST <nope.json", "command line: read body file nope.json: openat nope.json: no such file or directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseLine(c.line, Options{})
			if err == nil {
				t.Fatalf("ParseLine(%q) = %#v, want error %q", c.line, got, c.want)
			}
			if err.Error() != c.want {
				t.Errorf("ParseLine(%q) error\n got %q\nwant %q", c.line, err, c.want)
			}
			if !reflect.DeepEqual(got, Target{}) {
				t.Errorf("ParseLine(%q) returned %#v along with error", c.line, got)
			}
		})
	}
}

func TestLineError(t *testing.T) {
	t.Parallel()
	inner := errors.New("bad thing")
	cases := []struct {
		name string
		err  *LineError
		want string
	}{
		{"with line", &LineError{File: "u.txt", Line: 12, Err: inner}, "u.txt:12: bad thing"},
		{"without line", &LineError{File: "u.txt", Err: inner}, "u.txt: bad thing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := c.err.Error(); got != c.want {
				t.Errorf("Error() = %q, want %q", got, c.want)
			}
			if !errors.Is(c.err, inner) {
				t.Error("Unwrap does not expose the inner error")
			}
		})
	}
}
