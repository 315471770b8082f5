package judge

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// Trend follows the key figures over a history of runs (nightly builds, say) and judges the
// newest run against the ones before it.
//
// The rule, per figure: the baseline is the median of the earlier runs. An earlier run further
// than noisyMADs robust standard deviations (1.4826 × the median absolute deviation) from that
// median is a noisy night (a backup ran, the network hiccuped) and is left out of the noise
// estimate, so that one bad night cannot make a later step look like noise. The newest run is a
// significant change when Student's t prediction interval of the remaining earlier runs puts
// it outside at two-sided p < trendAlpha. TestTrendErrorRates measures how often this fails a
// night without a change and catches a step. A limit fails only when the newest is worse than the
// median by more than the limit and the change is significant. With fewer than MinHistory
// earlier runs nothing is judged. A step stays red on the nights after it, until it is fixed or
// about half the runs of the window share it (then the median has moved to it).
type Trend struct {
	Runs    []string    `json:"runs"` // labels (or start times) of the runs, oldest first
	Figures []TrendLine `json:"figures"`
	// MinHistory is how many earlier runs a figure needs before the newest is judged.
	MinHistory int `json:"min_history"`
	// Note says when the history is too short to judge the newest run.
	Note string `json:"note,omitempty"`
	// Notes say what a figure measured, when it is not what its name says (ServerNotes).
	Notes []string `json:"notes,omitempty"`
	// ContentSection lists the URLs of the newest run that answer differently from the run
	// before it; a URL whose content changed from run to run before is not judged
	// (nightlyVariation).
	ContentSection
	// Gates are the verdicts of the trend's gates, as Comparison.Gates.
	Gates []gate.GateVerdict `json:"gates,omitempty"`
	// Changes lists the change points over the whole history (FindChanges); nil when they were
	// not looked for.
	Changes *ChangeSection `json:"change_points,omitempty"`

	// results are the runs themselves, kept so that a limit on a figure outside the table is
	// judged as a line of it would be.
	results []stats.Report
}

// TrendLine is one figure over the runs.
type TrendLine struct {
	Name   string    `json:"name"`
	Key    string    `json:"key"`
	Unit   string    `json:"unit"`
	Values []float64 `json:"values"` // per run, oldest first; NaN where not measured
	// Median is the median of the runs before the newest, Newest the newest run's value and
	// Change the newest relative to the median.
	Median float64 `json:"median"`
	Newest float64 `json:"newest"`
	Change float64 `json:"change"`
	// Noise is the standard deviation of the earlier runs, noisy ones left out, and Noisy how
	// many were left out.
	Noise   float64  `json:"noise"`
	Noisy   int      `json:"noisy"`
	Verdict string   `json:"verdict"`
	P       *float64 `json:"p,omitempty"`
	Worse   bool     `json:"worse"`
	// Unlike counts the earlier runs left out of the median and the noise because they counted
	// the figure in another unit than the newest (see Unlike).
	Unlike int `json:"unlike,omitempty"`
}

// MarshalJSON writes a value not measured as null, since JSON has no NaN, and so a change from
// zero (±Inf); the median and newest values still say what happened.
func (l TrendLine) MarshalJSON() ([]byte, error) {
	type plain TrendLine // without this method
	out := struct {
		plain
		Values []*float64 `json:"values"`
		Newest *float64   `json:"newest"`
		Change *float64   `json:"change"`
	}{plain: plain(l), Newest: finite(l.Newest), Change: finite(l.Change)}
	for _, v := range l.Values {
		out.Values = append(out.Values, finite(v))
	}
	return json.Marshal(out)
}

// finite is v, or nil when JSON cannot hold it (NaN: not measured; ±Inf: a change from zero).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// DefaultMinHistory is how many earlier results `compare --history` needs before it judges the
// newest: with fewer, a night's noise cannot be told from a change, and a nightly job would fail
// its first nights on any change.
const DefaultMinHistory = 5

// trendAlpha is stricter than a comparison's alpha because a nightly job judges every figure
// every night: at 0.05, two limits would turn about one night in twenty red by chance.
const trendAlpha = 0.01

// noisyMADs is how many robust standard deviations from the median make an earlier run noisy.
// Measured on seeded Gaussian histories, lower values leave out good runs when the history is
// short and so raise the false alarms (at 5 earlier runs: 2.6 % at 3.5, 1.9 % at 5).
const noisyMADs = 5

