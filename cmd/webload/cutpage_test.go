package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// slowPageSite serves at / an HTML page of n resources that each take delay, so a visit lasts
// n/6*delay over the default six resource connections. first is called at the first resource
// request, when the visit is surely among its resources.
func slowPageSite(t *testing.T, n int, delay time.Duration, first func()) *httptest.Server {
	t.Helper()
	var once sync.Once
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html")
			var b strings.Builder
			b.WriteString("<html><body>")
			for i := range n {
				fmt.Fprintf(&b, `<img src="/img/%d.png">`, i)
			}
			b.WriteString("</body></html>")
			fmt.Fprint(w, b.String())
			return
		}
		once.Do(first)
		time.Sleep(delay)
		fmt.Fprint(w, "image")
	}))
	t.Cleanup(site.Close)
	return site
}

// A stop that comes while a page's resources are loading cuts the visit: its requests are
// counted, the page is reported as cut, and the accounting check passes.
func TestStopAmongResources(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		cancel   bool // stop as Ctrl-C does, at the first resource request
		wantCode int
	}{
		// 30 resources of a second over 6 connections make a 5 s visit: -t 2S always cuts it,
		// and leaves a busy machine 2 s to ask for the first resource.
		{"time up", []string{"-t", "2S"}, false, 0},
		{"Ctrl-C", []string{"-t", "1H"}, true, 130},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			stop := func() {}
			if tc.cancel {
				stop = func() { cancel(signalCause{syscall.SIGINT}) }
			}
			site := slowPageSite(t, 30, time.Second, stop)
			runCtx, done := context.WithTimeout(ctx, 60*time.Second)
			defer done()
			var out, errw bytes.Buffer
			args := append([]string{"webload", "-j", "-c", "1", "--timeout", "10"}, tc.args...)
			err := runApp(runCtx, append(args, site.URL+"/"), &out, &errw, func(string) (string, bool) { return "", false })
			if code := exitCode(err, &errw); code != tc.wantCode {
				t.Fatalf("exit %d, want %d: %s", code, tc.wantCode, errw.String())
			}
			rep := decode(t, out.Bytes())
			pages, ok := rep["pages"].(map[string]any)
			if !ok {
				t.Fatalf("no page figures in the JSON:\n%s", out.String())
			}
			if pages["cut"] != 1.0 || pages["pages"] != 0.0 {
				t.Errorf("pages %v, want the one visit cut and none loaded", pages)
			}
			if res := pages["resources"].(float64); res < 1 || res >= 30 {
				t.Errorf("%v resources counted, want the ones requested before the stop (1 to 29)", res)
			}
		})
	}
}
