package stats

import (
	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/webload/webload/internal/hdrcodec"
)

// A sparse histogram costs a binary search over its buckets for every value, several times a
// dense one's cost: on the bare path (a request and its page to one URL, over and over) the
// per-URL and timeline histograms were half of what recording a visit cost. So a busy sparse
// Latency records into a dense "hot" histogram beside it, and folds it into the sparse one
// before anything reads it: every figure, merge and saved histogram is the sparse one's, with
// the same counts as if each value had gone there. The hot histogram covers values below
// hotTop only (a second, 88 KiB); longer ones go to the sparse histogram at once.
const (
	hotTop = 1 << 20 // histogram units (µs)
	// hotAfter is the count at which a sparse Latency takes a hot histogram: by then zeroing
	// one, and folding it at the report, is paid back.
	hotAfter = 512
	// hotMost bounds the hot histograms of a recorder, so a long URL list of busy URLs costs
	// at most about 1.4 MiB more.
	hotMost = 16
)

func newHot() *hdr.Histogram { return hdr.New(hdrcodec.HistLowest, hotTop, 3) }

// hotRecord records v into l's hot histogram when it has one that covers v.
func (l *Latency) hotRecord(v int64) bool {
	if l.hot == nil || v >= hotTop {
		return false
	}
	_ = l.hot.RecordValue(v) // v is in range
	return true
}

// settle folds l's hot histogram into its sparse one, leaving the hot one empty for more
// values. Readers call it first; it changes no figure.
func (l *Latency) settle() {
	if l.hot == nil || l.hot.TotalCount() == 0 {
		return
	}
	sparse := l.h.(*hdr.PackedHistogram) // only sparse Latencies have a hot histogram
	// Values below hotTop are all in the sparse range. Into an empty histogram the hot one's
	// buckets are appended in order; into one with values, they go through a new one and one
	// pass over both, not an insertion (a shift) each.
	if sparse.TotalCount() == 0 {
		sparse.MergeFrom(l.hot)
	} else {
		fresh := hdrcodec.NewSparseHistogram()
		fresh.MergeFrom(l.hot)
		sparse.Merge(fresh)
	}
	l.hot.Reset()
}

// cool settles l and takes its hot histogram away, empty, for another Latency.
func (l *Latency) cool() *hdr.Histogram {
	l.settle()
	h := l.hot
	l.hot = nil
	return h
}

// hotHistograms lends a recorder's hot histograms to its busiest sparse Latencies.
type hotHistograms struct {
	most  int // hotMost; 0 lends none
	made  int
	spare *hdr.Histogram // one given back by a finished timeline bucket
}

// warm gives l a hot histogram when it has just become busy and one is left.
func (p *hotHistograms) warm(l *Latency) {
	if l.n != hotAfter || l.hot != nil {
		return
	}
	switch {
	case p.spare != nil:
		l.hot, p.spare = p.spare, nil
	case p.made < p.most:
		l.hot = newHot()
		p.made++
	}
}

// giveBack takes l's hot histogram, if any, as the spare: l will get no more values, or few.
func (p *hotHistograms) giveBack(l *Latency) {
	h := l.cool()
	switch {
	case h == nil:
	case p.spare == nil:
		p.spare = h
	default:
		p.made-- // dropped: another may be made
	}
}
