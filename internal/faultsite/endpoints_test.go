package faultsite

import (
	"bufio"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestWellFormedEndpoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		path       string // with query
		wantStatus int
		wantBody   string // exact, or a prefix when wantPrefix
		wantPrefix bool
		minTime    time.Duration
	}{
		{"ok", "/ok", 200, "ok\n", false, 0},
		{"slow immediate", "/slow?ms=0", 200, "ok\n", false, 0},
		{"slow 150ms", "/slow?ms=150", 200, "ok\n", false, 150 * time.Millisecond},
		{"slow default 1s", "/slow", 200, "ok\n", false, time.Second},
		{"status default", "/status", 200, "status 200\n", false, 0},
		{"status 418", "/status?code=418", 418, "status 418\n", false, 0},
		{"status 503", "/status?code=503", 503, "status 503\n", false, 0},
		{"status 299", "/status?code=299", 299, "status 299\n", false, 0},
		{"status 204 has no body", "/status?code=204", 204, "", false, 0},
		{"close-after default", "/close-after", 200, "ok\n", false, 0},
		{"burst first request is in the burst", "/burst", 503, "burst\n", false, 0},
		{"burst without bursts", "/burst?len=0", 200, "ok\n", false, 0},
		{"root is not found", "/", 404, "404 page not found\n", false, 0},
		{"unknown is not found", "/nope", 404, "404 page not found\n", false, 0},
		{"subpath is not found", "/ok/more", 404, "404 page not found\n", false, 0},
		{"slow bad ms", "/slow?ms=x", 400, "parameter ms", true, 0},
		{"slow negative ms", "/slow?ms=-1", 400, "parameter ms", true, 0},
		{"status below 200", "/status?code=101", 400, "parameter code", true, 0},
		{"status above 999", "/status?code=1000", 400, "parameter code", true, 0},
		{"huge negative", "/huge?bytes=-1", 400, "parameter bytes", true, 0},
		{"burst zero every", "/burst?every=0", 400, "parameter every", true, 0},
		{"close-after zero", "/close-after?n=0", 400, "parameter n", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startSite(t)
			start := time.Now()
			resp, body := get(t, newClient(t), s.URL(tt.path))
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if tt.wantPrefix && !strings.HasPrefix(body, tt.wantBody) ||
				!tt.wantPrefix && body != tt.wantBody {
				t.Errorf("body %q, want %q", body, tt.wantBody)
			}
			if d := time.Since(start); d < tt.minTime {
				t.Errorf("answered after %v, want at least %v", d, tt.minTime)
			}
			path, _, _ := strings.Cut(tt.path, "?")
			if h := s.Hits(path); h != 1 {
				t.Errorf("Hits(%q) = %d, want 1", path, h)
			}
		})
	}
}

func TestOKSetsContentLength(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	resp, _ := get(t, newClient(t), s.URL("/ok"))
	if resp.ContentLength != 3 || resp.TransferEncoding != nil {
		t.Errorf("Content-Length %d, Transfer-Encoding %v; want 3 and none",
			resp.ContentLength, resp.TransferEncoding)
	}
}

func TestBurst(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		query    string
		requests int
		want503  []int // ordinals answered 503
	}{
		{"defaults", "", 20, []int{0, 1, 2, 10, 11, 12}},
		{"one in five", "?every=5&len=1", 20, []int{0, 5, 10, 15}},
		{"never", "?len=0", 10, nil},
		{"always", "?every=4&len=4", 5, []int{0, 1, 2, 3, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startSite(t)
			c := newClient(t)
			var got []int
			for i := range tt.requests {
				resp, body := get(t, c, s.URL("/burst"+tt.query))
				switch {
				case resp.StatusCode == 503:
					got = append(got, i)
				case resp.StatusCode != 200 || body != "ok\n":
					t.Fatalf("request %d: status %d body %q", i, resp.StatusCode, body)
				}
			}
			if !slices.Equal(got, tt.want503) {
				t.Errorf("503 at %v, want %v", got, tt.want503)
			}
			if h := s.Hits("/burst"); h != int64(tt.requests) {
				t.Errorf("Hits = %d, want %d", h, tt.requests)
			}
		})
	}
}

func TestCloseAfter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		query string
		n     int
	}{
		{"every third", "?n=3", 3},
		{"every response", "?n=1", 1},
		{"default is every response", "", 1},
		{"every fifth", "?n=5", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startSite(t)
			c := rawRequest(t, s.Addr(), "/close-after"+tt.query)
			br := bufio.NewReader(c)
			for i := 1; i <= tt.n; i++ {
				if i > 1 {
					if _, err := io.WriteString(c, "GET /close-after"+tt.query+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
						t.Fatalf("request %d: %v", i, err)
					}
				}
				_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatalf("response %d: %v", i, err)
				}
				body, err := io.ReadAll(resp.Body)
				if err != nil || resp.StatusCode != 200 || string(body) != "ok\n" {
					t.Fatalf("response %d: status %d body %q err %v", i, resp.StatusCode, body, err)
				}
				if resp.Close != (i == tt.n) {
					t.Errorf("response %d: Connection: close is %v, want %v", i, resp.Close, i == tt.n)
				}
			}
			rest, err := readFor(c, 10*time.Second)
			if err != io.EOF || len(rest) != 0 {
				t.Errorf("after response %d: read %q, %v; want the connection closed (EOF)", tt.n, rest, err)
			}
			if n := s.Connections(); n != 1 {
				t.Errorf("Connections = %d, want 1: all responses on one keep-alive connection", n)
			}
		})
	}
}

func TestHuge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		query string
		want  int64
	}{
		{"10 MiB", "?bytes=10485760", 10 << 20},
		{"empty", "?bytes=0", 0},
		{"one byte past a chunk", "?bytes=65537", hugeChunk + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startSite(t)
			resp, err := newClient(t).Get(s.URL("/huge" + tt.query))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			n, err := io.Copy(io.Discard, resp.Body)
			if err != nil {
				t.Fatalf("after %d bytes: %v", n, err)
			}
			if n != tt.want || resp.ContentLength != tt.want {
				t.Errorf("read %d bytes, Content-Length %d; want %d", n, resp.ContentLength, tt.want)
			}
		})
	}
}

func TestHugeDefaultIsTwoGiBAndStopsWhenClientLeaves(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	c := rawRequest(t, s.Addr(), "/huge")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.ContentLength != 2147483648 {
		t.Errorf("Content-Length %d, want 2147483648", resp.ContentLength)
	}
	if n, err := io.CopyN(io.Discard, resp.Body, 1<<20); err != nil {
		t.Fatalf("after %d bytes: %v", n, err)
	}
	c.Close()
	waitFor(t, "the /huge handler to stop", 20*time.Second, func() bool { return s.active.Load() == 0 })
}
