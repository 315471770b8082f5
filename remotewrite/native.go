package remotewrite

import (
	"iter"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/webload/webload/internal/hdrcodec"
)

// Schema is the native histograms' resolution: bucket i holds the values in
// (2^((i-1)/256), 2^(i/256)] seconds, each 2^(1/256)-1 = 0.27 % wider than its lower bound.
// It is Prometheus's finest. webload's HdrHistograms keep 3 significant digits (buckets at most
// 1/1024 = 0.098 % wide), so the native form is about 2.8 times coarser: two latencies less than
// 0.27 % apart may share a bucket there. Counts are kept exactly, and so is the sum.
const Schema = 8

// ZeroThreshold is the zero bucket's width, Prometheus's usual one. No latency falls in it:
// the HdrHistograms record anything shorter than a microsecond as one.
const ZeroThreshold = 0x1p-128

// bucketsPerOctave is the number of buckets between two powers of two at Schema.
const bucketsPerOctave = 1 << Schema

// octaveBounds[j] is 2^(j/256)/2: the upper bounds of one octave's buckets as fractions in
// [0.5, 1), which math.Frexp splits every value into (Prometheus's own method).
var octaveBounds = func() [bucketsPerOctave]float64 {
	var b [bucketsPerOctave]float64
	for j := range b {
		b[j] = math.Exp2(float64(j)/bucketsPerOctave) / 2
	}
	return b
}()

// Histogram is an integer native histogram with positive buckets only (latencies are never
// negative), in seconds.
type Histogram struct {
	Count     uint64  // every value, the zero bucket's included
	ZeroCount uint64  // values at most ZeroThreshold
	Sum       float64 // of the values, in seconds
	Buckets   []Bucket
	Time      int64 // milliseconds since the Unix epoch
}

// Bucket is a populated bucket: its index at Schema and its count.
type Bucket struct {
	Index int32
	Count uint64
}

// BucketIndex is the index of the bucket that holds v seconds (v > ZeroThreshold).
func BucketIndex(v float64) int32 {
	frac, exp := math.Frexp(v)
	return int32(sort.SearchFloat64s(octaveBounds[:], frac) + (exp-1)*bucketsPerOctave)
}

// BucketBounds are bucket i's lower (excluded) and upper (included) bounds in seconds.
func BucketBounds(i int32) (lower, upper float64) {
	return bucketUpper(i - 1), bucketUpper(i)
}

func bucketUpper(i int32) float64 {
	j := int(i) & (bucketsPerOctave - 1)
	return math.Ldexp(octaveBounds[j], int(i>>Schema)+1)
}

// FromHDR converts an HdrHistogram of webload's geometry (microseconds, 3 digits) to a native
// histogram. buckets yields each populated HDR bucket's value and count in increasing order
// (hdr.PackedHistogram.ForEachBucket); sum is the values' exact sum in seconds, which the HDR
// form does not keep. Each HDR bucket goes whole into the native bucket of its highest
// equivalent value, the value HdrHistogram answers a percentile with, so a percentile read
// from the native form is within one native bucket of the HDR's.
func FromHDR(buckets iter.Seq2[int64, int64], sum float64) Histogram {
	h := Histogram{Sum: sum}
	for v, n := range buckets {
		if n <= 0 {
			continue
		}
		h.Count += uint64(n)
		s := float64(HDRHighest(v)) * hdrcodec.HistUnit.Seconds()
		if s <= ZeroThreshold {
			h.ZeroCount += uint64(n)
			continue
		}
		i := BucketIndex(s)
		if k := len(h.Buckets); k > 0 && h.Buckets[k-1].Index == i {
			h.Buckets[k-1].Count += uint64(n)
			continue
		}
		h.Buckets = append(h.Buckets, Bucket{Index: i, Count: uint64(n)})
	}
	return h
}

// hdrSubBuckets is the sub-bucket count of webload's HdrHistograms: 3 significant digits need
// 2·10³ sub-buckets, rounded up to a power of two.
const hdrSubBuckets = 2048

// HDRHighest is the highest value HDR counts as equivalent to v (v >= 1) in webload's
// geometry (lowest trackable value 1, 3 digits): the top of v's HDR bucket.
func HDRHighest(v int64) int64 {
	shift := max(bits.Len64(uint64(v)|(hdrSubBuckets-1))-bits.Len64(hdrSubBuckets-1), 0)
	return (v>>shift)<<shift + 1<<shift - 1
}

// Add adds o's counts and sum to h: the series of two targets with the same method and URL
// are one series.
func (h *Histogram) Add(o Histogram) {
	h.Count += o.Count
	h.ZeroCount += o.ZeroCount
	h.Sum += o.Sum
	merged := make([]Bucket, 0, len(h.Buckets)+len(o.Buckets))
	merged = append(append(merged, h.Buckets...), o.Buckets...)
	slices.SortStableFunc(merged, func(a, b Bucket) int { return int(a.Index) - int(b.Index) })
	out := merged[:0]
	for _, b := range merged {
		if k := len(out); k > 0 && out[k-1].Index == b.Index {
			out[k-1].Count += b.Count
			continue
		}
		out = append(out, b)
	}
	h.Buckets = out
}

// span is a run of consecutive buckets: offset is its first index's distance from the end of
// the previous span (from 0 for the first), as the wire format has it.
type span struct {
	offset int32
	length uint32
}

// spans gives the wire form of h's buckets: the spans of consecutive indices, and each
// bucket's count as its difference from the previous bucket's.
func (h *Histogram) spans() ([]span, []int64) {
	var spans []span
	deltas := make([]int64, 0, len(h.Buckets))
	var prevCount int64
	next := int32(0) // the index after the last span
	for k, b := range h.Buckets {
		if k == 0 || b.Index != next {
			spans = append(spans, span{offset: b.Index - next})
		}
		spans[len(spans)-1].length++
		next = b.Index + 1
		deltas = append(deltas, int64(b.Count)-prevCount)
		prevCount = int64(b.Count)
	}
	return spans, deltas
}
