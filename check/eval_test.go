package check

import (
	"bytes"
	"strings"
	"testing"
)

// judge evaluates exprs on one response whose decoded body is body, of which the caller holds
// the first held bytes (all of it when held is negative or longer).
func judge(t testing.TB, e *Eval, exprs []string, status int, headers map[string]string, body string, held int) (bool, string) {
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
	var b []byte
	if e.Start(NewSet(parsed...), status) {
		b = []byte(body)
		if held >= 0 && held < len(b) {
			b = b[:held]
		}
	}
	ok := e.Finish(header, int64(len(body)), b)
	return ok, e.Message()
}

func TestEval(t *testing.T) {
	t.Parallel()
	html := map[string]string{"Content-Type": "text/html; charset=utf-8"}
	dbError := "<html><body>A database query error has occurred</body></html>"
	long := strings.Repeat("x", 160<<10) + "A database query error has occurred" + strings.Repeat("y", 96<<10)
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
		{"status and headers are judged before the body", []string{`body!~"database" && header:X-Cache~"HIT" && status==200`}, 200, html, dbError, false, `check header:X-Cache~"HIT" failed`},
		{"a failed status is named before the body", []string{`body~"Price" && status==200`}, 404, html, dbError, false, "check status==200 failed (status 404)"},
		{"every expression applies", []string{"status==200", `body!~"database"`}, 200, html, dbError, false, `check body!~"database" failed`},
		{"all pass", []string{"status==200", `body~"<body>" && body!~"Price"`, `header:Content-Type~"html"`, "size<1KB"}, 200, html, dbError, true, ""},
	}
	for _, tt := range tests {
		var e Eval
		ok, msg := judge(t, &e, tt.exprs, tt.status, tt.headers, tt.body, -1)
		if ok != tt.pass || msg != tt.msg {
			t.Errorf("%s: pass %v %q, want %v %q", tt.name, ok, msg, tt.pass, tt.msg)
		}
	}
}

// A body check has its regular expression's meaning on the whole body: ^, $, \A, \z, \b and \B
// match at the body's ends and between its bytes as the expression says, wherever a block of
// 32 KiB once ended, and a match of any length is found.
func TestEvalAnchorsOnTheWholeBody(t *testing.T) {
	t.Parallel()
	const block = 32 << 10
	x := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name, check, body string
		pass              bool
	}{
		{"$ inside", `body~"DONE$"`, x(2*block-4) + "DONE" + "filler", false},
		{"$ at the end", `body~"DONE$"`, x(2*block-4) + "DONE", true},
		{"$ at the end, !~", `body!~"DONE$"`, x(3*block-4) + "DONE", false},
		{"$ inside, !~", `body!~"DONE$"`, x(3*block-4) + "DONE" + "filler", true},
		{"\\z inside", `body~"DONE\z"`, x(3*block-4) + "DONE\n", false},
		{"$ before a last newline is no end", `body~"DONE$"`, x(2*block-4) + "DONE\n", false},
		{"(?m)$ before a newline", `body~"(?m)DONE$"`, x(2*block-4) + "DONE\nmore", true},
		{"(?m)$ without a newline", `body~"(?m)DONE$"`, x(2*block-4) + "DONE more", false},
		{"\\A inside", `body~"\ASTART"`, x(block) + "START" + x(block), false},
		{"\\A at the start", `body~"\ASTART"`, "START" + x(3*block), true},
		{"^ inside", `body~"^START"`, x(2*block) + "START" + x(block), false},
		{"(?m)^ without a newline", `body~"(?m)^START"`, x(2*block) + "START" + x(block), false},
		{"(?m)^ after a newline", `body~"(?m)^START"`, x(2*block-1) + "\nSTART" + x(block), true},
		{"(?m)^ without a newline, !~", `body!~"(?m)^START"`, x(block) + "START" + x(block), true},
		{"\\b inside a word", `body~"\bword"`, x(2*block-3) + "abcword" + x(2*block), false},
		{"\\b after a blank", `body~"\bword"`, x(2*block-1) + " word" + x(2*block), true},
		{"\\b at a word's end inside one", `body~"abc\b"`, x(2*block-3) + "abcword" + x(2*block), false},
		{"\\B inside a word", `body~"c\Bw"`, x(2*block-3) + "abcword" + x(2*block), true},
		{"a match longer than a block", `body~"BEGIN[^!]*END"`, "BEGIN" + x(3*block) + "END!", true},
		{"a match longer than a block, !~", `body!~"BEGIN[^!]*END"`, "BEGIN" + x(3*block) + "END!", false},
		{"the whole body", `body~"\ABEGIN x*END!\z"`, "BEGIN " + x(5*block) + "END!", true},
		{"no match however long", `body~"BEGIN[^!]*END"`, "BEGIN" + x(block) + "!" + x(block) + "END", false},
	}
	for _, tt := range tests {
		var e Eval
		if ok, msg := judge(t, &e, []string{tt.check}, 200, nil, tt.body, -1); ok != tt.pass {
			t.Errorf("%s: %s passes %v (%s), want %v", tt.name, tt.check, ok, msg, tt.pass)
		}
	}
}

