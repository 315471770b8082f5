package main

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
)

// --cpus holds for the whole run and no longer: the site, in the same process, sees Go's
// setting at each request. Without it a run takes every CPU, or half of them over HTTP/2
// (cleartext, which the site speaks too). Not parallel: the setting is the process's.
func TestCPUsLimitsTheRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(5)) // a setting --cpus changes, on any machine
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"one", []string{"--cpus", "1"}, 1},
		{"two", []string{"--cpus", "2"}, 2},
		{"all, the default", nil, 5},
		{"all, said", []string{"--cpus", "0"}, 5},
		{"half over HTTP/2, the default", []string{"--http2"}, 2},
		{"HTTP/2, all said", []string{"--http2", "--cpus", "0"}, 5},
		{"HTTP/2, three said", []string{"--http2", "--cpus", "3"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			seen := map[int]int{}
			site := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				mu.Lock()
				seen[runtime.GOMAXPROCS(0)]++
				mu.Unlock()
			}))
			site.Config.Protocols = new(http.Protocols)
			site.Config.Protocols.SetHTTP1(true)
			site.Config.Protocols.SetUnencryptedHTTP2(true)
			site.Start()
			defer site.Close()
			args := append(append([]string{"-q", "-c", "2", "-r", "3"}, tt.args...), site.URL+"/")
			if _, stderr, code := webload(t, nil, args...); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != 1 || seen[tt.want] != 6 {
				t.Errorf("requests by the CPUs Go ran on = %v, want all 6 on %d", seen, tt.want)
			}
			if got := runtime.GOMAXPROCS(0); got != 5 {
				t.Errorf("after the run Go runs on %d CPUs, want 5 as before", got)
			}
		})
	}
}
