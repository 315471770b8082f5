package live

import (
	"bytes"
	"encoding/csv"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

func TestRequestCSVRows(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{
		{Method: "GET", URL: "http://127.0.0.1:8080/a"},
		{Method: "POST", URL: "http://bob:secret@127.0.0.1:8080/login"},
	}
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	ms := time.Millisecond
	tests := []struct {
		name string
		res  loader.Result
		want []string // nil: no row
	}{
		{"a response", loader.Result{Intended: 1500 * ms, Start: 1500 * ms, Latency: 12345 * time.Microsecond,
			Status: 200, BodyBytes: 100, Decoded: 300, User: 7},
			[]string{"2026-12-01T09:00:01.500Z", "1.500000", "GET", "http://127.0.0.1:8080/a", "url", "200",
				"100", "300", "12.345", "12.345", "", "7"}},
		{"a late send counts from the intended start", loader.Result{Intended: 0, Start: 2 * ms, Latency: ms, Status: 503},
			[]string{"2026-12-01T09:00:00.000Z", "0.000000", "GET", "http://127.0.0.1:8080/a", "url", "503",
				"0", "0", "3.000", "1.000", "", "0"}},
		{"no response", loader.Result{Intended: 2 * time.Second, Start: 2 * time.Second, Latency: ms, Err: loader.ErrRefused, User: 1},
			[]string{"2026-12-01T09:00:02.000Z", "2.000000", "GET", "http://127.0.0.1:8080/a", "url", "",
				"0", "0", "1.000", "1.000", "refused", "1"}},
		{"a resource is named by its page", loader.Result{Target: 1, Kind: loader.KindResource, Status: 200, BodyBytes: 5, Decoded: 5},
			[]string{"2026-12-01T09:00:00.000Z", "0.000000", "GET", "http://bob:xxxxx@127.0.0.1:8080/login", "resource", "200",
				"5", "5", "0.000", "0.000", "", "0"}},
		{"a login step", loader.Result{Target: 1, Kind: loader.KindLogin, Status: 302},
			[]string{"2026-12-01T09:00:00.000Z", "0.000000", "POST", "http://bob:xxxxx@127.0.0.1:8080/login", "login", "302",
				"0", "0", "0.000", "0.000", "", "0"}},
		{"a page visit is no request", loader.Result{Kind: loader.KindPage, Status: 200}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			var next collectSink
			if err := WriteRequestCSVHeader(&b); err != nil {
				t.Fatal(err)
			}
			c := NewRequestCSV(&b, targets, start, &next)
			c.Record([]loader.Result{tt.res})
			if err := c.Err(); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&b).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rows[0], requestCSVColumns[:]) {
				t.Errorf("header %q", rows[0])
			}
			switch {
			case tt.want == nil && len(rows) != 1:
				t.Errorf("rows %q, want none", rows[1:])
			case tt.want != nil && (len(rows) != 2 || !slices.Equal(rows[1], tt.want)):
				t.Errorf("rows %q,\nwant %q", rows[1:], tt.want)
			}
			if next.n != 1 {
				t.Errorf("passed on %d results, want 1", next.n)
			}
		})
	}
}

// brokenWriter fails every write, as a full disk does.
type brokenWriter struct{}

var errDiskFull = errors.New("disk full")

func (brokenWriter) Write([]byte) (int, error) { return 0, errDiskFull }

func TestRequestCSVWriteErrorKeepsResultsFlowing(t *testing.T) {
	t.Parallel()
	var next collectSink
	c := NewRequestCSV(brokenWriter{}, []urls.Target{{Method: "GET", URL: "http://127.0.0.1/"}}, time.Now(), &next)
	c.Record(make([]loader.Result, 3))
	c.Record(make([]loader.Result, 2))
	if err := c.Err(); !errors.Is(err, errDiskFull) {
		t.Errorf("err = %v, want the disk's", err)
	}
	if next.n != 5 {
		t.Errorf("passed on %d results, want 5", next.n)
	}
}

// BenchmarkRequestCSV is --csv's cost per request: formatting a row and its share of a flush.
func BenchmarkRequestCSV(b *testing.B) {
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1:8080/some/page?x=1"}}
	var next collectSink
	var sink bytes.Buffer
	c := NewRequestCSV(&sink, targets, time.Now(), &next)
	batch := make([]loader.Result, 256)
	for i := range batch {
		batch[i] = loader.Result{Status: 200, Intended: time.Duration(i) * time.Millisecond,
			Latency: time.Duration(1000+i*37) * time.Microsecond, BodyBytes: 4096, Decoded: 4096}
	}
	b.ReportAllocs()
	for b.Loop() {
		sink.Reset()
		c.Record(batch)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(batch)), "ns/request")
}