// NewTrend follows the figures of runs, oldest first, and judges the newest when at least
// minHistory runs come before it. Whatever the history's length, it lists the URLs whose answers
// changed from the run before the newest (ContentChanges): a page that starts serving an error
// is news the first night.
func NewTrend(runs []stats.Report, minHistory int) (Trend, error) {
	t := Trend{MinHistory: minHistory}
	if len(runs) == 0 {
		return t, fmt.Errorf("a trend needs at least one result")
	}
	if minHistory < 2 {
		return t, fmt.Errorf("a trend needs at least 2 earlier results to judge by (got %d)", minHistory)
	}
	for i := range runs {
		name := stats.Printable(runs[i].Label)
		if !runs[i].Run.StartedAt.IsZero() {
			name = runs[i].Run.StartedAt.Format("2006-01-02 15:04")
		}
		t.Runs = append(t.Runs, name)
	}
	if earlier := len(runs) - 1; earlier < minHistory {
		t.Note = fmt.Sprintf("not enough history: %d of %d results before the newest; it is shown, not judged", earlier, minHistory)
	}
	t.results = runs
	for _, f := range tableFigures(runs) {
		t.Figures = append(t.Figures, t.trendLine(f))
	}
	t.Notes = ServerNotes(runs, t.Runs)
	if n := kindNote(runs); n != "" {
		t.Notes = append(t.Notes, n)
	}
	for _, l := range t.Figures {
		if l.Unlike > 0 {
			t.Notes = append(t.Notes, fmt.Sprintf("%s: %d earlier results counted another thing than the newest (%s) and are left out of its median and noise",
				l.Name, l.Unlike, countsText(columnFigure(l.Key), &runs[len(runs)-1])))
		}
	}
	if n := len(runs); n > 1 {
		t.ContentSection.add(contentSection(&runs[n-2], &runs[n-1], t.Runs[n-1], nightlyVariation(runs[:n-1])))
	}
	return t, nil
}

// trendLine follows one figure over the runs and judges the newest against the ones before.
func (t *Trend) trendLine(f stats.Figure) TrendLine {
	runs := t.results
	line := TrendLine{Name: f.Compare.Title, Key: f.Compare.Key, Unit: f.Compare.Unit}
	var prev []float64
	newest := &runs[len(runs)-1]
	for i := range runs {
		v, ok := f.Run(&runs[i])
		v *= f.Compare.Scale
		if !ok {
			v = math.NaN()
		}
		line.Values = append(line.Values, v)
		switch {
		case !ok || i == len(runs)-1:
		case unlikeCounts(f, &runs[i], newest, "", "") != "":
			line.Unlike++
		default:
			prev = append(prev, v)
		}
	}
	line.Newest = line.Values[len(line.Values)-1]
	line.Verdict = NoEstimate
	if len(prev) == 0 || math.IsNaN(line.Newest) {
		return line
	}
	line.Median = stats.Median(prev)
	line.Change = relChange(line.Median, line.Newest)
	line.Worse = line.Change != 0 && (line.Change > 0) != f.HigherIsBetter
	if len(prev) < t.MinHistory {
		return line
	}
	kept := withoutNoisy(prev, line.Median)
	line.Noisy = len(prev) - len(kept)
	_, line.Noise = MeanSD(kept)
	if p, ok := newObservationP(kept, line.Newest); ok {
		line.P = &p
		line.Verdict = WithinNoise
		if p < trendAlpha {
			line.Verdict = Significant
		}
	}
	return line
}

// withoutNoisy is prev without the runs further than noisyMADs robust standard deviations from
// their median m. When more than half the runs share one value the deviation is 0 and no run
// can be told noisy, so all are kept.
func withoutNoisy(prev []float64, m float64) []float64 {
	dev := make([]float64, len(prev))
	for i, v := range prev {
		dev[i] = math.Abs(v - m)
	}
	sigma := 1.4826 * stats.Median(dev) // the standard deviation, for Gaussian noise
	if sigma == 0 {
		return prev
	}
	var kept []float64
	for _, v := range prev {
		if math.Abs(v-m) <= noisyMADs*sigma {
			kept = append(kept, v)
		}
	}
	return kept
}

// newObservationP is the two-sided p-value of one new value against earlier runs: how often
// would a run as far from their mean occur if nothing changed? It uses the Student t prediction
// interval, so it needs at least two earlier runs.
func newObservationP(prev []float64, x float64) (float64, bool) {
	if len(prev) < 2 {
		return 0, false
	}
	mean, sd := MeanSD(prev)
	if sd == 0 {
		if x == mean {
			return 1, true
		}
		return 0, true
	}
	t := (x - mean) / (sd * math.Sqrt(1+1/float64(len(prev))))
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(prev) - 1)}.Survival(math.Abs(t)), true
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

// trendLegend explains the trend's marks.
const trendLegend = "* significant (p < 0.01 against the earlier runs, noisy ones left out), ~ within noise, " +
	"? not judged; changes are against the median of the earlier runs"

