package judge

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/webload/webload/gate"
	"github.com/webload/webload/stats"

	"github.com/webload/webload/dbload"
)

// columns are the comparison table's figures, in table order: the seed columns of a migration
// report (ETime, RTime, TRate, Conc, OK) plus failures, percentiles and the server's load. A
// --max-regression limit may name any other figure of a run too; it is judged the same way.
var columns = stats.FiguresNamed("elapsed", "rtime", "trate", "concurrency", "successful", "failed",
	"p50", "p95", "p99", "la", "mem")

// sectionColumns follow columns in the table when a result compared measured them (the
// database's with --db): a comparison of runs that measured none keeps the table it always had.
var sectionColumns = sectionTableFigures()

func sectionTableFigures() []stats.Figure {
	var out []stats.Figure
	for _, f := range stats.Figures {
		if f.Table {
			out = append(out, f)
		}
	}
	return out
}

// capacityColumn leads the table when a result compared is a capacity search's: the rate a
// stack holds is what such a comparison is for.
var capacityColumn = stats.FiguresNamed("capacity")

// tableFigures are the columns of a table of results: the capacity when some result measured
// it, columns, then the sectionColumns some result (or a run of its series) measured.
func tableFigures(reports []stats.Report) []stats.Figure {
	var out []stats.Figure
	if slices.ContainsFunc(reports, func(r stats.Report) bool { return r.Capacity != nil }) {
		out = slices.Clone(capacityColumn)
	}
	out = append(out, columns...)
	for _, f := range sectionColumns {
		if slices.ContainsFunc(reports, func(r stats.Report) bool { return measuredIn(&r, f) }) {
			out = append(out, f)
		}
	}
	return out
}

// measuredIn tells whether r, or a run of its series, measured f.
func measuredIn(r *stats.Report, f stats.Figure) bool {
	if _, ok := f.Run(r); ok {
		return true
	}
	return len(series(r, f)) > 0
}

// Verdicts on a change.
const (
	Significant = "significant" // unlikely to be noise
	WithinNoise = "noise"       // within what repeated runs vary by
	NoEstimate  = "no estimate" // a single run on either side: no spread to judge by
	// Inconclusive is a change one test sees and another cannot confirm, or a series whose
	// runs all moved one way without reaching significance: more repeats would tell.
	Inconclusive = "inconclusive"
)

// Comparison is the side-by-side table of `webload compare`: the first run is the baseline.
type Comparison struct {
	Columns []ColumnInfo `json:"columns"`
	Rows    []CompareRow `json:"rows"`
	Notes   []string     `json:"notes"`
	// URLChanges lists, per figure asked for (--per-url, p95 by default) and per candidate run,
	// the URLs whose figure changed most.
	URLChanges []URLChange `json:"url_changes,omitempty"`
	// ContentSection lists, per candidate run, the URLs that answer differently from the
	// baseline.
	ContentSection
	// Steps compares ladders (-c 10,20,40) step by step, one entry per number of users every
	// result has; absent unless every result is a ladder.
	Steps []StepComparison `json:"steps,omitempty"`
	// Statements put each candidate's database statements beside the baseline's, per
	// transaction (--db with --db-statements); absent when a side read none.
	Statements []dbload.StatementsComparison `json:"statements,omitempty"`
	// Gates are the verdicts of the comparison's gates (--max-regression, --max-content-changes)
	// that the text prints after it, set by the caller that judged them; absent without gates.
	Gates []gate.GateVerdict `json:"gates,omitempty"`

	// reports and hists are the results compared and their latency distributions, kept so
	// that a limit on a figure outside the table is judged as a column would be.
	reports []stats.Report
	hists   []*hdr.Histogram
	// figs are the columns' figures, in Columns' order.
	figs []stats.Figure
}

// ColumnInfo names a column and its unit.
type ColumnInfo struct {
	Name string `json:"name"`
	Key  string `json:"key"`
	Unit string `json:"unit"`
	// Note says what the column measured when it is not what its name says (noteLocalServer).
	Note string `json:"note,omitempty"`
}

