package loader

import (
	"testing"
	"time"

	"golang.org/x/net/http2/hpack"

	"github.com/webload/webload/urls"
)

// An HTTP/2 :status that is no final HTTP status (000, 0, 099) is a bad response, as on
// HTTP/1.1 (TestBadStatusCodes): the HTTP/2 client reads "000" as 0, which fasthttp would report
// as a 200.
func TestHTTP2BadStatusCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status string
		want   ErrKind
		code   uint16
	}{
		{"200", ErrNone, 200},
		{"000", ErrBadResponse, 0},
		{"0", ErrBadResponse, 0},
		{"099", ErrBadResponse, 0},
	} {
		t.Run(tc.status, func(t *testing.T) {
			t.Parallel()
			srv := &rawH2Server{fields: []hpack.HeaderField{{Name: ":status", Value: tc.status}, {Name: "content-length", Value: "2"}}}
			results, _ := run(t, Config{Users: 1, Reps: 2, HTTP2: true}, []urls.Target{rawTarget(t, "http://"+srv.start(t)+"/")})
			if len(results) != 2 {
				t.Fatalf("%d results, want 2", len(results))
			}
			for _, r := range results {
				if r.Err != tc.want || r.Status != tc.code {
					t.Errorf("result %+v, want kind %v, status %d", r, tc.want, tc.code)
				}
			}
			if got := srv.answered.Load(); got != 2 {
				t.Errorf("server answered %d requests, want 2", got)
			}
		})
	}
}

// -g over HTTP/2 shows the answer's head as it came: its :status as sent, with no reason
// phrase HTTP/2 does not have, and only the server's headers (no Date, Content-Type or
// Content-Length of fasthttp's defaults), in a stable order.
func TestHTTP2ProbeShowsWhatCame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		fields []hpack.HeaderField
		want   string
	}{
		{"bare 200", []hpack.HeaderField{{Name: ":status", Value: "200"}},
			"HTTP/2.0 200\n"},
		{"headers", []hpack.HeaderField{{Name: ":status", Value: "404"}, {Name: "x-b", Value: "2"}, {Name: "x-a", Value: "1"},
			{Name: "set-cookie", Value: "sid=s3ss10n"}, {Name: "x-b", Value: "3"}},
			"HTTP/2.0 404\nSet-Cookie: ***\nX-A: 1\nX-B: 2\nX-B: 3\n"},
		{"status 000", []hpack.HeaderField{{Name: ":status", Value: "000"}, {Name: "content-length", Value: "2"}},
			"HTTP/2.0 000\nContent-Length: 2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := &rawH2Server{fields: tc.fields}
			addr := srv.start(t)
			p, err := ProbeOnce(Config{HTTP2: true, Timeout: 10 * time.Second}, rawTarget(t, "http://"+addr+"/"))
			if err != nil {
				t.Fatal(err)
			}
			if p.Response != tc.want {
				t.Errorf("response head:\n%s\nwant:\n%s", p.Response, tc.want)
			}
			if string(p.Body) != "ok" {
				t.Errorf("body %q", p.Body)
			}
		})
	}
}
