package check

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// run evaluates exprs on one response, feeding the body in chunks of chunk bytes through Write
// (or ReadFrom when chunk is 0).
func run(t *testing.T, e *Eval, exprs []string, status int, headers map[string]string, body string, chunk int) (bool, string) {
	t.Helper()
	var parsed []Expr
	for _, s := range exprs {
		x, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, x)
	}
	header := func(name string) []byte {
		if v, ok := headers[name]; ok {
			return []byte(v)
		}
		return nil
	}
	if e.Start(NewSet(parsed...), status, header) {
		if chunk == 0 {
			n, err := e.ReadFrom(iotest.HalfReader(strings.NewReader(body)))
			if err != nil || n != int64(len(body)) {
				t.Fatalf("ReadFrom = %d, %v; want %d", n, err, len(body))
			}
		} else {
			for b := []byte(body); len(b) > 0; b = b[min(chunk, len(b)):] {
				_, _ = e.Write(b[:min(chunk, len(b))])
			}
		}
	}
	ok := e.Finish(int64(len(body)))
	return ok, e.Message()
}

func TestEval(t *testing.T) {
	t.Parallel()
	html := map[string]string{"Content-Type": "text/html; charset=utf-8"}
	dbError := "<html><body>A database query error has occurred</body></html>"
	long := strings.Repeat("x", 5*Window) + "A database query error has occurred" + strings.Repeat("y", 3*Window)
	tests := []struct {
		name    string
		exprs   []string
		status  int
		headers map[string]string
		body    string
		pass    bool
		msg     string
	}{
		{"no checks", nil, 500, nil, "", true, ""},
		{"status passes", []string{"status==200"}, 200, nil, "ok", true, ""},
		{"status fails", []string{"status==200"}, 404, nil, "nope", false, "check status==200 failed (status 404)"},
		{"status below", []string{"status<400"}, 302, nil, "", true, ""},
		{"status not below", []string{"status<400"}, 503, nil, "", false, "check status<400 failed (status 503)"},
		{"body must not match", []string{`body!~"database query error"`}, 200, html, dbError, false, `check body!~"database query error" failed`},
		{"body must match", []string{`body~"</html>"`}, 200, html, dbError, true, ""},
		{"body lacks a match", []string{`body~"Price: \d+"`}, 200, html, dbError, false, `check body~"Price: \d+" failed`},
		{"match far into a long body", []string{`body!~"database query error"`}, 200, html, long, false, `check body!~"database query error" failed`},
		{"no match in a long body", []string{`body~"Price"`}, 200, html, long, false, `check body~"Price" failed`},
		{"empty body", []string{`body!~"error"`}, 200, html, "", true, ""},
		{"size passes", []string{"size>=10B"}, 200, nil, dbError, true, ""},
		{"size fails", []string{"size>=10KB"}, 200, nil, dbError, false, "check size>=10KB failed (size 61 B)"},
		{"header matches", []string{`header:Content-Type~"html"`}, 200, html, "", true, ""},
		{"header does not match", []string{`header:Content-Type~"json"`}, 200, html, "", false, `check header:Content-Type~"json" failed`},
		{"missing header fails ~", []string{`header:X-Cache~"HIT"`}, 200, html, "", false, `check header:X-Cache~"HIT" failed`},
		{"missing header passes !~", []string{`header:X-Cache!~"MISS"`}, 200, html, "", true, ""},
		{"header equals", []string{`header:Content-Type=="text/html; charset=utf-8"`}, 200, html, "", true, ""},
		{"missing header is not empty", []string{`header:X-Cache==""`}, 200, html, "", false, `check header:X-Cache=="" failed`},
		{"missing header differs from empty", []string{`header:X-Cache!=""`}, 200, html, "", true, ""},
		{"missing header differs from a value", []string{`header:X-Cache!="HIT"`}, 200, html, "", true, ""},
		{"empty header equals empty", []string{`header:X-Cache==""`}, 200, map[string]string{"X-Cache": ""}, "", true, ""},
		{"empty header is not absent", []string{`header:X-Cache!=""`}, 200, map[string]string{"X-Cache": ""}, "", false, `check header:X-Cache!="" failed`},
		{"header differs", []string{`header:Content-Type!="text/html; charset=utf-8"`}, 200, html, "", false, `check header:Content-Type!="text/html; charset=utf-8" failed`},
		{"first failing condition named", []string{`status==200 && body!~"database" && size>1MB`}, 200, html, dbError, false, `check body!~"database" failed`},
		{"every expression applies", []string{"status==200", `body!~"database"`}, 200, html, dbError, false, `check body!~"database" failed`},
		{"all pass", []string{"status==200", `body~"<body>" && body!~"Price"`, `header:Content-Type~"html"`, "size<1KB"}, 200, html, dbError, true, ""},
	}
	for _, tt := range tests {
		for _, chunk := range []int{0, 1, 7, 4096, Window + 3} {
			if chunk == 1 && len(tt.body) > 1000 {
				continue
			}
			var e Eval
			ok, msg := run(t, &e, tt.exprs, tt.status, tt.headers, tt.body, chunk)
			if ok != tt.pass || msg != tt.msg {
				t.Errorf("%s, chunks of %d: pass %v %q, want %v %q", tt.name, chunk, ok, msg, tt.pass, tt.msg)
			}
		}
	}
}

