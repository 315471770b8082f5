package replay

import (
	"fmt"
	"testing"
)

// BenchmarkStream reads and schedules a log's lines: the cost of each replayed request before
// it is sent.
func BenchmarkStream(b *testing.B) {
	dir := b.TempDir()
	var lines []any
	for i := range 10_000 {
		lines = append(lines, line{sec: i / 100, client: fmt.Sprintf("10.0.%d.%d", i%20, i%250), path: fmt.Sprintf("/p/%d?q=%d", i%1000, i%7)})
	}
	log := writeLog(b, dir, "a.log", false, lines...)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		s, err := Open(opts(log))
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, ok := s.Next(); !ok {
				break
			}
			n++
		}
		s.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/line")
}
