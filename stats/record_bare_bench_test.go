package stats

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// BenchmarkRecordBareVisit is the statistics' share of the bare path: one URL visited over and
// over, each visit a request and its page (no resources), with response times spread over a
// millisecond as a loopback server's are, so the histograms hold hundreds of buckets.
func BenchmarkRecordBareVisit(b *testing.B) {
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/small"}}
	rng := rand.New(rand.NewPCG(1, 2))
	batch := make([]loader.Result, 512)
	at := time.Duration(0)
	for i := 0; i < len(batch); i += 2 {
		lat := time.Duration(200+rng.IntN(1000)) * time.Microsecond
		at += 25 * time.Microsecond
		req := loader.Result{Start: at, Intended: at, User: int32(i / 2 % 20), Status: 200,
			Latency: lat, BodyBytes: 100, Decoded: 100}
		page := req
		page.Kind = loader.KindPage
		batch[i], batch[i+1] = req, page
	}
	rec := NewRecorder(targets, Options{})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec.Record(batch)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(batch)/2), "ns/visit")
}
