package stats

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// Trend follows the key figures over a history of runs (nightly builds, say) and judges the
// newest run against the ones before it.
type Trend struct {
	Runs    []string    `json:"runs"` // labels (or start times) of the runs, oldest first
	Figures []TrendLine `json:"figures"`

	// results are the runs themselves, kept so that a limit on a figure outside the table is
	// judged as a line of it would be.
	results []Report
}

// TrendLine is one figure over the runs.
type TrendLine struct {
	Name   string    `json:"name"`
	Key    string    `json:"key"`
	Unit   string    `json:"unit"`
	Values []float64 `json:"values"` // per run, oldest first; NaN where not measured
	// Median is the median of the runs before the newest, Newest the newest run's value and
	// Change the newest relative to the median.
	Median  float64  `json:"median"`
	Newest  float64  `json:"newest"`
	Change  float64  `json:"change"`
	Verdict string   `json:"verdict"`
	P       *float64 `json:"p,omitempty"`
	Worse   bool     `json:"worse"`
}

// NewTrend needs at least two runs, oldest first.
func NewTrend(runs []Report) (Trend, error) {
	var t Trend
	if len(runs) < 2 {
		return t, fmt.Errorf("a trend needs at least two results (got %d)", len(runs))
	}
	for i := range runs {
		name := runs[i].Label
		if !runs[i].Run.StartedAt.IsZero() {
			name = runs[i].Run.StartedAt.Format("2006-01-02 15:04")
		}
		t.Runs = append(t.Runs, name)
	}
	for _, f := range columns {
		t.Figures = append(t.Figures, trendLine(runs, f))
	}
	t.results = runs
	return t, nil
}

// trendLine follows one figure over the runs and judges the newest against the ones before.
func trendLine(runs []Report, f Figure) TrendLine {
	line := TrendLine{Name: f.compare.title, Key: f.compare.key, Unit: f.compare.unit}
	var prev []float64
	for i := range runs {
		v, ok := f.Run(&runs[i])
		v *= f.compare.scale
		if !ok {
			v = math.NaN()
		}
		line.Values = append(line.Values, v)
		if ok && i < len(runs)-1 {
			prev = append(prev, v)
		}
	}
	line.Newest = math.NaN()
	if len(line.Values) > 0 {
		line.Newest = line.Values[len(line.Values)-1]
	}
	line.Verdict = NoEstimate
	if len(prev) == 0 || math.IsNaN(line.Newest) {
		return line
	}
	line.Median = median(prev)
	line.Change = relChange(line.Median, line.Newest)
	line.Worse = line.Change != 0 && (line.Change > 0) != f.HigherIsBetter
	if p, ok := newObservationP(prev, line.Newest); ok {
		line.P = &p
		line.Verdict = WithinNoise
		if p < alpha {
			line.Verdict = Significant
		}
	}
	return line
}

// newObservationP is the two-sided p-value of one new value against earlier runs: how often
// would a run as far from their mean occur if nothing changed? It uses the Student t prediction
// interval, so it needs at least two earlier runs.
func newObservationP(prev []float64, x float64) (float64, bool) {
	if len(prev) < 2 {
		return 0, false
	}
	mean, sd := meanSD(prev)
	if sd == 0 {
		if x == mean {
			return 1, true
		}
		return 0, true
	}
	t := (x - mean) / (sd * math.Sqrt(1+1/float64(len(prev))))
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(prev) - 1)}.Survival(math.Abs(t)), true
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

var sparks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws values as a one-line chart, scaled from their minimum to their maximum.
func sparkline(values []float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	var b strings.Builder
	for _, v := range values {
		switch {
		case math.IsNaN(v):
			b.WriteRune(' ')
		case hi == lo:
			b.WriteRune(sparks[len(sparks)/2])
		default:
			// Clamped: with extreme values the ratio can overflow to NaN.
			i := (v-lo)/(hi-lo)*float64(len(sparks)-1) + 0.5
			if math.IsNaN(i) {
				i = 0
			}
			b.WriteRune(sparks[int(math.Max(0, math.Min(i, float64(len(sparks)-1))))])
		}
	}
	return b.String()
}

// WriteText writes the trend: a sparkline per figure and the newest run against the median.
func (t *Trend) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d runs, %s to %s; the newest against the median of the %d before it\n\n",
		len(t.Runs), t.Runs[0], t.Runs[len(t.Runs)-1], len(t.Runs)-1)
	fmt.Fprintf(&b, "%-10s  %-*s  %12s  %12s  %9s\n", "Figure", len(t.Runs), "Trend", "Median", "Newest", "Change")
	for _, f := range t.Figures {
		name := f.Name
		if f.Unit != "" {
			name += " " + f.Unit
		}
		if math.IsNaN(f.Newest) {
			fmt.Fprintf(&b, "%-10s  %s  %12s  %12s  %9s\n", name, sparkline(f.Values), "-", "-", "")
			continue
		}
		dec := columns[columnIndex(f.Key)].compare.decimals
		fmt.Fprintf(&b, "%-10s  %s  %12s  %12s  %8s%s\n", name, sparkline(f.Values), formatValue(f.Median, dec),
			formatValue(f.Newest, dec), changeText(f.Change), marks[f.Verdict])
	}
	b.WriteString("\n" + strings.Replace(legend, "against the first row", "against the median of the earlier runs", 1) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// CheckLimits holds the newest run to the limits against the median of the earlier ones; only
// a change beyond the limit that is not within the runs' noise fails.
func (t *Trend) CheckLimits(limits []Limit) []Verdict {
	var out []Verdict
	for _, l := range limits {
		res := limitVerdict("newest", l)
		col, ok := LookupFigure(l.Key)
		if !ok || !perRun(col) {
			res.Passed = false
			res.Text = "newest " + l.Key + ": unknown figure, FAILED"
			out = append(out, res)
			continue
		}
		res.Figure = col.Name
		f := t.line(col)
		res.Measured = f.Newest / col.compare.scale
		worse := f.Change
		if col.HigherIsBetter {
			worse = -worse
		}
		dec := col.compare.decimals
		text := fmt.Sprintf("newest %s %s vs median %s (%s, allowed %.1f%% worse)", f.Name, formatValue(f.Newest, dec),
			formatValue(f.Median, dec), changeText(f.Change), l.Max*100)
		switch {
		case math.IsNaN(f.Newest):
			res.Text = "newest " + f.Name + ": not measured, not checked"
		case worse <= l.Max:
			res.Text = text + ": ok"
		case f.Verdict == WithinNoise:
			res.Text = text + fmt.Sprintf(": within the earlier runs' noise (p = %.3f), ok", *f.P)
		default:
			res.Passed = false
			res.Text = text + ": FAILED (" + f.Verdict + ")"
		}
		out = append(out, res)
	}
	return out
}

// line is the trend of a figure: the table's line when it has one, else one worked out the same
// way from the runs.
func (t *Trend) line(f Figure) TrendLine {
	if i := columnIndex(f.compare.key); i >= 0 && i < len(t.Figures) {
		return t.Figures[i]
	}
	return trendLine(t.results, f)
}
