package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The command line holds credentials (-H "Authorization: ...", URLs with passwords), so the
// profiler does not serve it; the profiles themselves are still there.
func TestPprofServesProfilesButNotTheCommandLine(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(pprofHandler())
	t.Cleanup(srv.Close)
	tests := []struct {
		name string
		path string
		want int
	}{
		{"the command line", "/debug/pprof/cmdline", http.StatusNotFound},
		{"the command line with a query", "/debug/pprof/cmdline?debug=1", http.StatusNotFound},
		{"the index", "/debug/pprof/", http.StatusOK},
		{"the heap", "/debug/pprof/heap?debug=1", http.StatusOK},
		{"the goroutines", "/debug/pprof/goroutine?debug=1", http.StatusOK},
		{"the symbols", "/debug/pprof/symbol", http.StatusOK},
		{"a short CPU profile", "/debug/pprof/profile?seconds=1", http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Get(srv.URL + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.want {
				t.Errorf("GET %s: %d, want %d; body %.200q", tc.path, resp.StatusCode, tc.want, body)
			}
		})
	}
}
