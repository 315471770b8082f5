package stats

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// sizeBatch answers URL 0 with bodies of 1 000 to 1 099 bytes and URL 1 with 404s of 50 bytes;
// every seventh request of URL 0 gets no response, which has no size.
func sizeBatch(seed int) []loader.Result {
	var out []loader.Result
	for i := range 100 {
		r := loader.Result{Target: int32(i % 2), Status: 200, Latency: time.Millisecond,
			Decoded: int64(1000 + (i*seed*31)%100), BodyBytes: 300}
		switch {
		case i%2 == 1:
			r.Status, r.Decoded = 404, 50
		case i%7 == 0:
			r.Status, r.Err, r.Decoded = 0, loader.ErrTimeout, 0
		}
		out = append(out, r)
	}
	return out
}

// A URL's size moments are recorded from the decoded bodies of its responses, and add up
// exactly: a --repeat series and a merge of shards have the moments of one recording of all.
func TestURLSizeMomentsAddExactly(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}, {Method: "GET", URL: "http://127.0.0.1/b"}}
	all := NewRecorder(targets, Options{})
	var runs, shards []Report
	for seed := 1; seed <= 3; seed++ {
		rec := NewRecorder(targets, Options{})
		rec.Record(sizeBatch(seed))
		all.Record(sizeBatch(seed))
		rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1}, RunInfo{Test: "t"}, "x")
		runs = append(runs, rep)
		rep.Run.Shard = &ShardInfo{Index: seed - 1, Count: 3}
		shards = append(shards, rep)
	}
	want := all.Report(loader.Outcome{Elapsed: 3 * time.Second, Users: 1}, RunInfo{}, "x")
	b := want.URLs[1].Size
	if b == nil || *b != (SizeStats{Count: 150, Sum: 7500, SumSquares: 375000, Min: 50, Max: 50}) {
		t.Fatalf("404 URL's sizes %+v", b)
	}
	if a := want.URLs[0].Size; a == nil || a.Count != 3*(50-8) || a.Min < 1000 || a.Max > 1099 {
		t.Fatalf("200 URL's sizes %+v: want 42 responses per run (8 of 50 timed out), 1000-1099 bytes", a)
	}
	combined, err := Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]Report{"combined": combined, "merged": merged} {
		for i := range want.URLs {
			if !reflect.DeepEqual(got.URLs[i].Size, want.URLs[i].Size) {
				t.Errorf("%s URL %d: sizes %+v, want %+v", name, i, got.URLs[i].Size, want.URLs[i].Size)
			}
		}
	}
	// Saved and read back, the moments are the same.
	data, err := json.Marshal(&combined)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back.URLs[0].Size, want.URLs[0].Size) {
		t.Errorf("read back: %+v (%v)", back.URLs[0].Size, err)
	}
}

func TestSizeStatsMeanVariance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		sizes      []int64
		mean, vari float64
	}{
		{"none", nil, 0, 0},
		{"one", []int64{10}, 10, 0},
		{"same", []int64{7, 7, 7}, 7, 0},
		{"spread", []int64{2, 4, 4, 4, 5, 5, 7, 9}, 5, 32.0 / 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var s SizeStats
			for _, n := range tc.sizes {
				s.Record(n)
			}
			if s.Mean() != tc.mean || s.Variance() != tc.vari {
				t.Errorf("mean %g, variance %g; want %g, %g", s.Mean(), s.Variance(), tc.mean, tc.vari)
			}
		})
	}
}
