// Package capsite is a loopback site with a known capacity, for the tests of capacity searches
// and concurrency ladders: Workers requests are served at once, each for exactly Service, and
// the others wait in a queue for a free worker. It therefore completes at most Workers/Service
// requests per second, whatever is offered; below that a request takes Service, above it the
// queue grows and every request waits longer than the last, as a saturated application server
// does (a PHP-FPM or Puma pool of Workers processes).
package capsite

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// Config describes the site.
type Config struct {
	// Workers is the number of requests served at once; at least 1.
	Workers int
	// Service is how long a worker takes over one request; more than 0.
	Service time.Duration
	// Queue caps the requests waiting for a worker: one more is answered 503 at once, as a
	// proxy with a full backlog does. 0 means no cap, so overload shows as time, never errors.
	Queue int
	// FailAfter, when above 0, makes the site fall over after that many answers: every later
	// request is answered 503 at once. A search over such a site passes and fails by the
	// count of requests it sent, never by how fast the machine is, which is what the tests of
	// a search's logic need.
	FailAfter int64
	// Hold, when set, keeps every request in service until it is closed, after its Service
	// time: a test that needs requests in service at a moment holds them there instead of
	// guessing how long its requests take to arrive.
	Hold <-chan struct{}
}

// Capacity is the most requests per second the site completes: Workers/Service.
func (c Config) Capacity() float64 { return float64(c.Workers) / c.Service.Seconds() }

// ErrBadConfig is returned by Start for a configuration with no workers or no service time.
var ErrBadConfig = errors.New("capsite needs at least 1 worker and a positive service time")

// Site is a running capacity site on 127.0.0.1.
type Site struct {
	cfg     Config
	base    string
	srv     *http.Server
	done    chan struct{}
	workers chan struct{} // a token per busy worker
	waiting atomic.Int64
	served  atomic.Int64
	refused atomic.Int64
	answers atomic.Int64 // every request taken, for FailAfter
}

// Start serves the site on a free port of 127.0.0.1.
func Start(cfg Config) (*Site, error) {
	if cfg.Workers < 1 || cfg.Service <= 0 || cfg.Queue < 0 || cfg.FailAfter < 0 {
		return nil, fmt.Errorf("%w (got %d workers, %v, queue %d, fail after %d)", ErrBadConfig, cfg.Workers, cfg.Service, cfg.Queue, cfg.FailAfter)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the capacity site: %w", err)
	}
	s := &Site{cfg: cfg, base: "http://" + ln.Addr().String(), done: make(chan struct{}),
		workers: make(chan struct{}, cfg.Workers)}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // ends with ErrServerClosed at Close
	}()
	return s, nil
}

// URL is the site's one page, absolute; every path answers the same way.
func (s *Site) URL() string { return s.base + "/" }

// Served counts the requests answered 200 so far.
func (s *Site) Served() int64 { return s.served.Load() }

// Refused counts the requests answered 503 because the queue was full or the site fell over.
func (s *Site) Refused() int64 { return s.refused.Load() }

// Waiting counts the requests in the queue now, waiting for a worker; a test waits for it to
// reach a count instead of guessing how long its requests take to arrive.
func (s *Site) Waiting() int64 { return s.waiting.Load() }

// Close stops the site and waits for its server to end; requests in service are cut.
func (s *Site) Close() error {
	err := s.srv.Close()
	<-s.done
	return err
}

// ServeHTTP queues the request for a worker, then holds the worker for the service time. The
// wait for a worker is the client's to count: it is how overload shows.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if n := s.answers.Add(1); s.cfg.FailAfter > 0 && n > s.cfg.FailAfter {
		s.refused.Add(1)
		http.Error(w, "fell over", http.StatusServiceUnavailable)
		return
	}
	if n := s.waiting.Add(1); s.cfg.Queue > 0 && n > int64(s.cfg.Queue) {
		s.waiting.Add(-1)
		s.refused.Add(1)
		http.Error(w, "queue full", http.StatusServiceUnavailable)
		return
	}
	select {
	case s.workers <- struct{}{}:
	case <-r.Context().Done(): // the client gave up while waiting
		s.waiting.Add(-1)
		return
	}
	s.waiting.Add(-1)
	time.Sleep(s.cfg.Service)
	if s.cfg.Hold != nil {
		select {
		case <-s.cfg.Hold:
		case <-r.Context().Done():
		}
	}
	<-s.workers
	s.served.Add(1)
	w.Header().Set("Content-Type", "text/plain")
	_, _ = w.Write([]byte("ok\n"))
}
