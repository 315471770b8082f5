package judge

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/webload/webload/stats"
)

// Limit is one --max-regression entry: how much worse than the baseline a figure may get.
type Limit struct {
	Key string  // the figure as written, in lower case: any name or alias of a figure of a run
	Max float64 // allowed change the bad way, as a fraction (0.1 = 10 %)
}

// ParseLimits reads "p95=10%,trate=5%". A key is any name or alias of a figure of a run, the
// names --assert takes (etime, p90, availability, p(99.5), ...). A number without % is a
// percentage too. A name that no run measures is refused here, so that no limit passes
// unjudged for want of a figure.
func ParseLimits(s string) ([]Limit, error) {
	var out []Limit
	for _, part := range strings.Split(s, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok || key == "" {
			return nil, fmt.Errorf("bad limit %q: want KEY=PERCENT such as p95=10%%", part)
		}
		if _, form, err := stats.ParsePercentileName(key); form && err != nil {
			return nil, fmt.Errorf("bad limit %q: %w", part, err)
		}
		if f, ok := stats.LookupFigure(key); !ok || !stats.PerRun(f) {
			if near := stats.NearPercentile(key); near != "" {
				return nil, fmt.Errorf("bad limit %q: unknown figure %q: write %s for that percentile", part, key, near)
			}
			return nil, fmt.Errorf("bad limit %q: unknown figure %q (known: %s)", part, key, stats.FigureNames(stats.PerRun))
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(val), "%"), 64)
		if err != nil || !(pct >= 0) {
			return nil, fmt.Errorf("bad limit %q: want a percentage such as 10%%", part)
		}
		out = append(out, Limit{Key: key, Max: pct / 100})
	}
	return out, nil
}

// CheckLimits holds every candidate row to the limits. A change no worse than its limit holds.
// Beyond the limit, a change judged significant fails, and so does one with no noise estimate
// (nothing shows it is noise); any other is inconclusive, whatever its p-value: a test that
// cannot tell a change beyond the limit from noise has not shown that the limit holds. An
// inconclusive verdict says how many repeats (or requests) would decide. Ladders' shared steps
// are judged too, each verdict named by its stack and users.
func (c *Comparison) CheckLimits(limits []Limit) []stats.Verdict {
	var out []stats.Verdict
	for i, row := range c.Rows[1:] {
		for _, l := range limits {
			out = append(out, c.checkLimit(i+1, row, l))
		}
	}
	return append(out, c.checkStepLimits(limits)...)
}

func (c *Comparison) checkLimit(i int, row CompareRow, l Limit) stats.Verdict {
	res := limitVerdict(row.Label, l)
	col, ok := stats.LookupFigure(l.Key)
	if !ok || !stats.PerRun(col) {
		res.Passed = false
		res.Text = fmt.Sprintf("%s %s: unknown figure, FAILED", row.Label, l.Key)
		return res
	}
	res.Figure = col.Name
	cell, base := c.limitCells(i, row, col)
	if cell.Measured {
		res.Measured = cell.Value / col.Compare.Scale
	}
	name := fmt.Sprintf("%s %s", row.Label, col.Compare.Title)
	if why := c.unsettledSearch(i, col); why != "" {
		res.Passed, res.Inconclusive = false, true
		res.Text = fmt.Sprintf("%s: %s: INCONCLUSIVE (search again to judge the capacity)", name, why)
		return res
	}
	if why := c.unlike(i, col); why != "" {
		res.Passed, res.Inconclusive = false, true
		res.Text = fmt.Sprintf("%s: %s: INCONCLUSIVE (%s to compare them)", name, why, unlikeAdvice)
		return res
	}
	if cell.Change == nil {
		return notMeasured(res, name, col, c.missing(i, cell, base))
	}
	worse := *cell.Change
	if col.HigherIsBetter {
		worse = -worse
	}
	v := col.Compare
	measured := fmt.Sprintf("%s %s%s vs %s%s (%s, allowed %.1f%% worse)", name, formatValue(cell.Value, v.Decimals),
		unitSuffix(v.Unit), formatValue(base.Value, v.Decimals), unitSuffix(v.Unit), changeText(*cell.Change), l.Max*100)
	switch {
	case worse <= l.Max:
		res.Text = measured + ": ok"
	case cell.Verdict == NoEstimate:
		res.Passed = false
		res.Text = measured + ": FAILED (1 run, no noise estimate: use --repeat to tell noise from change)"
	case cell.Verdict == Significant:
		res.Passed = false
		res.Text = measured + fmt.Sprintf(": FAILED (significant, %s)", evidenceText(cell, v))
	default:
		res.Passed, res.Inconclusive = false, true
		res.Text = measured + fmt.Sprintf(": INCONCLUSIVE (beyond the limit, not significant: p = %.3f): %s", *cell.P, c.needs(i, row, cell, base))
	}
	return res
}

// missing names the results of a comparison that did not measure a figure, the baseline and result i
// being the two whose cells are base and cell: "v2", "base and v2".
func (c *Comparison) missing(i int, cell, base CompareCell) string {
	var names []string
	if !base.Measured {
		names = append(names, c.Rows[0].Label)
	}
	if !cell.Measured {
		names = append(names, c.Rows[i].Label)
	}
	return strings.Join(names, " and ")
}

