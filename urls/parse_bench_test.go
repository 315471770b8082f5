package urls

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
)

// longList is a URL file of n distinct GET lines, as an access-log import makes.
func longList(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "http://127.0.0.1:8080/p/%d\n", i)
	}
	return b.Bytes()
}

// BenchmarkParseLongList parses a 100 000-line list; bytes/line is what the parsed list keeps.
func BenchmarkParseLongList(b *testing.B) {
	const n = 100_000
	text := longList(n)
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(text), "urls.txt", "", Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/line")
}

// A parsed line keeps little: its target and strings, not the scanner's or builder's garbage.
func TestParsedLineSize(t *testing.T) {
	const n = 50_000
	text := longList(n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	targets, err := Parse(bytes.NewReader(text), "urls.txt", "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	perLine := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	runtime.KeepAlive(targets)
	t.Logf("%d bytes per parsed line", perLine)
	if perLine > 256 {
		t.Errorf("a parsed line keeps %d bytes, want at most 256", perLine)
	}
}
