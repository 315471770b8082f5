package remotewrite

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

type discard struct{}

func (discard) Record([]loader.Result) {}

// benchLive is a Live over n URLs that has seen a batch of each, and a batch of results.
func benchLive(n int) (*Live, []loader.Result) {
	targets := make([]urls.Target, n)
	for i := range targets {
		targets[i] = urls.Target{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1/p/%d", i)}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	batch := make([]loader.Result, 256)
	for i := range batch {
		batch[i] = loader.Result{Target: int32(rng.IntN(n)), Status: 200,
			Latency: time.Duration(rng.ExpFloat64() * float64(20*time.Millisecond))}
	}
	l := NewLive(discard{}, targets)
	for range 40 {
		l.Record(batch)
	}
	return l, batch
}

// BenchmarkLiveRecord is the cost on the results' way to the statistics, per batch of 256.
func BenchmarkLiveRecord(b *testing.B) {
	l, batch := benchLive(10)
	b.ReportAllocs()
	for b.Loop() {
		l.Record(batch)
	}
}

// BenchmarkLiveSeries is the cost of one live send's conversion (not its network), for 100 URLs.
func BenchmarkLiveSeries(b *testing.B) {
	l, _ := benchLive(100)
	base := RunLabels("nightly", 0)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		_ = Body(l.Series(base, now))
	}
}
