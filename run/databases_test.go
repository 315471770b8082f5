package run

import (
	"bytes"
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/dbload"
)

// deadDatabase listens on loopback, accepts connections and never answers, as a database
// whose server hangs; it counts the connections and tells of the first on accepted.
type deadDatabase struct {
	ln       net.Listener
	conns    atomic.Int64
	accepted chan struct{}
}

func newDeadDatabase(t *testing.T) *deadDatabase {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &deadDatabase{ln: ln, accepted: make(chan struct{})}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
			if d.conns.Add(1) == 1 {
				close(d.accepted)
			}
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			_ = c.Close()
		}
	})
	return d
}

// Ctrl-C while a --db that accepts connections but never answers is read before the load ends
// the run at once as interrupted: the reading is cut off with the interrupt, no request is
// sent, no final reading is tried (one connection, the first reading's), and nothing is warned
// of.
func TestInterruptWhileDatabaseHangs(t *testing.T) {
	t.Parallel()
	for _, scheme := range []string{"mysql", "postgres"} {
		t.Run(scheme, func(t *testing.T) {
			t.Parallel()
			db := newDeadDatabase(t)
			srv := newSite(t, nil)
			spec := smallSpec(t, srv.URL+"/a", 2, 2)
			target, err := dbload.ParseTarget(scheme + "://webload:secret@" + db.ln.Addr().String() + "/site")
			if err != nil {
				t.Fatal(err)
			}
			spec.Databases = append(spec.Databases, target)
			spec.Outputs.Quiet = false // the warnings and notices a person would see
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			interrupt := errors.New("interrupt")
			go func() {
				select {
				case <-db.accepted: // the first reading is under way
				case <-time.After(10 * time.Second):
				}
				cancel(interrupt)
			}()
			var stdout, stderr bytes.Buffer
			type result struct{ err error }
			done := make(chan result, 1)
			go func() {
				_, err := Execute(ctx, spec, Streams{Stdout: &stdout, Stderr: &stderr})
				done <- result{err}
			}()
			var got result
			select {
			case got = <-done:
			case <-time.After(20 * time.Second): // a failure deadline; the readings' own bounds are 10 s
				t.Fatal("Execute has not returned 20 s after the interrupt")
			}
			var intr InterruptedError
			if !errors.As(got.err, &intr) || !errors.Is(got.err, interrupt) {
				t.Fatalf("error %v, want the interrupt", got.err)
			}
			if n := srv.hits.Load(); n != 0 {
				t.Errorf("the site got %d requests after the interrupt, want none", n)
			}
			if n := db.conns.Load(); n != 1 {
				t.Errorf("the database was connected to %d times, want once (no final reading)", n)
			}
			if bytes.Contains(stderr.Bytes(), []byte("warning")) {
				t.Errorf("stderr warns of the database cut off by the interrupt:\n%s", stderr.String())
			}
		})
	}
}