// Of a body longer than what is held, a body condition is decided by a match that ends well
// inside the held start, and otherwise undecided, a failure that says so: never a guess from
// an edge that is not the body's end.
func TestEvalHeldStart(t *testing.T) {
	t.Parallel()
	const held = 1000
	body := strings.Repeat("a", 500) + " error " + strings.Repeat("b", 491) + "END" + strings.Repeat("c", 5000)
	undecided := func(check string) string {
		return "check " + check + " failed: undecided, the body (6001 B) is longer than the 1000 B a check reads"
	}
	tests := []struct {
		check string
		pass  bool
		msg   string
	}{
		{`body!~"error"`, false, `check body!~"error" failed`},
		{`body~"error"`, true, ""},
		{`body~"^a+ error"`, true, ""},
		{`body!~"Price"`, false, undecided(`body!~"Price"`)},
		{`body~"Price"`, false, undecided(`body~"Price"`)},
		// What is held ends inside "END": that is no edge of the body, so neither $ nor \b may
		// match there, as they would on the held bytes alone.
		{`body~"b+EN$"`, false, undecided(`body~"b+EN$"`)},
		{`body~"EN\b"`, false, undecided(`body~"EN\b"`)},
		{`body~"\berror\b"`, true, ""},
		{`body~"b\b"`, false, undecided(`body~"b\b"`)},
		{`body~"c$"`, false, undecided(`body~"c$"`)},
	}
	for _, tt := range tests {
		var e Eval
		ok, msg := judge(t, &e, []string{tt.check}, 200, nil, body, held)
		if ok != tt.pass || msg != tt.msg {
			t.Errorf("%s on a held start: pass %v %q, want %v %q", tt.check, ok, msg, tt.pass, tt.msg)
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
	}{{200, "an error", false}, {200, "fine", true}, {404, "fine", false}, {200, strings.Repeat("fine ", 100<<10), true}, {200, "error", false}} {
		if ok, msg := judge(t, &e, checks, tt.status, nil, tt.body, -1); ok != tt.pass {
			t.Errorf("response %d: pass %v (%s), want %v", i, ok, msg, tt.pass)
		}
	}
}

// Without body conditions the body is not asked for, nor when a status condition fails; a nil
// set passes everything.
func TestEvalNeedsBody(t *testing.T) {
	t.Parallel()
	none := func(string) []byte { return nil }
	status, _ := Parse(`status==200 && size>1KB && header:X~"y"`)
	body, _ := Parse(`status==200 && body~"x"`)
	var e Eval
	if e.Start(NewSet(status), 200) {
		t.Error("status, size and header checks should not need the body's content")
	}
	if !e.Start(NewSet(body), 200) {
		t.Error("a body check should need the body")
	}
	if e.Start(NewSet(body), 500) {
		t.Error("a failed status decides the check: the body's content is not needed")
	}
	if e.Finish(none, 10, nil) || e.Message() != "check status==200 failed (status 500)" {
		t.Errorf("a failed status should fail the check without the body: %q", e.Message())
	}
	if e.Start(nil, 200) || !e.Finish(none, 0, nil) || e.Message() != "" {
		t.Error("a nil set should pass everything")
	}
}

// phrases is a case-insensitive list of 30 error phrases, the kind of body check that costs
// the most: no literal prefix lets the regexp skip ahead.
const phrases = `database query error|fatal error|internal server error|stack trace|exception occurred|access denied|` +
	`service unavailable|bad gateway|not found on this server|unexpected token|undefined index|syntax error|` +
	`permission denied|connection refused|out of memory|segmentation fault|null pointer|division by zero|timed out|` +
	`could not connect|failed to open stream|call to undefined function|warning: mysql|pg_query|ora-00933|sqlstate|` +
	`traceback \(most recent call last\)|uncaught exception|maximum execution time|allowed memory size`

func BenchmarkEval(b *testing.B) {
	page := bytes.Repeat([]byte("<p>Price: 15.65 EUR, in stock. Lorem ipsum dolor sit amet.</p>\n"), 1000) // 64 KB
	none := func(string) []byte { return nil }
	for _, bm := range []struct{ name, expr string }{
		{"status", "status==200"},
		{"body", `body!~"database query error"`},
		{"body and status", `status==200 && body!~"database query error" && body~"Price: \d+\.\d\d"`},
		{"30 phrases", `body!~"(?i)` + phrases + `"`},
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
			for b.Loop() {
				var body []byte
				if e.Start(set, 200) {
					body = page
				}
				if !e.Finish(none, int64(len(page)), body) {
					b.Fatal(e.Message())
				}
			}
		})
	}
}
