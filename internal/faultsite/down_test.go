package faultsite

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

func TestGoDown(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	addr := s.Addr()

	// An idle keep-alive connection and a hanging request: both must be cut by GoDown.
	idle := rawRequest(t, addr, "/ok")
	if _, err := http.ReadResponse(bufio.NewReader(idle), nil); err != nil {
		t.Fatal(err)
	}
	hang := rawRequest(t, addr, "/hang")
	waitFor(t, "the hang to start", 20*time.Second, func() bool { return s.Hits("/hang") == 1 })
	connsBefore := s.Connections()

	const down = 400 * time.Millisecond
	start := time.Now()
	if err := s.GoDown(down); err != nil {
		t.Fatal(err)
	}
	if _, err := net.Dial("tcp", addr); !isRefused(err) {
		t.Errorf("dial while down: %v, want connection refused", err)
	}
	for name, c := range map[string]net.Conn{"idle": idle, "hanging": hang} {
		if got, err := readFor(c, time.Second); !isReset(err) {
			t.Errorf("%s connection: read %q, %v; want ECONNRESET", name, got, err)
		}
	}

	// Each attempt gets a fresh connection so that success means the listener is back.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 2 * time.Second}
	var back time.Duration
	for {
		resp, err := client.Get(s.URL("/ok"))
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || string(body) != "ok\n" {
				t.Fatalf("after coming back: status %d body %q", resp.StatusCode, body)
			}
			back = time.Since(start)
			break
		}
		if !isRefused(err) {
			t.Fatalf("while down: %v, want connection refused", err)
		}
		if time.Since(start) > 30*time.Second {
			t.Fatal("site not back 30 s after GoDown")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if back < down {
		t.Errorf("back after %v, want no sooner than %v", back, down)
	}
	if s.Addr() != addr {
		t.Errorf("address changed from %s to %s", addr, s.Addr())
	}
	if h := s.Hits("/ok"); h != 2 {
		t.Errorf("Hits(/ok) = %d, want 2 (one before, one after; refused dials never arrive)", h)
	}
	if n := s.Connections(); n != connsBefore+1 {
		t.Errorf("Connections = %d, want %d", n, connsBefore+1)
	}

	// A second outage works as the first did.
	if err := s.GoDown(0); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the site to come back again", 20*time.Second, func() bool {
		resp, err := client.Get(s.URL("/ok"))
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
}

func TestGoDownRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		prepare func(*Site) error
		d       time.Duration
	}{
		{"negative duration", func(*Site) error { return nil }, -time.Second},
		{"already down", func(s *Site) error { return s.GoDown(time.Hour) }, time.Second},
		{"closed", func(s *Site) error { return s.Close() }, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startSite(t)
			if err := tt.prepare(s); err != nil {
				t.Fatal(err)
			}
			if err := s.GoDown(tt.d); err == nil {
				t.Error("GoDown succeeded, want an error")
			}
		})
	}
}

func TestCloseWhileDownStaysDown(t *testing.T) {
	t.Parallel()
	s := startSite(t)
	// An outage long enough that a Close waiting for its end cannot be mistaken, even on a
	// busy machine, for one that does not.
	const down = 3 * time.Second
	start := time.Now()
	if err := s.GoDown(down); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d >= down {
		t.Errorf("Close while down took %v; it must not wait for the outage to end", d)
	}
	time.Sleep(time.Until(start.Add(down + 200*time.Millisecond)))
	if _, err := net.Dial("tcp", s.Addr()); !isRefused(err) {
		t.Errorf("dial after Close: %v, want connection refused (no comeback)", err)
	}
}
