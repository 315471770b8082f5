package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/webload/webload/stats"
)

// curves are the results' latency percentile plots (HdrHistogram's plot) on one x axis: x in
// "nines", log10(1/(1-q)), so 0 is the minimum, 1 p90, 2 p99, 3 p99.9; y the latency in ms.
type curves struct {
	X series   `json:"x"`
	Y []series `json:"y"` // one per result; NaN where a result has no point at that x
}

// pointsPerNine is how many points each factor of ten of the plot gets: enough for a smooth
// curve, few enough that the page stays small (some 120 points for a million requests).
const pointsPerNine = 20

// quantiler is what a curve reads of a distribution (a *stats.Distribution).
type quantiler interface {
	Count() int64
	Quantiles(percentiles []float64) []float64 // seconds
}

// curve reads one distribution's percentile plot: points evenly spaced in nines from the
// minimum up to the last percentile its count can tell apart from the maximum, q = 1-1/count,
// where the plot ends at the maximum itself. top is the exact maximum in seconds (histograms
// answer with the top of a value's bucket, 0.1 % high); 0 for none known. Latencies are in ms.
func curve(d quantiler, top float64) (x, y []float64) {
	n := d.Count()
	if n == 0 {
		return nil, nil
	}
	end := math.Log10(float64(n))
	var percentiles []float64
	for i := 0; float64(i)/pointsPerNine < end-1e-9; i++ {
		x = append(x, float64(i)/pointsPerNine)
		percentiles = append(percentiles, percentileAt(x[i]))
	}
	x = append(x, round(end, 1e6))
	percentiles = append(percentiles, 100)
	for _, s := range d.Quantiles(percentiles) {
		if top > 0 {
			s = min(s, top)
		}
		y = append(y, msRound(s))
	}
	return x, y
}

// percentileAt is the percentile (0-100) x nines along the plot.
func percentileAt(x float64) float64 { return 100 * (1 - math.Pow(10, -x)) }

// buildCurves reads every result's plot from its overall histogram.
func buildCurves(results []stats.Report) (curves, error) {
	xs := make([][]float64, len(results))
	ys := make([][]float64, len(results))
	for i := range results {
		r := &results[i]
		d, err := stats.DecodeDistribution(r.Histogram)
		if err != nil {
			return curves{}, &ResultError{Index: i, Label: stats.Label(r, i), Err: fmt.Errorf("latencies: %w", err)}
		}
		xs[i], ys[i] = curve(d, r.LongestTransaction)
	}
	return alignCurves(xs, ys), nil
}

// alignCurves puts the plots on one x axis, as uPlot wants: the union of their x values, each
// plot with a gap (NaN) where it has no point, which the chart bridges.
func alignCurves(xs, ys [][]float64) curves {
	var all []float64
	for _, x := range xs {
		all = append(all, x...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	c := curves{X: all, Y: make([]series, len(xs))}
	for i := range xs {
		c.Y[i] = make(series, len(all))
		for j := range c.Y[i] {
			c.Y[i][j] = math.NaN()
		}
		for j, x := range xs[i] {
			k, _ := slices.BinarySearch(all, x)
			c.Y[i][k] = ys[i][j]
		}
	}
	return c
}