// CompareRow is one run (or --repeat series).
type CompareRow struct {
	Label string        `json:"label"`
	Runs  int           `json:"runs"`
	Cells []CompareCell `json:"cells"`
}

// CompareCell is one figure of one run. Value is in the column's unit; for a series it is the
// mean over its runs (percentiles: of all its samples together), and Spread their standard
// deviation. Change is relative to the baseline (0.1 = +10 %); nil on the baseline row and
// where either side was not measured.
type CompareCell struct {
	Measured bool     `json:"measured"`
	Value    float64  `json:"value"`
	Spread   float64  `json:"spread,omitempty"`
	Change   *float64 `json:"change,omitempty"`
	Verdict  string   `json:"verdict,omitempty"`
	P        *float64 `json:"p,omitempty"`
	// Worse is set when the change goes the bad way (slower, fewer, more failures).
	Worse bool `json:"worse,omitempty"`
	// Test names the tests that judged the change.
	Test string `json:"test,omitempty"`
	// CI and BaseCI are the 95 % confidence intervals of the candidate's and the baseline's
	// figure, in the column's unit, for the latency figures judged on their distributions;
	// both absent when an end of either is unbounded (too few requests for the percentile:
	// one request cannot bound its median on either side, 19 their p99 from above).
	CI     []float64 `json:"ci,omitempty"`
	BaseCI []float64 `json:"base_ci,omitempty"`
}

// MarshalJSON writes a change from zero (±Inf, which JSON cannot hold) as no change figure, as
// the trend's lines do; the two values still say what happened. An interval with an unbounded
// end is left out, and its pair with it (judge keeps none; this holds for any cell).
func (c CompareCell) MarshalJSON() ([]byte, error) {
	type plain CompareCell // without this method
	p := plain(c)
	if p.Change != nil {
		p.Change = finite(*p.Change)
	}
	if p.P != nil {
		p.P = finite(*p.P)
	}
	if !allFinite(p.CI) || !allFinite(p.BaseCI) {
		p.CI, p.BaseCI = nil, nil
	}
	return json.Marshal(p)
}

// allFinite tells whether every value of v is a number JSON can hold.
func allFinite(v []float64) bool {
	return !slices.ContainsFunc(v, func(x float64) bool { return finite(x) == nil })
}

// Compare lines up the runs against the first. Each report may be a --repeat series, whose
// runs give the spread that tells a real change from noise. perURL lists the URLs whose p95
// changed most; ListURLChanges lists them for other figures.
func Compare(reports []stats.Report, perURL bool) (Comparison, error) {
	var c Comparison
	if len(reports) < 2 {
		return c, fmt.Errorf("compare needs at least two results (got %d)", len(reports))
	}
	c.figs = tableFigures(reports)
	for _, col := range c.figs {
		c.Columns = append(c.Columns, ColumnInfo{Name: col.Compare.Title, Key: col.Compare.Key, Unit: col.Compare.Unit})
	}
	base := &reports[0]
	baseHist, err := stats.DecodeHistogram(base.Histogram)
	if err != nil {
		return c, fmt.Errorf("baseline %q: %w", base.Label, err)
	}
	c.reports, c.hists = reports, []*hdr.Histogram{baseHist}
	single := false
	for i := range reports {
		r := &reports[i]
		row := CompareRow{Label: stats.Label(r, i), Runs: max(1, len(r.Repeats))}
		single = single || row.Runs < 2
		if i > 0 {
			hist, err := stats.DecodeHistogram(r.Histogram)
			if err != nil {
				return c, fmt.Errorf("\"%s\": %w", row.Label, err) // Printable already
			}
			c.hists = append(c.hists, hist)
		}
		for _, col := range c.figs {
			row.Cells = append(row.Cells, c.cell(i, col))
		}
		c.Rows = append(c.Rows, row)
		if i > 0 {
			c.ContentSection.add(contentSection(base, r, row.Label, nil))
		}
	}
	if perURL {
		c.ListURLChanges(stats.FiguresNamed("p95"))
	}
	if single {
		c.Notes = append(c.Notes, "1 run, no noise estimate: a result without --repeat has no spread to judge by; "+
			"RTime and the percentile columns are judged by tests on the two latency distributions alone, the others not at all (marked ?)")
	}
	c.noteLocalServer()
	c.noteCountedUnits()
	c.noteUnsettledSearches()
	c.compareStatements(reports)
	if err := c.compareSteps(reports); err != nil {
		return c, err
	}
	return c, nil
}