// WriteText writes the trend: a sparkline per figure and the newest run against the median.
func (t *Trend) WriteText(w io.Writer) error {
	var b strings.Builder
	if n := len(t.Runs); n == 1 {
		fmt.Fprintf(&b, "1 run, %s\n", t.Runs[0])
	} else {
		fmt.Fprintf(&b, "%d runs, %s to %s; the newest against the median of the %d before it\n", n, t.Runs[0], t.Runs[n-1], n-1)
	}
	if t.Note != "" {
		b.WriteString(t.Note + "\n")
	}
	fmt.Fprintf(&b, "\n%-10s  %-*s  %12s  %12s  %9s\n", "Figure", len(t.Runs), "Trend", "Median", "Newest", "Change")
	for _, f := range t.Figures {
		name := f.Name
		if f.Unit != "" {
			name += " " + f.Unit
		}
		if len(t.Notes) > 0 && serverColumn(f.Key) {
			name += localServerMark
		}
		dec := columnFigure(f.Key).Compare.Decimals
		switch {
		case math.IsNaN(f.Newest):
			fmt.Fprintf(&b, "%-10s  %s  %12s  %12s  %9s\n", name, sparkline(f.Values), "-", "-", "")
		case len(t.Runs) == 1:
			fmt.Fprintf(&b, "%-10s  %s  %12s  %12s  %9s\n", name, sparkline(f.Values), "-", formatValue(f.Newest, dec), "")
		default:
			fmt.Fprintf(&b, "%-10s  %s  %12s  %12s  %8s%s\n", name, sparkline(f.Values), formatValue(f.Median, dec),
				formatValue(f.Newest, dec), changeText(f.Change), marks[f.Verdict])
		}
	}
	b.WriteString("\n" + trendLegend + "\n")
	for _, n := range t.Notes {
		b.WriteString("Note: " + n + "\n")
	}
	if t.Changes != nil {
		t.Changes.write(&b)
	}
	t.ContentSection.write(&b, "the run before", false)
	_, err := io.WriteString(w, b.String())
	return err
}

// CheckLimits holds the newest run to the limits against the median of the earlier ones: only
// a change beyond the limit that the trend rule calls significant fails. A figure with too
// little history is not judged and passes, so that a nightly job's first nights are green; one
// the newest did not measure is judged as a comparison judges it (see notMeasured).
func (t *Trend) CheckLimits(limits []Limit) []stats.Verdict {
	var out []stats.Verdict
	for _, l := range limits {
		res := limitVerdict("newest", l)
		col, ok := stats.LookupFigure(l.Key)
		if !ok || !stats.PerRun(col) {
			res.Passed = false
			res.Text = "newest " + l.Key + ": unknown figure, FAILED"
			out = append(out, res)
			continue
		}
		res.Figure = col.Name
		f := t.line(col)
		res.Measured = f.Newest / col.Compare.Scale
		worse := f.Change
		if col.HigherIsBetter {
			worse = -worse
		}
		dec, unit := col.Compare.Decimals, ""
		if f.Unit != "" {
			unit = " " + f.Unit
		}
		text := fmt.Sprintf("newest %s %s%s vs median %s%s (%s, allowed %.1f%% worse)", f.Name, formatValue(f.Newest, dec), unit,
			formatValue(f.Median, dec), unit, changeText(f.Change), l.Max*100)
		switch {
		case math.IsNaN(f.Newest):
			res = notMeasured(res, "newest "+f.Name, col, "")
		case f.Verdict == NoEstimate:
			res.Text = fmt.Sprintf("newest %s %s%s: not judged, not enough history (%d of %d results)", f.Name,
				formatValue(f.Newest, dec), unit, t.measuredBefore(f), t.MinHistory)
		case worse <= l.Max:
			res.Text = text + ": ok"
		case f.Verdict == WithinNoise:
			res.Text = text + fmt.Sprintf(": within the earlier runs' noise (p = %.3f%s), ok", *f.P, noisyText(f.Noisy))
		default:
			res.Passed = false
			res.Text = text + fmt.Sprintf(": FAILED (%s, p = %.3f%s)", f.Verdict, *f.P, noisyText(f.Noisy))
		}
		out = append(out, res)
	}
	if t.Changes != nil {
		out = append(out, t.Changes.CheckChanges(limits, t.MinHistory)...)
	}
	return out
}

// CheckContent holds the newest run to --max-content-changes: more than maxChanged URLs that
// answer differently from the run before fail.
func (t *Trend) CheckContent(maxChanged int) []stats.Verdict {
	return t.ContentSection.verdicts(maxChanged)
}

// noisyText says how many earlier runs the noise left out, so that a reader can check them.
func noisyText(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "; 1 noisy earlier run left out"
	}
	return fmt.Sprintf("; %d noisy earlier runs left out", n)
}

// measuredBefore counts the runs before the newest that measured the figure as the newest
// counts it.
func (t *Trend) measuredBefore(f TrendLine) int {
	n := -f.Unlike
	for _, v := range f.Values[:len(f.Values)-1] {
		if !math.IsNaN(v) {
			n++
		}
	}
	return n
}

// line is the trend of a figure: the table's line when it has one, else one worked out the same
// way from the runs.
func (t *Trend) line(f stats.Figure) TrendLine {
	if i := slices.IndexFunc(t.Figures, func(l TrendLine) bool { return l.Key == f.Compare.Key }); i >= 0 {
		return t.Figures[i]
	}
	return t.trendLine(f)
}
