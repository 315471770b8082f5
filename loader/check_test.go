package loader

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/check"
	"github.com/webload/webload/urls"
)

const dbError = "<html><body><h1>A database query error has occurred</h1></body></html>"

// checkSite serves pages that answer 200 whether or not they worked: /ok and /page/ok are
// fine, /db and the gzip-compressed /gz are the database error page, /late says so only after
// 200 KB, /gone is a 404, /moved redirects to /db, and /page/ok shows an image whose bytes
// happen to say "database query error".
func checkSite(t *testing.T) *hitServer {
	t.Helper()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(dbError))
	_ = zw.Close()
	return newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body>Price: 15.65 EUR</body></html>")
		case "/page/ok":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><img src="/img.png">Price: 15.65 EUR</body></html>`)
		case "/img.png":
			w.Header().Set("Content-Type", "image/png")
			fmt.Fprint(w, "PNG... database query error ...")
		case "/db":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, dbError)
		case "/gz":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gz.Bytes())
		case "/late":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, strings.Repeat("<p>fine</p>\n", 200<<10/12), dbError)
		case "/gone":
			http.Error(w, "not here", http.StatusNotFound)
		case "/moved":
			http.Redirect(w, r, "/db", http.StatusFound)
		}
	})
}

func checkTargets(t *testing.T, base string, paths ...string) []urls.Target {
	t.Helper()
	out := make([]urls.Target, len(paths))
	for i, p := range paths {
		tg, err := urls.ParseLine(base+p, urls.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out[i] = tg
	}
	return out
}

func mustChecks(t *testing.T, exprs ...string) []check.Expr {
	t.Helper()
	var out []check.Expr
	for _, s := range exprs {
		e, err := check.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// A response that fails a check is a failure of kind ErrCheck that keeps its status and its
// body's bytes, in every way of sending: plain requests, the open model and browser-like
// visits, where a followed redirect and a page's image are not checked but the redirect's
// end is. Each failing URL keeps the first message naming its check.
func TestChecksFailResponses(t *testing.T) {
	t.Parallel()
	srv := checkSite(t)
	paths := []string{"/ok", "/db", "/gz", "/late", "/gone"}
	noError := `body!~"database query error"`
	tests := []struct {
		name  string
		cfg   Config
		paths []string
		fail  map[string]string // path: the first message of its failed check
	}{
		{"plain", Config{Users: 2, Reps: 10}, paths, map[string]string{
			"/db": "check " + noError + " failed", "/gz": "check " + noError + " failed",
			"/late": "check " + noError + " failed", "/gone": "check status==200 failed (status 404)"}},
		{"open model", Config{Rate: 500, MaxUsers: 10, Reps: 20}, paths, map[string]string{
			"/db": "check " + noError + " failed", "/gz": "check " + noError + " failed",
			"/late": "check " + noError + " failed", "/gone": "check status==200 failed (status 404)"}},
		{"browser", Config{Users: 2, Reps: 8, Parser: true, NoCache: true, FollowRedirects: true, Cookies: true},
			[]string{"/page/ok", "/moved", "/ok", "/gone"}, map[string]string{
				"/moved": "check " + noError + " failed", "/gone": "check status==200 failed (status 404)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.cfg.Checks = mustChecks(t, "status==200", noError)
			results, out := run(t, tt.cfg, checkTargets(t, srv.URL, tt.paths...))
			failed := map[string]int{}
			for _, r := range results {
				path := tt.paths[r.Target]
				switch {
				case r.Kind == KindPage:
				case r.Err == ErrCheck:
					failed[path]++
					if r.Status == 0 || r.BodyBytes == 0 || r.bodyBytes() != r.BodyBytes {
						t.Errorf("%s: a failed check should keep status %d and count body bytes %d", path, r.Status, r.BodyBytes)
					}
					if r.Kind != KindURL || r.Redirected() {
						t.Errorf("%s: only a URL's final answer is checked, not a %v result with status %d", path, r.Kind, r.Status)
					}
				case r.Err != ErrNone:
					t.Errorf("%s: unexpected failure %v", path, r.Err)
				}
			}
			for i, p := range tt.paths {
				want := tt.fail[p]
				if got := out.CheckSamples[int32(i)]; got != want {
					t.Errorf("%s: first check message %q, want %q", p, got, want)
				}
				if (failed[p] > 0) != (want != "") {
					t.Errorf("%s: %d failed checks, want failures: %v", p, failed[p], want != "")
				}
			}
			if len(tt.fail) > 0 && out.ErrorSamples[ErrCheck] == "" {
				t.Error("the run's error samples should name a failed check")
			}
		})
	}
}

// A target's own checks apply beside the run's; other targets only get the run's.
func TestChecksOfOneTarget(t *testing.T) {
	t.Parallel()
	srv := checkSite(t)
	targets := checkTargets(t, srv.URL, "/ok", "/db", "/ok")
	targets[2].Checks = mustChecks(t, `body~"Price: 18\.65 EUR"`)
	results, out := run(t, Config{Users: 1, Reps: 3, Checks: mustChecks(t, "status<400")}, targets)
	var failed [3]int
	for _, r := range results {
		if r.Err == ErrCheck {
			failed[r.Target]++
		}
	}
	if failed != [3]int{0, 0, 1} {
		t.Errorf("failed checks per target = %v, want only the third's own check to fail", failed)
	}
	if got, want := out.CheckSamples[2], `check body~"Price: 18\.65 EUR" failed`; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if out.Checked != int64(len(results)) {
		t.Errorf("%d answers judged, want every one of the %d", out.Checked, len(results))
	}
}

// Without checks nothing is checked: the database error page is a success.
func TestNoChecks(t *testing.T) {
	t.Parallel()
	srv := checkSite(t)
	results, out := run(t, Config{Users: 1, Reps: 2}, checkTargets(t, srv.URL, "/db", "/gz"))
	for _, r := range results {
		if r.Err != ErrNone {
			t.Errorf("%v without checks", r.Err)
		}
	}
	if out.CheckSamples != nil {
		t.Errorf("check samples %v without checks", out.CheckSamples)
	}
}

// BenchmarkSendChecked is BenchmarkSend's request path for a 16 KB page, without checks, with
// a status check, and with a body check, which holds the decoded body and judges it after the
// request's time was taken.
func BenchmarkSendChecked(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	body := bytes.Repeat([]byte("<p>Price: 15.65 EUR, in stock. Lorem ipsum dolor sit amet.</p>\n"), 256)
	srv := &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
		ctx.SetContentType("text/html")
		ctx.SetBody(body)
	}}
	go srv.Serve(ln)
	b.Cleanup(func() { _ = srv.Shutdown() })
	tg, err := urls.ParseLine("http://"+ln.Addr().String()+"/page", urls.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, bm := range []struct {
		name   string
		checks []string
	}{{"none", nil}, {"status", []string{"status==200"}}, {"body", []string{`status==200 && body!~"database query error"`}}} {
		b.Run(bm.name, func(b *testing.B) {
			var checks []check.Expr
			for _, s := range bm.checks {
				e, err := check.Parse(s)
				if err != nil {
					b.Fatal(err)
				}
				checks = append(checks, e)
			}
			l, err := New(Config{Users: 1, Reps: 1, Timeout: 5 * time.Second, Checks: checks}, []urls.Target{tg})
			if err != nil {
				b.Fatal(err)
			}
			l.start = time.Now()
			x := l.newExchange()
			defer x.release()
			b.ReportAllocs()
			for b.Loop() {
				if res, _ := l.send(x, 0, 0); res.Status != 200 || res.Err != ErrNone {
					b.Fatalf("result %+v", res)
				}
			}
		})
	}
}

// A page that fails a check is still loaded as a browser loads it: its resources are fetched,
// so checks change what is counted, never the load.
func TestFailedCheckKeepsResources(t *testing.T) {
	t.Parallel()
	srv := checkSite(t)
	cfg := Config{Users: 1, Reps: 1, Parser: true, NoCache: true, Checks: mustChecks(t, `body~"Price: 18\.65"`)}
	results, _ := run(t, cfg, checkTargets(t, srv.URL, "/page/ok"))
	var page, images int
	for _, r := range results {
		switch {
		case r.Kind == KindURL && r.Err == ErrCheck:
			page++
		case r.Kind == KindResource && r.Err == ErrNone:
			images++
		}
	}
	if page != 1 || images != 1 || srv.count("GET /img.png") != 1 {
		t.Errorf("%d failed pages, %d images (%d served); want the failed page's image fetched", page, images, srv.count("GET /img.png"))
	}
}

// A header check reads the headers as they came, over HTTP/1.1 and HTTP/2 alike: one sent
// empty equals "", one never sent equals nothing ("" included) and differs from everything,
// and a Content-Type the server did not send is absent, not the text/plain fasthttp assumes.
func TestHeaderChecksTellAbsentFromEmpty(t *testing.T) {
	t.Parallel()
	handle := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Empty", "")
		w.Header().Set("X-Full", "yes")
		w.Header()["Content-Type"] = nil // no Content-Type, none sniffed
		fmt.Fprint(w, "ok")
	}
	h1 := newHitServer(t, handle)
	h2 := newH2Server(t, true, handle)
	for _, tc := range []struct {
		check string
		pass  bool
	}{
		{`header:X-Empty==""`, true},
		{`header:X-Empty!=""`, false},
		{`header:X-Empty~"^$"`, true},
		{`header:X-Absent==""`, false},
		{`header:X-Absent!=""`, true},
		{`header:X-Absent!~"."`, true},
		{`header:x-full=="yes"`, true},
		{`header:Content-Type==""`, false},
		{`header:Content-Type~"text/plain"`, false},
		{`header:Content-Type!~"."`, true},
	} {
		for _, srv := range []struct {
			name string
			url  string
			h2   bool
		}{{"HTTP/1.1", h1.URL, false}, {"HTTP/2", h2.URL, true}} {
			t.Run(srv.name+" "+tc.check, func(t *testing.T) {
				t.Parallel()
				results, _ := run(t, Config{Users: 1, Reps: 1, HTTP2: srv.h2, Checks: mustChecks(t, tc.check)}, checkTargets(t, srv.url, "/"))
				want := ErrNone
				if !tc.pass {
					want = ErrCheck
				}
				if len(results) != 1 || results[0].Err != want || results[0].Status != 200 {
					t.Errorf("results %+v, want one 200 with failure kind %v", results, want)
				}
			})
		}
	}
}
