package urls

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzAccessFilterLine holds AccessFilter.Line to its promises on any line: a request, a skip
// reason or an error, never two; a kept request has a method the filter allows and an
// absolute URL on the base that a URL file line reads back as itself.
func FuzzAccessFilterLine(f *testing.F) {
	for _, s := range []string{
		`127.0.0.1 - - [10/Oct/2026:13:55:36 +0000] "GET /p/1?x=1 HTTP/1.1" 200 2326 "-" "Mozilla/5.0"`,
		`10.0.0.1 - frank [10/Oct/2026:13:55:36 -0700] "HEAD /a HTTP/1.0" 304 -`,
		`::1 - - [10/Oct/2026:13:55:36 +0000] "GET https://other.example/x#f HTTP/2.0" 200 0 "https://r/" "UA \"q\"" 0.002 "text/html"`,
		`1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "POST /form HTTP/1.1" 302 0 "-" "curl/8"`,
		`1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /static/a.css HTTP/1.1" 200 1 "-" "-"`,
		`1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /%zz\x41 HTTP/1.1" 200 1 "-" "-"`,
		`1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "\x16\x03" 400 157 "-" "-"`,
		"", "garbage",
	} {
		f.Add(s)
	}
	filter, err := NewAccessFilter(ImportOptions{Base: "http://127.0.0.1:8080/base", Methods: []string{"GET", "HEAD", "POST"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		req, skip, err := filter.Line(line)
		switch {
		case err != nil:
			if skip != "" || !reflect.DeepEqual(req, AccessRequest{}) || err.Error() == "" {
				t.Fatalf("error %v with skip %q, request %+v", err, skip, req)
			}
			if errors.Is(err, ErrNeedBase) {
				t.Fatal("a base was given")
			}
		case skip != "":
			if !reflect.DeepEqual(req, AccessRequest{}) {
				t.Fatalf("skip %q with request %+v", skip, req)
			}
		default:
			if req.Method != "GET" && req.Method != "HEAD" && req.Method != "POST" {
				t.Fatalf("method %q kept", req.Method)
			}
			if !strings.HasPrefix(req.URL, "http://127.0.0.1:8080/base") {
				t.Fatalf("URL %q not on the base", req.URL)
			}
			tg, perr := ParseLine(req.URL, Options{})
			if perr != nil || tg.URL != req.URL {
				t.Fatalf("URL %q does not read back as itself: %+v, %v", req.URL, tg, perr)
			}
		}
	})
}
