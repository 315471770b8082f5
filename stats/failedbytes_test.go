package stats

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// tee records results in a Recorder and keeps them.
type tee struct {
	rec     *Recorder
	results []loader.Result
}

func (s *tee) Record(batch []loader.Result) {
	s.rec.Record(batch)
	s.results = append(s.results, batch...)
}

// The bytes of a request that failed half way through its body are no data transferred: not
// in the body or decoded bytes, not in the page's resource bytes, not in the page result.
func TestFailedRequestsBringNoBytes(t *testing.T) {
	t.Parallel()
	script := []byte(strings.Repeat("console.log('shop');\n", 5000))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(script)
	_ = zw.Close()
	cut := gz.Bytes()[:gz.Len()/2] // decodes for a while, then ends before the gzip stream does
	html := `<html><script src="/ok.js"></script><script src="/cut.js"></script></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(html))
		case "/ok.js":
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gz.Bytes())
		case "/cut.js":
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(cut)
		}
	}))
	t.Cleanup(srv.Close)
	targets := []urls.Target{{Method: "GET", URL: srv.URL + "/page", Source: "u:1"}}
	l, err := loader.New(loader.Config{Users: 1, Reps: 1, Timeout: 10 * time.Second, Parser: true,
		AcceptEncoding: "gzip"}, targets)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sink := &tee{rec: NewRecorder(targets, Options{})}
	out := l.Run(ctx, sink)
	var cutRes, page *loader.Result
	for i, r := range sink.results {
		switch {
		case r.Kind == loader.KindPage:
			page = &sink.results[i]
		case r.Err != loader.ErrNone:
			cutRes = &sink.results[i]
		}
	}
	if len(sink.results) != 4 || cutRes == nil || page == nil || cutRes.Err != loader.ErrBadResponse {
		t.Fatalf("results %+v, want the page, two scripts (one cut) and the page result", sink.results)
	}
	if cutRes.Decoded == 0 {
		t.Fatalf("the cut script decoded nothing (%+v): the test no longer shows anything", *cutRes)
	}
	rep := sink.rec.Report(out, RunInfo{}, "")
	okBody, okDecoded := int64(len(html)+gz.Len()), int64(len(html)+len(script))
	got := fmt.Sprintf("body %d, decoded %d, resource bytes %d, page body %d, page decoded %d",
		rep.BodyBytes, rep.DecodedBytes, rep.URLs[0].Pages.ResourceBytes, page.BodyBytes, page.Decoded)
	want := fmt.Sprintf("body %d, decoded %d, resource bytes %d, page body %d, page decoded %d",
		okBody, okDecoded, gz.Len(), okBody, okDecoded)
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
