package faultsite

import (
	"bufio"
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

	// An outage no test outlives: the site is down until Up, however slowly this goroutine
	// runs, so every refusal below is the outage's and not a race with the comeback.
	if err := s.GoDown(time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := net.Dial("tcp", addr); !isRefused(err) {
		t.Errorf("dial while down: %v, want connection refused", err)
	}
	for name, c := range map[string]net.Conn{"idle": idle, "hanging": hang} {
		if got, err := readFor(c, 10*time.Second); !isReset(err) {
			t.Errorf("%s connection: read %q, %v; want ECONNRESET", name, got, err)
		}
	}
	// Without keep-alives each request gets a fresh connection, so a success means the
	// listener is back and a refusal that it is not.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
	if resp, err := client.Get(s.URL("/ok")); !isRefused(err) {
		if err == nil {
			resp.Body.Close()
		}
		t.Fatalf("GET while down: %v, want connection refused", err)
	}

	// Up returns once the site listens: no polling after it. The guard turns an Up that
	// waits for the hour into a failure rather than a stuck test binary.
	upped := make(chan error, 1)
	go func() { upped <- s.Up() }()
	select {
	case err := <-upped:
		if err != nil {
			t.Fatalf("Up: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Up still waiting after 30 s")
	}
	resp, body := get(t, client, s.URL("/ok"))
	if resp.StatusCode != 200 || body != "ok\n" {
		t.Errorf("after coming back: status %d body %q", resp.StatusCode, body)
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
	if err := s.Up(); err == nil {
		t.Error("Up on a site that is up succeeded, want an error")
	}

	// A second outage ends by itself once its time is out, and not before: the site cannot
	// answer sooner than down after GoDown began, however late this goroutine polls.
	const down = 200 * time.Millisecond
	start := time.Now()
	if err := s.GoDown(down); err != nil {
		t.Fatal(err)
	}
	for {
		resp, err := client.Get(s.URL("/ok"))
		if err == nil {
			resp.Body.Close()
			if back := time.Since(start); back < down {
				t.Errorf("back after %v, want no sooner than %v", back, down)
			}
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
	if s.Addr() != addr {
		t.Errorf("address changed from %s to %s", addr, s.Addr())
	}
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

// TestCloseWhileDownStaysDown closes a site in the middle of an outage: Close must not wait
// for the outage to end, and the site must not come back afterwards. An outage of an hour
// tells the first apart without a stopwatch (a Close that waited would hit the hang guard);
// one of zero has the comeback race Close, and whichever wins, nothing listens once Close has
// returned, since Close waits for the comeback's goroutine.
func TestCloseWhileDownStaysDown(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		down time.Duration
	}{
		{"outage longer than any test", time.Hour},
		{"comeback due at once", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Not startSite: its cleanup's Close would wait on the very Close that hung.
			s, err := Start()
			if err != nil {
				t.Fatal(err)
			}
			if err := s.GoDown(tt.down); err != nil {
				t.Fatal(err)
			}
			closed := make(chan error, 1)
			go func() { closed <- s.Close() }()
			select {
			case err := <-closed:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("Close while down still waiting after 30 s; it must not wait for the outage to end")
			}
			if err := s.Up(); err == nil {
				t.Error("Up after Close succeeded, want an error")
			}
			if _, err := net.Dial("tcp", s.Addr()); !isRefused(err) {
				t.Errorf("dial after Close: %v, want connection refused (no comeback)", err)
			}
		})
	}
}
