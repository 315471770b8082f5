package loader

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"

	"github.com/webload/webload/urls"
)

// discard is a sink that only counts, so the loop's own cost shows.
type discard struct{ n int }

func (d *discard) Record(batch []Result) { d.n += len(batch) }

// BenchmarkPrepare is the per-request preparation: the URL's prepared request copied into the
// user's own, with the request's deadline.
func BenchmarkPrepare(b *testing.B) {
	l := benchLoader(b)
	req := fasthttp.AcquireRequest()
	b.ReportAllocs()
	for b.Loop() {
		l.prepare(0, req)
		req.SetTimeout(l.cfg.Timeout)
	}
}

// BenchmarkUserLoop is one closed-model user's whole loop (pick, prepare, send, read, batch,
// hand over) against a fasthttp server on an in-memory listener, so no socket cost hides it.
func BenchmarkUserLoop(b *testing.B) {
	b.Run("plain", func(b *testing.B) { benchUserLoop(b, Config{}) })
	// The CLI's defaults: pages parsed, cookies kept, redirects followed; the answers are not
	// HTML and set no cookies, so this is the cost of being ready for them.
	b.Run("browser", func(b *testing.B) { benchUserLoop(b, Config{Parser: true, Cookies: true, FollowRedirects: true}) })
}

func benchUserLoop(b *testing.B, cfg Config) {
	body := make([]byte, 100)
	paths := make([]string, 50)
	for i := range paths {
		paths[i] = "/p/" + string(rune('a'+i%26))
	}
	sink, out, _ := runInMemory(b, cfg, func(ctx *fasthttp.RequestCtx) { ctx.SetBody(body) }, paths)
	want := b.N
	if cfg.browser() {
		want *= 2 // a page result follows each request
	}
	if sink.n != want || out.Stop != Completed {
		b.Fatalf("%d results of %d, stop %v", sink.n, b.N, out.Stop)
	}
}

// runInMemory runs b.N visits of one user of cfg over paths, served by handle on an in-memory
// listener, and times only the run.
func runInMemory(b *testing.B, cfg Config, handle fasthttp.RequestHandler, paths []string) (*discard, Outcome, *Loader) {
	ln := fasthttputil.NewInmemoryListener()
	srv := &fasthttp.Server{Handler: handle}
	go srv.Serve(ln) //nolint:errcheck // ends when the listener closes
	b.Cleanup(func() { _ = srv.Shutdown() })

	targets := make([]urls.Target, len(paths))
	for i, p := range paths {
		tg, err := urls.ParseLine("http://127.0.0.1:1"+p, urls.Options{})
		if err != nil {
			b.Fatal(err)
		}
		targets[i] = tg
	}
	cfg.Users, cfg.Reps, cfg.Timeout, cfg.UserAgent = 1, b.N, 5*time.Second, "bench"
	l, err := New(cfg, targets)
	if err != nil {
		b.Fatal(err)
	}
	l.client.(*fasthttp.Client).DialTimeout = func(string, time.Duration) (net.Conn, error) { return ln.Dial() }
	var sink discard
	b.ReportAllocs()
	b.ResetTimer()
	out := l.Run(context.Background(), &sink)
	b.StopTimer()
	return &sink, out, l
}