// A match that crosses the edge of two scanned blocks is found, wherever the edge falls.
func TestEvalMatchAcrossBlocks(t *testing.T) {
	t.Parallel()
	const needle = "A database query error has occurred"
	for _, at := range []int{2*Window - 10, 2*Window - len(needle) + 1, 3*Window - 1, 4*Window - 20} {
		body := strings.Repeat("x", at) + needle + strings.Repeat("y", Window)
		var e Eval
		if ok, _ := run(t, &e, []string{`body!~"database query error"`}, 200, nil, body, 1000); ok {
			t.Errorf("a match at byte %d was missed", at)
		}
	}
}

// One Eval serves response after response: what one found does not leak into the next.
func TestEvalReused(t *testing.T) {
	t.Parallel()
	var e Eval
	checks := []string{`body!~"error"`, "status==200"}
	for i, tt := range []struct {
		status int
		body   string
		pass   bool
	}{{200, "an error", false}, {200, "fine", true}, {404, "fine", false}, {200, strings.Repeat("fine ", Window), true}, {200, "error", false}} {
		if ok, msg := run(t, &e, checks, tt.status, nil, tt.body, 0); ok != tt.pass {
			t.Errorf("response %d: pass %v (%s), want %v", i, ok, msg, tt.pass)
		}
	}
}

// A body check that is decided early stops scanning, but the body is still read to its end:
// the connection must be left at the next response.
func TestEvalReadsToTheEnd(t *testing.T) {
	t.Parallel()
	body := "error" + strings.Repeat("z", 10*Window)
	var e Eval
	x, _ := Parse(`body!~"error"`)
	if !e.Start(NewSet(x), 200, func(string) []byte { return nil }) {
		t.Fatal("a body check should ask for the body")
	}
	r := strings.NewReader(body)
	n, err := io.Copy(&e, r)
	if err != nil || n != int64(len(body)) || r.Len() != 0 {
		t.Fatalf("read %d of %d, %v", n, len(body), err)
	}
	if e.Finish(n) {
		t.Error("the check should fail")
	}
}

// Without body conditions the body is not asked for, and a status failure ends the check at
// Start.
func TestEvalNeedsBody(t *testing.T) {
	t.Parallel()
	none := func(string) []byte { return nil }
	status, _ := Parse("status==200 && size>1KB")
	body, _ := Parse(`status==200 && body~"x"`)
	var e Eval
	if e.Start(NewSet(status), 200, none) {
		t.Error("status and size checks should not need the body's content")
	}
	if !e.Start(NewSet(body), 200, none) {
		t.Error("a body check should need the body")
	}
	if e.Start(NewSet(body), 500, none) {
		t.Error("a failed status decides the check: the body's content is not needed")
	}
	if e.Start(nil, 200, none) || !e.Finish(0) || e.Message() != "" {
		t.Error("a nil set should pass everything")
	}
}

func BenchmarkEval(b *testing.B) {
	page := bytes.Repeat([]byte("<p>Price: 15.65 EUR, in stock. Lorem ipsum dolor sit amet.</p>\n"), 1000) // 64 KB
	none := func(string) []byte { return nil }
	for _, bm := range []struct{ name, expr string }{
		{"status", "status==200"},
		{"body", `body!~"database query error"`},
		{"body and status", `status==200 && body!~"database query error" && body~"Price: \d+\.\d\d"`},
	} {
		x, err := Parse(bm.expr)
		if err != nil {
			b.Fatal(err)
		}
		set := NewSet(x)
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			var e Eval
			r := bytes.NewReader(page)
			for b.Loop() {
				if e.Start(set, 200, none) {
					r.Reset(page)
					_, _ = e.ReadFrom(r)
				}
				if !e.Finish(int64(len(page))) {
					b.Fatal(e.Message())
				}
			}
		})
	}
}
