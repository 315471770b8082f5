package stats

import (
	"testing"
	"time"

	"github.com/webload/webload/internal/hdrcodec"
	"github.com/webload/webload/internal/resulttest"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// BenchmarkRecord measures the collector's cost per result: the overall and per-URL histograms,
// counters and per-user counts.
func BenchmarkRecord(b *testing.B) {
	targets := make([]urls.Target, 50)
	for i := range targets {
		targets[i] = urls.Target{Method: "GET", URL: "http://127.0.0.1/p"}
	}
	batch := make([]loader.Result, 256)
	for i := range batch {
		batch[i] = loader.Result{Target: int32(i % 50), User: int32(i % 20), Status: 200,
			Latency: time.Duration(1000+i*37) * time.Microsecond, BodyBytes: 4096}
	}
	benchRecord(b, targets, batch)
}

// benchRecord records batch over and over into a recorder for targets.
func benchRecord(b *testing.B, targets []urls.Target, batch []loader.Result) {
	rec := NewRecorder(targets, Options{})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec.Record(batch)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(batch)), "ns/result")
}

// BenchmarkURLHistogram is the per-URL share of recording: one value into a URL's sparse
// histogram, over a spread of latencies so the packed buckets are really exercised.
func BenchmarkURLHistogram(b *testing.B) {
	h := hdrcodec.NewSparseHistogram()
	values := make([]int64, 1024)
	for i := range values {
		values[i] = int64(200 + i*i*13) // 0.2 ms to about 14 s, in µs
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_ = h.RecordValue(values[i&1023])
		i++
	}
}

// BenchmarkRecordSessions is BenchmarkRecord for a run with login steps and #@extract rules:
// what counting logins and extractions adds per result.
func BenchmarkRecordSessions(b *testing.B) {
	targets := resulttest.SessionTargets(b)
	batch := make([]loader.Result, 256)
	for i := range batch {
		ti := int32(i % len(targets))
		kind := loader.KindURL
		if ti >= 3 {
			kind = loader.KindLogin
		}
		batch[i] = loader.Result{Target: ti, Kind: kind, User: int32(i % 20), Status: 200,
			Latency: time.Duration(1000+i*37) * time.Microsecond, BodyBytes: 4096}
	}
	benchRecord(b, targets, batch)
}