// noteUnsettledSearches says which capacities are not a search's answer: an interrupted
// search's is a lower bound, and one whose steps could not be judged found nothing.
func (c *Comparison) noteUnsettledSearches() {
	for i := range c.reports {
		r := &c.reports[i]
		switch {
		case r.Capacity == nil:
		case r.Capacity.Interrupted():
			c.Notes = append(c.Notes, fmt.Sprintf("the capacity search of %s was interrupted at %s req/s: its capacity is a lower bound, and --max-regression does not judge it",
				stats.Label(r, i), stats.OfferedText(r.Capacity.InterruptedAt)))
		case !r.Capacity.Judged():
			c.Notes = append(c.Notes, fmt.Sprintf("no step of the capacity search of %s could be judged: it found no capacity, and --max-regression does not judge it", stats.Label(r, i)))
		}
	}
}

// cell is the figure of result i, judged against the baseline's unless it is the baseline.
func (c *Comparison) cell(i int, f stats.Figure) CompareCell {
	r, base := &c.reports[i], &c.reports[0]
	cell := valueCell(r, f)
	if i > 0 && cell.Measured && unlikeCounts(f, base, r, "", "") != "" {
		cell.Verdict = Unlike // a change of unit is no change of the site: not judged
		return cell
	}
	if i > 0 {
		judge(&cell, valueCell(base, f), f, series(base, f), series(r, f), c.hists[0], c.hists[i])
	}
	return cell
}

// valueCell is a run's figure: the series mean for counts and rates, the pooled distribution's
// percentile for latencies.
func valueCell(r *stats.Report, f stats.Figure) CompareCell {
	v, ok := f.Run(r)
	if !ok {
		return CompareCell{}
	}
	scale := f.Compare.Scale
	cell := CompareCell{Measured: true, Value: v * scale}
	if vals := series(r, f); len(vals) >= 2 {
		mean, sd := MeanSD(vals)
		if f.Compare.Quantile == 0 {
			cell.Value = mean * scale
		}
		cell.Spread = sd * scale
	}
	return cell
}

// series is a figure's value in each run of a --repeat series (nil for a single run).
func series(r *stats.Report, f stats.Figure) []float64 {
	var vals []float64
	for i := range r.Repeats {
		if v, ok := f.Run(&r.Repeats[i]); ok {
			vals = append(vals, v)
		}
	}
	return vals
}

// relChange is (b-a)/a; from zero it is 0 when both are zero and ±Inf otherwise.
func relChange(a, b float64) float64 {
	switch {
	case a == b:
		return 0
	case a == 0:
		return math.Copysign(math.Inf(1), b)
	}
	return (b - a) / math.Abs(a)
}

// MeanSD is the mean of v and its sample standard deviation (n-1), the spread of a series of
// runs as compare judges it; with one value the deviation is undefined (NaN).
func MeanSD(v []float64) (mean, sd float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(v)-1))
}

// certainty ranks verdicts for the "changed most" list: the lower, the surer the change.
var certainty = map[string]int{Significant: 0, Inconclusive: 1, WithinNoise: 2, NoEstimate: 3}

func sortChanges(c []URLChange) {
	sort.SliceStable(c, func(i, j int) bool {
		a, b := c[i], c[j]
		if certainty[a.Verdict] != certainty[b.Verdict] {
			return certainty[a.Verdict] < certainty[b.Verdict]
		}
		if ha, hb := min(a.Hits, a.BaseHits), min(b.Hits, b.BaseHits); ha != hb {
			return ha > hb
		}
		return math.Abs(a.Change) > math.Abs(b.Change)
	})
}
