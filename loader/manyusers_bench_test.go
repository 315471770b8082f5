package loader

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/internal/pagesite"
	"github.com/webload/webload/urls"
)

// BenchmarkManyUsersMemory is the memory each user holds while it waits for an answer, the
// figure that decides how many users a machine can run: 1 000 users against a server that
// never answers, the heap and stacks in use once every user's request is in flight, less what
// was in use before. "defaults" is a run's defaults (DefaultConfig: pages parsed, cookies,
// redirects; the 4 KiB header buffer 10 000 users get), on the goroutine engine; "bare" the
// closed model and "bare open" the open model (1 000 requests due at once) with --bare's
// settings, which on Linux take the event loop. It measures one such run whatever b.N is;
// bytes/user is the figure (heap-bytes/user and stack-bytes/user its parts), not ns/op. With
// -manyusers.heap FILE it writes the heap profile taken while the users wait; run it with
// -memprofilerate 1 to see every allocation, which deepens the stacks it measures.
func BenchmarkManyUsersMemory(b *testing.B) {
	const users = 1000
	bare := func(c *Config) {
		c.Parser, c.Cookies, c.FollowRedirects, c.AcceptEncoding = false, false, false, ""
	}
	for _, bc := range []struct {
		name string
		cfg  func(*Config)
	}{
		{"defaults", func(*Config) {}},
		{"open", func(c *Config) { c.Rate, c.MaxUsers, c.Reps = 1e6, users, users }},
		{"bare", bare},
		{"bare open", func(c *Config) {
			bare(c)
			c.Rate, c.MaxUsers, c.Reps = 1e6, users, users
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			site, tg := holdSite(b)
			cfg := DefaultConfig()
			cfg.Users, cfg.MaxUsers, cfg.Timeout, cfg.UserAgent, cfg.HeaderBuffer = users, 0, time.Minute, "bench", 4<<10
			bc.cfg(&cfg)
			l, err := New(cfg, []urls.Target{tg})
			if err != nil {
				b.Fatal(err)
			}
			heap0, stack0 := inUse()
			cancel, done := runUntil(b, l, func() (bool, string) {
				return site.Held() >= users, fmt.Sprintf("%d of %d users' connections held", site.Held(), users)
			})
			time.Sleep(100 * time.Millisecond) // the last requests written after their connections
			heap1, stack1 := inUse()
			if *heapProfile != "" {
				writeHeapProfile(b, *heapProfile)
			}
			cancel()
			site.Close() // the held requests fail at once, and the run ends
			<-done
			b.ReportMetric(float64(heap1+stack1-heap0-stack0)/users, "bytes/user")
			b.ReportMetric(float64(heap1-heap0)/users, "heap-bytes/user")
			b.ReportMetric(float64(stack1-stack0)/users, "stack-bytes/user")
		})
	}
}

// runUntil starts l's run and returns once reached says so, failing b, which it names what
// was reached so far, after 30 s. cancel stops the run, which has ended when done closes.
func runUntil(b *testing.B, l *Loader, reached func() (bool, string)) (cancel func(), done <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		l.Run(ctx, &discard{})
	}()
	for i := 0; i < 3000; i++ {
		if ok, _ := reached(); ok {
			return cancel, ended
		}
		time.Sleep(10 * time.Millisecond)
	}
	ok, so := reached()
	if !ok {
		cancel()
		b.Fatalf("%s after 30 s", so)
	}
	return cancel, ended
}

// heapProfile names a file for the heap profile taken while the users wait, to see where
// their bytes go: go tool pprof -sample_index=inuse_space FILE.
var heapProfile = flag.String("manyusers.heap", "", "BenchmarkManyUsersMemory writes the heap profile taken while the users wait to this file")

// inUse is the heap and the goroutine stacks in use after a collection.
func inUse() (heap, stack int64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse), int64(m.StackInuse)
}

func writeHeapProfile(b *testing.B, name string) {
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPageUsersMemory is the memory each user holds between pages on a site that
// compresses them (see decoders): users each read one of internal/pagesite's pages, plain,
// gzip or br, and then wait for their next answer, which never comes; the heap and stacks in
// use then, less what was in use before, a user, once two collections have emptied the pools
// of what users lent back. The site runs in the process, so each case counts its connections'
// memory too (alike in every case): set the compressed cases beside "plain". It measures one
// such run whatever b.N is; bytes/user is the figure.
func BenchmarkPageUsersMemory(b *testing.B) {
	const users = 300
	for _, encoding := range append([]string{"plain"}, pagesite.Encodings...) {
		b.Run(encoding, func(b *testing.B) {
			pages := pagesite.Handler()
			if encoding != "plain" {
				var err error
				if pages, err = pagesite.CompressedHandler(encoding); err != nil {
					b.Fatal(err)
				}
			}
			// The first request of each user's number gets a page; every later one waits until
			// the end. A user that got more than one page (another's came late) asks on, and
			// the run is long enough for every user to be waiting.
			var asked, waiting atomic.Int64
			hold := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if asked.Add(1) > users {
					waiting.Add(1)
					select {
					case <-hold:
					case <-r.Context().Done():
					}
					return
				}
				pages.ServeHTTP(w, r)
			}))
			release := sync.OnceFunc(func() { close(hold) })
			b.Cleanup(srv.Close)
			b.Cleanup(release) // before the site closes, which waits for its handlers
			tg, err := urls.ParseLine(srv.URL+"/p/1", urls.Options{})
			if err != nil {
				b.Fatal(err)
			}
			cfg := DefaultConfig()
			cfg.Users, cfg.Reps, cfg.Timeout, cfg.UserAgent = users, 100, time.Minute, "bench"
			l, err := New(cfg, []urls.Target{tg})
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			heap0, stack0 := inUse()
			cancel, done := runUntil(b, l, func() (bool, string) {
				return waiting.Load() >= users, fmt.Sprintf("%d of %d users waiting", waiting.Load(), users)
			})
			runtime.GC() // a pool keeps what it held for one more collection
			heap1, stack1 := inUse()
			cancel()
			release()
			srv.CloseClientConnections()
			<-done
			b.ReportMetric(float64(heap1+stack1-heap0-stack0)/users, "bytes/user")
		})
	}
}