// notMeasured is the verdict on a limit whose figure a result did not measure (missing names
// them, "" when the name says which). A figure that a run measures only when asked (the database's with --db) was not asked
// for: the limit is not judged and passes, so that one set of limits serves jobs that measure
// more and jobs that measure less, and the line says what to add. Any other figure every result
// has, and one without it (saved without a latency histogram) fails the limit rather than pass
// a regression unseen.
func notMeasured(res stats.Verdict, name string, f stats.Figure, missing string) stats.Verdict {
	where := ""
	if missing != "" {
		where = " in " + missing
	}
	if f.Needs != "" {
		res.Text = fmt.Sprintf("%s: not measured%s (needs %s), not judged", name, where, f.Needs)
		return res
	}
	res.Passed = false
	res.Text = fmt.Sprintf("%s: not measured%s, FAILED", name, where)
	return res
}

// unlike says how result i and the baseline count f when they count it differently (see
// unlikeCounts); "" otherwise.
func (c *Comparison) unlike(i int, f stats.Figure) string {
	if i >= len(c.reports) || i >= len(c.Rows) {
		return ""
	}
	return unlikeCounts(f, &c.reports[0], &c.reports[i], c.Rows[0].Label, c.Rows[i].Label)
}

// unsettledSearch says why the capacity of result i or of the baseline cannot be judged: its
// search was interrupted, so the capacity is only a lower bound, or none of its steps could be
// judged. "" when both searches settled, or f is not the capacity.
func (c *Comparison) unsettledSearch(i int, f stats.Figure) string {
	if f.Name != "capacity" || i >= len(c.reports) {
		return ""
	}
	for _, k := range []int{i, 0} {
		r := &c.reports[k]
		switch {
		case r.Capacity == nil:
		case r.Capacity.Interrupted():
			return fmt.Sprintf("the search of %s was interrupted at %s req/s, so its capacity is only a lower bound",
				stats.Label(r, k), stats.OfferedText(r.Capacity.InterruptedAt))
		case !r.Capacity.Judged():
			return fmt.Sprintf("no step of the search of %s could be judged", stats.Label(r, k))
		}
	}
	return ""
}

// evidenceText says why a change is significant: its p-value, and the two intervals when they
// lie apart although the p-value alone would not have shown it.
func evidenceText(cell CompareCell, v stats.CompareView) string {
	s := fmt.Sprintf("p = %.4f", *cell.P)
	if *cell.P >= alpha && len(cell.CI) == 2 && len(cell.BaseCI) == 2 {
		s += fmt.Sprintf("; 95%% intervals %s-%s%s and %s-%s%s do not overlap",
			formatValue(cell.BaseCI[0], v.Decimals), formatValue(cell.BaseCI[1], v.Decimals), unitSuffix(v.Unit),
			formatValue(cell.CI[0], v.Decimals), formatValue(cell.CI[1], v.Decimals), unitSuffix(v.Unit))
	}
	return s
}

// needs says what would decide an inconclusive change: for --repeat series, the runs a t-test
// needs to find a change of the size seen with 80 % power given the runs' spread; for single
// runs, the requests the distribution test needs for that power.
func (c *Comparison) needs(i int, row CompareRow, cell, base CompareCell) string {
	if row.Runs > 1 && c.Rows[0].Runs > 1 {
		n := repeatsNeeded(base.Spread, cell.Spread, math.Abs(cell.Value-base.Value), max(row.Runs, c.Rows[0].Runs))
		return fmt.Sprintf("needs more repeats (%d suggested: --repeat %d on each side for 80%% power on a change this large)", n, n)
	}
	f := requestsFactor(*cell.P)
	if i >= len(c.hists) || math.IsInf(f, 0) {
		return "needs more requests or --repeat"
	}
	n := int64(math.Ceil(f * float64(max(c.hists[0].TotalCount(), c.hists[i].TotalCount()))))
	return fmt.Sprintf("needs more requests (about %d per run, %.1fx, for 80%% power on a change this large) or --repeat 3", n, f)
}

// limitVerdict is a limit's verdict before it is checked: passed, with nothing measured. The
// check is named by the run's label and the figure as written.
func limitVerdict(label string, l Limit) stats.Verdict {
	return stats.Verdict{Check: label + ": " + l.Key, Passed: true, Measured: math.NaN()}
}

// limitCells are a candidate's cell of a figure and the baseline's: the table's when the figure
// is a column, else judged the same way from the results the comparison kept.
func (c *Comparison) limitCells(i int, row CompareRow, f stats.Figure) (cell, base CompareCell) {
	if j := c.columnIndex(f.Compare.Key); j >= 0 && j < len(row.Cells) && j < len(c.Rows[0].Cells) {
		return row.Cells[j], c.Rows[0].Cells[j]
	}
	if i >= len(c.reports) || len(c.hists) != len(c.reports) {
		return CompareCell{}, CompareCell{} // a comparison not made by Compare: nothing to judge by
	}
	return c.cell(i, f), c.cell(0, f)
}

// columnIndex finds a column of the table by its key (etime, p95, ...); -1 when the figure is
// not shown there.
func (c *Comparison) columnIndex(key string) int {
	return slices.IndexFunc(c.Columns, func(col ColumnInfo) bool { return col.Key == key })
}

// columnIndex finds a column that every table has by its key; -1 when the figure is not one.
func columnIndex(key string) int {
	return slices.IndexFunc(columns, func(f stats.Figure) bool { return f.Compare.Key == key })
}

// columnFigure is the figure of a column of any table by its key.
func columnFigure(key string) stats.Figure {
	if i := slices.IndexFunc(stats.Figures, func(f stats.Figure) bool { return f.Compare.Key == key }); i >= 0 {
		return stats.Figures[i]
	}
	return stats.Figure{}
}

func unitSuffix(u string) string {
	if u == "" || u == "/s" {
		return u
	}
	return " " + u
}
