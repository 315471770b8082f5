package urls

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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

// A long URL file is parsed into a list allocated once: grown by appending, the copies left
// behind came to four times the list (about 1 000 bytes a line), which doubled the memory a
// 1 000 000-line list took to start.
func TestParseFileAllocatesItsListOnce(t *testing.T) {
	const n = 50_000
	path := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(path, longList(n), 0o600); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	targets, err := ParseFile(path, Options{})
	runtime.ReadMemStats(&after)
	if err != nil || len(targets) != n || cap(targets) != n {
		t.Fatalf("%d targets, room for %d, error %v; want %d", len(targets), cap(targets), err, n)
	}
	if perLine := (after.TotalAlloc - before.TotalAlloc) / n; perLine > 300 {
		t.Errorf("parsing a %d-line file allocated %d bytes a line, want at most 300 (its target and strings)", n, perLine)
	}
}
