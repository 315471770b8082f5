package capacity

import (
	"testing"
	"time"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// BenchmarkWatch measures what the live check adds to each result a step records: the copy
// moved past the settle time and the window's recording, at 10 000 req/s: a window is judged
// every 10 000 results (a window's report costs some milliseconds, once a second).
func BenchmarkWatch(b *testing.B) {
	targets := []urls.Target{{URL: "http://127.0.0.1/"}}
	gates, err := gate.ParseGate("p95<100ms")
	if err != nil {
		b.Fatal(err)
	}
	w := &Watch{next: stats.NewRecorder(targets, stats.Options{}), settle: time.Second, window: time.Second,
		bad: relaxed([]gate.Gate{gates}), targets: targets, stop: func() {}}
	batch := make([]loader.Result, 100)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for k := range batch {
			at := time.Duration(i*len(batch)+k) * 100 * time.Microsecond
			batch[k] = loader.Result{Status: 200, Intended: at, Start: at, Latency: 20 * time.Millisecond}
		}
		w.Record(batch)
	}
}
