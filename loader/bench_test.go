package loader

import (
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/content"
	"github.com/webload/webload/urls"
)

// fastServer is a fasthttp server on loopback answering every request with a 100-byte body:
// the cheapest server there is, so the client's own cost shows.
func fastServer(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	body := make([]byte, 100)
	srv := &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) { ctx.SetBody(body) }}
	go srv.Serve(ln)
	tb.Cleanup(func() { _ = srv.Shutdown() })
	return "http://" + ln.Addr().String()
}

// h2cServer is net/http's server on loopback speaking h2c only, answering every request with
// fastServer's 100-byte body.
func h2cServer(tb testing.TB) string {
	tb.Helper()
	body := make([]byte, 100)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	tb.Cleanup(srv.Close)
	return srv.URL
}

func benchLoader(tb testing.TB) *Loader {
	tb.Helper()
	return benchLoaderFor(tb, fastServer(tb), false)
}

// benchLoaderFor is a loader of one user for base's /small, over HTTP/2 when http2 is set.
func benchLoaderFor(tb testing.TB, base string, http2 bool) *Loader {
	tb.Helper()
	tg, err := urls.ParseLine(base+"/small", urls.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	l, err := New(Config{Users: 1, Reps: 1, Timeout: 5 * time.Second, UserAgent: "bench", HTTP2: http2}, []urls.Target{tg})
	if err != nil {
		tb.Fatal(err)
	}
	l.start = time.Now()
	return l
}

// BenchmarkSend is one user's whole request path: copy the prepared request, send it, read
// and count the body, describe it as a Result.
func BenchmarkSend(b *testing.B) {
	l := benchLoader(b)
	x := l.newExchange()
	b.ReportAllocs()
	for b.Loop() {
		if res, _ := l.send(x, 0, 0); res.Status != 200 {
			b.Fatalf("result %+v", res)
		}
	}
}

// BenchmarkSendHTTP2 is BenchmarkSend over HTTP/2 (Config.HTTP2), h2c on loopback: what the
// HTTP/2 client costs. Its server, net/http's, costs more than BenchmarkSend's fasthttp server
// and runs in the same process, so BenchmarkSendHTTP2Client tells the client's own share.
func BenchmarkSendHTTP2(b *testing.B) {
	l := benchLoaderFor(b, h2cServer(b), true)
	x := l.newExchange()
	b.ReportAllocs()
	for b.Loop() {
		if res, _ := l.send(x, 0, 0); res.Status != 200 || res.Err != ErrNone {
			b.Fatalf("result %+v", res)
		}
	}
}

// BenchmarkPick is the cost of choosing the next URL, plain and weighted.
func BenchmarkPick(b *testing.B) {
	targets := make([]urls.Target, 50)
	for i := range targets {
		targets[i].Weight = float64(1 + i*i)
	}
	m := newMix(targets, 1000)
	pickers := map[string]Picker{
		"sequential": &sequential{n: 50},
		"walk":       &walker{walk: m.walk},
		"weighted":   &weighted{rng: newRand(1), a: &m.alias},
	}
	for name, p := range pickers {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = p.Next()
			}
		})
	}
}

// The request path must stay nearly allocation-free: what it allocates per request is pinned
// here, so a change that adds garbage to every request fails.
func TestSendAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	l := benchLoader(t)
	x := l.newExchange()
	l.send(x, 0, 0) // warm the pools and the connection
	allocs := testing.AllocsPerRun(200, func() { l.send(x, 0, 0) })
	const pinned = 4
	t.Logf("%.1f allocations per request", allocs)
	if allocs > pinned {
		t.Errorf("%.1f allocations per request, pinned at %d", allocs, pinned)
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }

// BenchmarkSampleContent is what booking each answer with its URL's learner costs when 200
// users share one URL, as a run against one small file does: a lock per answer, contended.
func BenchmarkSampleContent(b *testing.B) {
	l := benchLoader(b)
	x := l.newExchange()
	l.send(x, 0, 0) // an answer whose status and type the learner books
	for range 2 * content.FirstSamples {
		l.sampleContent(x, 0) // past the first answers, which are all fingerprinted
	}
	b.ReportAllocs()
	b.SetParallelism(100)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.sampleContent(x, 0)
		}
	})
}

// BenchmarkSendPerUser is BenchmarkSend for a line filled per user: its URL and its form body
// take two values from the user's data row at each request.
func BenchmarkSendPerUser(b *testing.B) {
	base := fastServer(b)
	data := table{names: []string{"user", "pass"}, rows: [][]string{{"user 1", "p&ss+1"}}}
	perUser := func(name string) bool { return name == "user" || name == "pass" }
	tg, err := urls.ParseLine(base+"/login?u=$(user) POST name=$(user)&password=$(pass)", urls.Options{PerUser: perUser})
	if err != nil {
		b.Fatal(err)
	}
	l, err := New(Config{Users: 1, Reps: 1, Timeout: 5 * time.Second, UserAgent: "bench", Data: data,
		ContentType: "application/x-www-form-urlencoded"}, []urls.Target{tg})
	if err != nil {
		b.Fatal(err)
	}
	l.start = time.Now()
	x := l.newExchange()
	x.sess = l.newSession(0, newRand(1))
	b.ReportAllocs()
	for b.Loop() {
		if res, _ := l.send(x, 0, 0); res.Status != 200 || res.Err != ErrNone {
			b.Fatalf("result %+v", res)
		}
	}
}
