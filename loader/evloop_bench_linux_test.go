//go:build linux

package loader

import (
	"context"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// BenchmarkRunClient is a whole closed run of 20 users against a server in another process, on
// each engine: about b.N requests, and the client's CPU for each (cpu-ns/req), user and system,
// which is what a load generator takes from a server on the same machine.
func BenchmarkRunClient(b *testing.B) {
	base := h2cChildServer(b)
	for _, e := range []struct {
		name   string
		noLoop bool
	}{{"loop", false}, {"goroutines", true}} {
		b.Run(e.name, func(b *testing.B) {
			const users = 20
			tg, err := urls.ParseLine(base+"/small", urls.Options{})
			if err != nil {
				b.Fatal(err)
			}
			cfg := Config{Users: users, Reps: (b.N + users - 1) / users, Timeout: 5 * time.Second, UserAgent: "bench",
				noLoop: e.noLoop}
			l, err := New(cfg, []urls.Target{tg})
			if err != nil {
				b.Fatal(err)
			}
			var d discard
			b.ReportAllocs()
			cpu := cpuTime(b)
			b.ResetTimer()
			out := l.Run(context.Background(), &d)
			b.StopTimer()
			if d.n != users*cfg.Reps || out.Stop != Completed {
				b.Fatalf("%d results of %d, stop %v", d.n, users*cfg.Reps, out.Stop)
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(d.n), "cpu-ns/req")
		})
	}
}
