package run

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// The metrics page shows the users busy now: while every request of the run is held by the
// server, as many as there are requests in flight, in either model.
func TestMetricsShowActiveUsers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		rate float64
	}{
		{name: "closed model"},
		{name: "open model", rate: 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-release:
				case <-time.After(15 * time.Second):
				case <-r.Context().Done():
				}
				w.Write([]byte("ok\n"))
			}))
			t.Cleanup(srv.Close)
			spec := smallSpec(t, srv.URL+"/", 3, 1)
			if tt.rate > 0 {
				spec.Config.Rate, spec.Config.MaxUsers, spec.Config.Reps = tt.rate, 3, 3
			}
			spec.Outputs.PromAddr = freeAddr(t)
			done := make(chan error, 1)
			go func() {
				_, err := Execute(boundedCtx(t), spec, Streams{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
				done <- err
			}()
			seen := ""
			for range 80 { // up to 20 s for a busy machine to start the run
				time.Sleep(250 * time.Millisecond)
				if seen = scrapeLine(spec.Outputs.PromAddr, "webload_users_active "); seen == "webload_users_active 3" {
					break
				}
			}
			close(release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if seen != "webload_users_active 3" {
				t.Errorf("last scrape: %q; want webload_users_active 3 while the server held the 3 requests", seen)
			}
		})
	}
}

// freeAddr is a loopback address that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// scrapeLine is the metrics page's line that starts with prefix, "" when there is none.
func scrapeLine(addr, prefix string) string {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for line := range strings.Lines(string(body)) {
		if strings.HasPrefix(line, prefix) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// A ladder's metrics page says which step is in progress: the site scrapes it while it answers,
// and sees each step's users in turn.
func TestMetricsShowLadderStep(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	var mu sync.Mutex
	seen := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		line := scrapeLine(addr, "webload_step ")
		mu.Lock()
		seen[line] = true
		mu.Unlock()
		w.Write([]byte("ok\n"))
	}))
	t.Cleanup(srv.Close)
	spec := smallSpec(t, srv.URL+"/", 1, 2)
	spec.Ladder = []int{1, 3}
	spec.Outputs.PromAddr = addr
	if _, err := Execute(boundedCtx(t), spec, Streams{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !seen["webload_step 1"] || !seen["webload_step 3"] || len(seen) != 2 {
		t.Errorf("steps seen while answering: %v; want webload_step 1 and 3", seen)
	}
}
