package stats

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// manyURLs records hits results on each of n URLs, as a long URL list run once does.
func manyURLs(n, hits int) *Recorder {
	targets := make([]urls.Target, n)
	for i := range targets {
		targets[i] = urls.Target{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1/p/%d", i)}
	}
	rec := NewRecorder(targets, Options{})
	batch := make([]loader.Result, 0, 256)
	for h := range hits {
		for i := range n {
			batch = append(batch, loader.Result{Target: int32(i), User: int32(i % 10), Status: 200,
				Latency: time.Duration(100+i%900+h*37) * time.Microsecond, BodyBytes: 3})
			if len(batch) == cap(batch) {
				rec.Record(batch)
				batch = batch[:0]
			}
		}
	}
	rec.Record(batch)
	return rec
}

// A long URL list's report keeps every URL's figures exact: each row's hits, bytes and
// histogram count are what was recorded.
func TestLongURLListReportIsExact(t *testing.T) {
	testtier.Maths(t)
	testtier.Slow(t)
	t.Parallel()
	const n, hits = 200_000, 2
	rep := manyURLs(n, hits).Report(loader.Outcome{Elapsed: time.Second, Users: 10}, RunInfo{}, "")
	if len(rep.URLs) != n || rep.Transactions != n*hits {
		t.Fatalf("%d URLs and %d transactions, want %d and %d", len(rep.URLs), rep.Transactions, n, n*hits)
	}
	for i, u := range rep.URLs {
		if u.Hits != hits || u.Bytes != 3*hits || u.StatusCodes["200"] != hits {
			t.Fatalf("URL %d: %d hits, %d bytes, %v; want %d hits of 3 bytes", i, u.Hits, u.Bytes, u.StatusCodes, hits)
		}
		if i%997 != 0 {
			continue // decoding every histogram would only slow the test down
		}
		h, err := hdr.DecodePacked([]byte(u.Histogram))
		if err != nil || h.TotalCount() != hits {
			t.Fatalf("URL %d histogram: %v, count %v, want %d", i, err, h, hits)
		}
	}
}

// The report's cost per URL is bounded: a new BestCompression zlib writer per histogram
// allocated about 800 KB per URL, which made a 200 000-URL report take minutes and gigabytes.
func TestReportAllocatesLittlePerURL(t *testing.T) {
	const n = 2000
	rec := manyURLs(n, 1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 10}, RunInfo{}, "")
	runtime.ReadMemStats(&after)
	perURL := (after.TotalAlloc - before.TotalAlloc) / n
	if perURL > 16<<10 {
		t.Errorf("the report allocated %d bytes per URL, want at most 16 KiB", perURL)
	}
	if len(rep.URLs) != n {
		t.Fatalf("%d URLs, want %d", len(rep.URLs), n)
	}
}

// A URL that was never visited costs the recorder little: its page record is made at its first
// page visit.
func TestRecorderMemoryPerURL(t *testing.T) {
	const n = 100_000
	targets := make([]urls.Target, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rec := NewRecorder(targets, Options{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	perURL := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	runtime.KeepAlive(rec)
	if perURL > 96 {
		t.Errorf("the recorder holds %d bytes per URL, want at most 96", perURL)
	}
}
