package judge

import (
	"fmt"
	"math"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/webload/webload/internal/hdrcodec"
	"github.com/webload/webload/stats"
)

// judge sets a candidate cell's change and verdict against the baseline's. Two kinds of
// evidence count: the spread of a --repeat series' runs (Welch's t-test on the runs' values),
// and for latency figures a test of that figure on the two latency distributions (see
// distTest). A single run is judged by the distributions alone. A series is significant only
// when both agree; when they do not, it is within noise, unless the figure's confidence
// intervals on the two distributions lie apart: a change that plain is never called noise, and
// is inconclusive until enough repeats confirm it against the runs' spread.
func judge(cell *CompareCell, base CompareCell, f stats.Figure, baseVals, vals []float64, baseHist, hist *hdr.Histogram) {
	if !cell.Measured || !base.Measured {
		return
	}
	change := relChange(base.Value, cell.Value)
	cell.Change = &change
	cell.Worse = change != 0 && (change > 0) != f.HigherIsBetter
	runsP, runsOK := welchP(baseVals, vals)
	var d distEvidence
	if baseHist != nil && hist != nil {
		d = distTest(f, baseHist, hist)
	}
	var tests []string
	if runsOK {
		tests = append(tests, "Welch's t on the runs")
	}
	if d.ok {
		tests = append(tests, d.test)
		if d.hasCI && d.base.bounded() && d.cand.bounded() {
			k := hdrcodec.HistUnit.Seconds() * f.Compare.Scale
			cell.CI = []float64{d.cand.lo * k, d.cand.hi * k}
			cell.BaseCI = []float64{d.base.lo * k, d.base.hi * k}
		}
	}
	cell.Test = strings.Join(tests, "; ")
	runsSig, distSig := runsOK && runsP < alpha, d.ok && d.sig
	var p float64
	switch {
	case runsOK && d.ok:
		p = math.Max(runsP, d.p)
		cell.Verdict = WithinNoise
		if runsSig && distSig {
			cell.Verdict = Significant
		} else if d.apart {
			cell.Verdict = Inconclusive // never noise when the intervals lie apart
		}
	case runsOK:
		p = runsP
		cell.Verdict = WithinNoise
		if runsSig {
			cell.Verdict = Significant
		}
	case d.ok:
		p = d.p
		cell.Verdict = WithinNoise
		if distSig {
			cell.Verdict = Significant
		} else if d.apart {
			cell.Verdict = Inconclusive // too few requests to be sure, too far apart to be noise
		}
	default:
		cell.Verdict = NoEstimate
		return
	}
	cell.P = &p
}

// distEvidence is what a test of one figure on two latency distributions found: its p-value,
// whether it shows a change (sig), whether the figure's confidence intervals or the runs'
// ranges lie apart (then the change is never called noise), and which test.
type distEvidence struct {
	p              float64
	ok, sig, apart bool
	hasCI          bool
	base, cand     interval
	test           string
}

// distTest judges a latency figure on the baseline's distribution a and the candidate's b by a
// test of that figure: a percentile by the quantile test and the exact binomial intervals of
// that percentile, the mean by Welch's t-test on the per-request values. Intervals that do not
// overlap count as a change whatever the p-value. For a percentile from the median up, one
// side's slowest request faster than the other's median is never noise either: a change when
// the exact chance of it is below 5 %, else too few requests to tell.
func distTest(f stats.Figure, a, b *hdr.Histogram) distEvidence {
	var e distEvidence
	switch q := f.Compare.Quantile; {
	case q > 0:
		e.p, e.ok = quantileP(a, b, q)
		e.test = fmt.Sprintf("p%g: quantile test, binomial intervals", q)
		ia, oka := percentileInterval(a, q)
		ib, okb := percentileInterval(b, q)
		if oka && okb {
			e.hasCI, e.base, e.cand = true, ia, ib
			e.apart = ia.apart(ib)
		}
		e.sig = e.p < alpha || e.apart
		if q >= 50 {
			if apart, p := rangesApart(a, b); apart {
				e.apart, e.sig = true, e.sig || p < alpha
				e.test += ", ranges apart"
			}
		}
	case f.Compare.Mean:
		e.p, e.base, e.cand, e.ok = meanTest(a, b)
		e.hasCI, e.apart = e.ok, e.ok && e.base.apart(e.cand)
		e.sig = e.p < alpha || e.apart
		e.test = "Welch's t on the requests"
	}
	return e
}
