package remotewrite

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/webload/webload/internal/hdrcodec"
)

// The bucket of a value is Prometheus's: upper bounds included, 256 buckets per power of two.
func TestBucketIndexBoundaries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		v    float64
		want int32
	}{
		{"one second is bucket 0's top", 1, 0},
		{"just above one second", math.Nextafter(1, 2), 1},
		{"two seconds is an octave up", 2, bucketsPerOctave},
		{"half a second is an octave down", 0.5, -bucketsPerOctave},
		{"just below half a second", math.Nextafter(0.5, 0), -bucketsPerOctave},
		{"just above half a second", math.Nextafter(0.5, 1), -bucketsPerOctave + 1},
		{"bucket 1's top", math.Exp2(1.0 / bucketsPerOctave), 1},
		{"a millisecond", 0.001, int32(math.Ceil(math.Log2(0.001) * bucketsPerOctave))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := BucketIndex(tc.v); got != tc.want {
				t.Errorf("BucketIndex(%v) = %d, want %d", tc.v, got, tc.want)
			}
		})
	}
}

// Every bucket holds the values between its bounds, and is 2^(1/256) times as high as low.
func TestBucketBoundsHoldTheirValues(t *testing.T) {
	t.Parallel()
	growth := math.Exp2(1.0 / bucketsPerOctave)
	for i := int32(-6000); i <= 3100; i += 7 { // a microsecond to an hour
		lo, hi := BucketBounds(i)
		if r := hi / lo; math.Abs(r-growth) > 1e-12 {
			t.Fatalf("bucket %d: (%v, %v] grows %v, want %v", i, lo, hi, r, growth)
		}
		if BucketIndex(hi) != i || BucketIndex(math.Nextafter(hi, math.Inf(1))) != i+1 ||
			BucketIndex(math.Nextafter(lo, math.Inf(1))) != i || BucketIndex(lo) != i-1 {
			t.Fatalf("bucket %d: (%v, %v] does not hold its bounds' neighbours", i, lo, hi)
		}
	}
}

// HDRHighest is the library's own top of a bucket, for webload's geometry.
func TestHDRHighestMatchesTheLibrary(t *testing.T) {
	t.Parallel()
	h := hdrcodec.NewHistogram()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		_ = h.RecordValue(1 + rng.Int64N(hdrcodec.HistHighest))
	}
	for _, v := range []int64{1, 2047, 2048, 2049, 4095, 4096, hdrcodec.HistHighest} {
		_ = h.RecordValue(v)
	}
	for _, bar := range h.Distribution() {
		if bar.Count == 0 {
			continue
		}
		for _, v := range []int64{bar.From, bar.To, (bar.From + bar.To) / 2} {
			if got := HDRHighest(v); got != bar.To {
				t.Fatalf("HDRHighest(%d) = %d, want the library's %d (bucket %d..%d)", v, got, bar.To, bar.From, bar.To)
			}
		}
	}
}

// A conversion keeps every count: the total, and each HDR bucket's in the native bucket of its
// top value.
func TestFromHDRKeepsEveryCount(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name   string
		values []int64 // microseconds
	}{
		{"empty", nil},
		{"one value", []int64{1500}},
		{"lowest and highest", []int64{1, 1, hdrcodec.HistHighest}},
		{"one HDR bucket per native bucket", []int64{100, 101, 102, 100_000, 100_010}},
		{"log-normal", func() []int64 {
			v := make([]int64, 20000)
			for i := range v {
				v[i] = max(1, min(hdrcodec.HistHighest, int64(math.Exp(8+1.5*rng.NormFloat64()))))
			}
			return v
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := hdrcodec.NewSparseHistogram()
			want := map[int32]uint64{}
			for _, v := range tc.values {
				if err := src.RecordValue(v); err != nil {
					t.Fatal(err)
				}
				want[BucketIndex(float64(HDRHighest(v))/1e6)]++
			}
			h := FromHDR(src.ForEachBucket, 12.5)
			if h.Count != uint64(len(tc.values)) || h.ZeroCount != 0 || h.Sum != 12.5 {
				t.Errorf("count %d, zero count %d, sum %v; want %d, 0, 12.5", h.Count, h.ZeroCount, h.Sum, len(tc.values))
			}
			var total uint64
			for k, b := range h.Buckets {
				if k > 0 && b.Index <= h.Buckets[k-1].Index {
					t.Fatalf("buckets out of order at %d: %v", k, h.Buckets)
				}
				if b.Count != want[b.Index] {
					t.Errorf("bucket %d holds %d, want %d", b.Index, b.Count, want[b.Index])
				}
				total += b.Count
			}
			if total != h.Count || len(h.Buckets) != len(want) {
				t.Errorf("buckets hold %d in %d buckets, want %d in %d", total, len(h.Buckets), h.Count, len(want))
			}
		})
	}
}

// Spans are runs of consecutive buckets, each offset from the previous span's end, and the
// counts go as differences.
func TestSpansAndDeltas(t *testing.T) {
	t.Parallel()
	h := Histogram{Buckets: []Bucket{{-3, 2}, {-2, 5}, {-1, 1}, {4, 1}, {6, 9}}}
	spans, deltas := h.spans()
	wantSpans := []span{{-3, 3}, {4, 1}, {1, 1}} // 0..3 and 5 empty
	wantDeltas := []int64{2, 3, -4, 0, 8}
	if len(spans) != len(wantSpans) || len(deltas) != len(wantDeltas) {
		t.Fatalf("spans %v deltas %v, want %v %v", spans, deltas, wantSpans, wantDeltas)
	}
	for i := range spans {
		if spans[i] != wantSpans[i] {
			t.Errorf("span %d = %v, want %v", i, spans[i], wantSpans[i])
		}
	}
	for i := range deltas {
		if deltas[i] != wantDeltas[i] {
			t.Errorf("delta %d = %d, want %d", i, deltas[i], wantDeltas[i])
		}
	}
}

// Two targets of one URL make one histogram with the counts of both.
func TestHistogramAddMergesBuckets(t *testing.T) {
	t.Parallel()
	a := Histogram{Count: 3, Sum: 1, Buckets: []Bucket{{1, 1}, {5, 2}}}
	a.Add(Histogram{Count: 4, Sum: 2, Buckets: []Bucket{{0, 1}, {5, 1}, {9, 2}}})
	want := []Bucket{{0, 1}, {1, 1}, {5, 3}, {9, 2}}
	if a.Count != 7 || a.Sum != 3 || len(a.Buckets) != len(want) {
		t.Fatalf("got %+v, want count 7, sum 3, buckets %v", a, want)
	}
	for i := range want {
		if a.Buckets[i] != want[i] {
			t.Errorf("bucket %d = %v, want %v", i, a.Buckets[i], want[i])
		}
	}
}

// A run's labels name its --label and the step of a ladder or a capacity search, each only
// when there is one.
func TestRunLabels(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		label string
		step  float64
		want  []Label
	}{
		{"plain run", "", 0, nil},
		{"labelled", "nightly", 0, []Label{{"run", "nightly"}}},
		{"ladder step", "nightly", 40, []Label{{"run", "nightly"}, {"step", "40"}}},
		{"capacity step without label", "", 12.5, []Label{{"step", "12.5"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := RunLabels(tc.label, tc.step)
			if len(got) != len(tc.want) {
				t.Fatalf("RunLabels(%q, %v) = %v, want %v", tc.label, tc.step, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("RunLabels(%q, %v) = %v, want %v", tc.label, tc.step, got, tc.want)
				}
			}
		})
	}
}
