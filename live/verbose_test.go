package live

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

func TestVerboseLines(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{
		{Method: "GET", URL: "http://127.0.0.1:8080/path?q=1"},
		{Method: "POST", URL: "http://127.0.0.1:8080/form"},
	}
	var out, errw bytes.Buffer
	var rec collectSink
	// The loader names hops and resources (Result.Req); this one knows two.
	name := func(r *loader.Result) (string, string, bool) {
		switch r.Req {
		case 0:
			return targets[r.Target].Method, targets[r.Target].URL, true
		case 1:
			return "GET", "http://bob:pw@127.0.0.1:8080/done", true
		}
		return targets[r.Target].Method, targets[r.Target].URL, false
	}
	v := NewVerbose(&out, &errw, targets, name, &rec)
	v.Record([]loader.Result{
		{Target: 0, Status: 200, Latency: 120 * time.Millisecond, BodyBytes: 1234},
		{Target: 1, Status: 303, Latency: 2 * time.Second, BodyBytes: 5, HTTP10: true},
		{Target: 1, Status: 200, Latency: time.Second, BodyBytes: 7, Req: 1},
		{Target: 0, Status: 200, Latency: time.Second, BodyBytes: 7, Req: 2, Kind: loader.KindResource},
		{Target: 0, Err: loader.ErrTimeout, Latency: 30 * time.Second},
		{Target: 0, Kind: loader.KindPage, Status: 200},
	})
	wantOut := "HTTP/1.1 200   0.12 secs:    1234 bytes ==> GET  http://127.0.0.1:8080/path?q=1\n" +
		"HTTP/1.0 303   2.00 secs:       5 bytes ==> POST http://127.0.0.1:8080/form\n" +
		"HTTP/1.1 200   1.00 secs:       7 bytes ==> GET  http://bob:xxxxx@127.0.0.1:8080/done\n" +
		"HTTP/1.1 200   1.00 secs:       7 bytes ==> GET  (a redirect or resource of http://127.0.0.1:8080/path?q=1)\n"
	if out.String() != wantOut {
		t.Errorf("stdout:\n%s\nwant:\n%s", out.String(), wantOut)
	}
	if got := errw.String(); !strings.HasPrefix(got, "[error] timeout   30.00 secs:") || !strings.HasSuffix(got, "==> GET  http://127.0.0.1:8080/path?q=1\n") {
		t.Errorf("stderr = %q", got)
	}
	if rec.n != 6 {
		t.Errorf("passed on %d results, want 6", rec.n)
	}
}

type collectSink struct{ n int }

func (c *collectSink) Record(b []loader.Result) { c.n += len(b) }

// A response that failed a check is an error line that says so, with its status and bytes.
func TestVerboseFailedCheck(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1:8080/db"}}
	var out, errw bytes.Buffer
	v := NewVerbose(&out, &errw, targets, nil, &collectSink{})
	v.Record([]loader.Result{{Target: 0, Status: 200, Err: loader.ErrCheck, Latency: 20 * time.Millisecond, BodyBytes: 321}})
	want := "[error] check      0.02 secs:     321 bytes ==> GET  http://127.0.0.1:8080/db (status 200 failed a check)\n"
	if out.Len() != 0 || errw.String() != want {
		t.Errorf("stdout %q, stderr %q; want stderr %q", out.String(), errw.String(), want)
	}
}

// A request that failed for a missing value is an error line that says which way: an answer
// that lacked a value its rules take (with its status and bytes), or a request not sent.
func TestVerboseFailedExtract(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1:8080/login"}, {Method: "POST", URL: "http://127.0.0.1:8080/login"}}
	for _, tc := range []struct {
		name string
		res  loader.Result
		want string
	}{
		{"an answer without the value", loader.Result{Target: 0, Status: 200, Err: loader.ErrExtract, Latency: 20 * time.Millisecond, BodyBytes: 321},
			"[error] extract    0.02 secs:     321 bytes ==> GET  http://127.0.0.1:8080/login (status 200 lacked a value its #@extract rules take)\n"},
		{"a request not sent", loader.Result{Target: 1, Err: loader.ErrExtract},
			"[error] extract    0.00 secs:       0 bytes ==> POST http://127.0.0.1:8080/login (not sent: a value it needs is missing)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out, errw bytes.Buffer
			v := NewVerbose(&out, &errw, targets, nil, &collectSink{})
			v.Record([]loader.Result{tc.res})
			if out.Len() != 0 || errw.String() != tc.want {
				t.Errorf("stdout %q, stderr %q; want stderr %q", out.String(), errw.String(), tc.want)
			}
		})
	}
}
