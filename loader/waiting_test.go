package loader

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/internal/holdsite"
	"github.com/webload/webload/urls"
)

// A user waiting for its answer on a plain connection, in a run that may hold awaitFrom
// connections or more, waits before fasthttp takes a read buffer for it: every waiting user's
// goroutine is in SetReadDeadline, none in a buffered read. In a smaller run the user waits
// in the read, as the look at the socket would cost more than the buffers it spares.
func TestWaitingUsersHoldNoReadBuffer(t *testing.T) {
	if !idleCheck {
		t.Skip("the wait needs a look at the socket, which this system does not offer")
	}
	const users = 20
	cfg := DefaultConfig()
	cfg.Users, cfg.MaxUsers, cfg.Reps, cfg.Timeout = users, 0, 1, time.Minute
	conns := users * cfg.connsPerUser() // the most the run may hold
	tests := []struct {
		name                   string
		awaitFrom              int
		wantWaiting, wantReads int
	}{
		{"as many connections as awaitFrom", conns, users, 0},
		{"fewer", conns + 1, 0, users},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site, tg := holdSite(t)
			cfg := cfg
			cfg.awaitFrom = tt.awaitFrom
			l, err := New(cfg, []urls.Target{tg})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				l.Run(ctx, &collect{})
			}()
			defer func() {
				cancel()
				site.Close() // the held requests fail at once, and the run ends
				await(t, done, "the run's end")
			}()
			var waiting, reading int
			for range 1000 { // at most 10 s: every request is written within milliseconds
				waiting, reading = goroutinesIn("(*wireConn).awaitAnswer"), goroutinesIn("bufio.(*Reader).fill")
				if waiting+reading == users {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			if waiting != tt.wantWaiting || reading != tt.wantReads {
				t.Errorf("%d users waiting before taking a read buffer, %d in a buffered read; want %d and %d", waiting, reading, tt.wantWaiting, tt.wantReads)
			}
		})
	}
}

// goroutinesIn counts the goroutines with fn in their stack.
func goroutinesIn(fn string) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), fn+"(")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// Whatever ends the wait for an answer, the request ends as it would without the wait: the
// answer is read (in one piece or several, after an informational one, on a new connection or a
// kept-alive one), and a close, a reset or the timeout fails it as such.
func TestAnswerAfterWait(t *testing.T) {
	t.Parallel()
	const delay = 50 * time.Millisecond // the client is waiting by then
	ok := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	tests := []struct {
		name    string
		reps    int
		timeout time.Duration
		answer  answerFunc
		want    []ErrKind
		conns   int64
	}{
		{"answer", 2, 0, func(c net.Conn, _ *http.Request, _ int) bool {
			time.Sleep(delay)
			io.WriteString(c, ok)
			return true
		}, []ErrKind{ErrNone, ErrNone}, 1},
		{"answer in pieces", 1, 0, func(c net.Conn, _ *http.Request, _ int) bool {
			time.Sleep(delay)
			io.WriteString(c, ok[:3])
			time.Sleep(delay)
			io.WriteString(c, ok[3:])
			return true
		}, []ErrKind{ErrNone}, 1},
		{"informational first", 1, 0, func(c net.Conn, _ *http.Request, _ int) bool {
			time.Sleep(delay)
			io.WriteString(c, "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n")
			time.Sleep(delay)
			io.WriteString(c, ok)
			return true
		}, []ErrKind{ErrNone}, 1},
		{"close", 1, 0, func(net.Conn, *http.Request, int) bool {
			time.Sleep(delay)
			return false
		}, []ErrKind{ErrClosed}, 1},
		{"reset", 1, 0, func(c net.Conn, _ *http.Request, _ int) bool {
			time.Sleep(delay)
			resetConn(c)
			return false
		}, []ErrKind{ErrClosed}, 1},
		{"silence", 1, 300 * time.Millisecond, func(net.Conn, *http.Request, int) bool {
			time.Sleep(500 * time.Millisecond)
			return false
		}, []ErrKind{ErrTimeout}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newRawServer(t, tt.answer)
			tg, err := urls.ParseLine(s.url("/"), urls.Options{})
			if err != nil {
				t.Fatal(err)
			}
			results, _ := run(t, Config{Users: 1, Reps: tt.reps, Timeout: tt.timeout, awaitFrom: 1}, []urls.Target{tg})
			var got []ErrKind
			for _, r := range results {
				got = append(got, r.Err)
			}
			if !slices.Equal(got, tt.want) || s.conns.Load() != tt.conns {
				t.Errorf("results %v on %d connections; want %v on %d", got, s.conns.Load(), tt.want, tt.conns)
			}
		})
	}
}

// A user waiting for its first answer holds no batch of results: it takes one with its first
// result.
func TestWaitingUsersHoldNoBatch(t *testing.T) {
	const users = 20
	site, tg := holdSite(t)
	l, err := New(Config{Users: users, Reps: 1, Timeout: time.Minute}, []urls.Target{tg})
	if err != nil {
		t.Fatal(err)
	}
	var made atomic.Int64
	newBatch := l.batches.New
	l.batches.New = func() any { made.Add(1); return newBatch() }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.Run(ctx, &collect{})
	}()
	for i := 0; i < 1000 && site.Held() < users; i++ { // at most 10 s
		time.Sleep(10 * time.Millisecond)
	}
	held, batches := site.Held(), made.Load()
	cancel()
	site.Close()
	await(t, done, "the run's end")
	if held != users || batches != 0 {
		t.Errorf("%d of %d users waiting hold %d batches; want none", held, users, batches)
	}
}

// A user's cookie jar holds nothing until an answer sets a cookie: answers that set none leave
// it empty and send none, the first cookie makes it and is sent back.
func TestCookieJarMadeWithFirstCookie(t *testing.T) {
	t.Parallel()
	c := newCookies()
	u, err := url.Parse("http://127.0.0.1/a")
	if err != nil {
		t.Fatal(err)
	}
	setCookies(t, c, u)
	if c.jar != nil || c.byID != nil || c.sites != nil || sentCookies(c, u) != "" {
		t.Fatalf("after an answer without cookies: jar %v, books %v %v, sent %q; want none", c.jar, c.byID, c.sites, sentCookies(c, u))
	}
	setCookies(t, c, u, "s")
	if got := sentCookies(c, u); c.jar == nil || got != "s=v-s" || c.count() != 1 {
		t.Errorf("after an answer setting s: jar %v, sent %q, %d kept; want a jar, s=v-s, 1", c.jar, got, c.count())
	}
}

// holdSite starts a loopback site that accepts every connection and never answers, closed when
// the test ends (or before, by the test), and the target of its root.
func holdSite(tb testing.TB) (*holdsite.Site, urls.Target) {
	site, err := holdsite.Start("127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(site.Close)
	tg, err := urls.ParseLine("http://"+site.Addrs()[0]+"/", urls.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return site, tg
}
