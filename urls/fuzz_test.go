package urls

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary text to Parse and ParseLine and checks the
// promises callers rely on: no panic, only sendable targets, and errors that
// name their input.
func FuzzParse(f *testing.F) {
	for _, c := range parseCases() {
		f.Add(c.text)
	}
	for _, c := range errorCases() {
		if len(c.text) < 4096 { // the 16 MiB cases would only slow fuzzing
			f.Add(c.text)
		}
	}
	example, err := os.ReadFile("testdata/siege-example.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(example))
	// Lines that look like directives without being one: misspellings are errors, comments not.
	for _, line := range []string{"#@ check status==200", "#@check: status==200", "#@chek status==200",
		"#@Check status==200", "#@extarct t regex:t=(\\w+)", "#@", "#@\t", "# @check status==200", "##@check"} {
		f.Add(line + "\nhttp://h/\n")
	}

	env := map[string]string{"HOST": "example.com", "PORT": "8080", "EMPTY": ""}
	opt := Options{Getenv: getenvFrom(env)}
	f.Fuzz(func(t *testing.T, text string) {
		// A body path with '/' could name any file on the machine, such as
		// a huge one; without '/' it can only name entries of testdata (or
		// of the package folder for ParseLine).
		if strings.Contains(text, "<") && strings.Contains(text, "/") {
			t.Skip()
		}
		targets, err := Parse(strings.NewReader(text), "fuzz.txt", "testdata", opt)
		if err != nil {
			checkError(t, err, "fuzz.txt")
		} else {
			if len(targets) == 0 {
				t.Fatal("Parse succeeded without targets")
			}
			for _, tg := range targets {
				checkTarget(t, tg, "fuzz.txt:")
			}
		}

		line, _, _ := strings.Cut(text, "\n")
		tg, err := ParseLine(line, opt)
		if err != nil {
			checkError(t, err, commandLine)
		} else {
			checkTarget(t, tg, commandLine)
		}
	})
}

func checkError(t *testing.T, err error, name string) {
	t.Helper()
	if !strings.HasPrefix(err.Error(), name+":") {
		t.Fatalf("error %q does not start with %q", err, name+":")
	}
	var le *LineError
	if !errors.As(err, &le) {
		t.Fatalf("error %q is not a *LineError", err)
	}
}

func checkTarget(t *testing.T, tg Target, sourcePrefix string) {
	t.Helper()
	switch tg.Method {
	case "GET", "HEAD":
		if tg.Body != nil {
			t.Fatalf("%s target has a body: %#v", tg.Method, tg)
		}
	case "POST", "PUT", "PATCH", "DELETE", "OPTIONS":
	default:
		t.Fatalf("bad method in %#v", tg)
	}
	if !strings.HasPrefix(tg.URL, "http://") && !strings.HasPrefix(tg.URL, "https://") {
		t.Fatalf("URL %q is not http or https", tg.URL)
	}
	for i := 0; i < len(tg.URL); i++ {
		if c := tg.URL[i]; c < 0x21 || c >= 0x7f || c == '#' {
			t.Fatalf("URL %q has byte %#x at %d", tg.URL, c, i)
		}
	}
	if !strings.HasPrefix(tg.Source, sourcePrefix) {
		t.Fatalf("Source %q does not start with %q", tg.Source, sourcePrefix)
	}
}
