package stats

import (
	"slices"
	"strings"

	"github.com/webload/webload/section"
)

// FigureKind says what a figure measures, which decides the units a gate's limit takes and how
// a verdict shows values.
type FigureKind = section.Kind

// The kinds of figure.
const (
	FigureCount   = section.Count
	FigureRate    = section.Rate
	FigureTime    = section.Time
	FigurePercent = section.Percent
)

// Figure is one figure a user can name: in an --assert gate on the run or on a URL, in a
// compare --max-regression limit, as a column of the comparison and as a row of the HTML
// summary. Each is described once, in one list, so that all of them take the same names and
// agree on its unit and on which way is better. Values are in the figure's base unit: seconds
// for times, percent, MB/s for throughput, MB for memory, plain numbers otherwise.
type Figure struct {
	// Name is the canonical name, the one verdicts print.
	Name string
	// Kind decides the units a gate's limit takes.
	Kind FigureKind
	// Latency marks a time of one transaction, which a run without transactions does not have.
	Latency bool
	// HigherIsBetter tells which way a change is a regression: down for rates and successes,
	// up for everything else.
	HigherIsBetter bool
	// Summary titles the figure's row in the HTML summary.
	Summary string

	// Percentile is the latency percentile the figure is (0-100, 100 for the maximum); 0 for
	// the other figures.
	Percentile float64
	// Needs says what a run needs to measure the figure ("--db"), for the figures a run may
	// lack; "" for those every run measures, which a result lacks only when something is wrong.
	Needs string

	aliases []string // other accepted names: siege's JSON keys, compare's column keys, short forms
	unit    string   // shown after a gate's values, with its leading space
	run     func(*Report) (float64, bool)
	url     func(*URLStats) (float64, bool)
	Compare CompareView
	// Table puts the figure in the comparison's table whenever a result compared measured it.
	Table bool
	// Counts says what the figure counts in a result ("statements", "transactions") with the
	// counters it came from, for the figures whose unit depends on the source that measured
	// them; nil for the others, whose unit is fixed. Results that count different things are
	// not compared on that figure.
	Counts func(*Report) (unit, sources string)
}

// CompareView is how `webload compare` shows and judges a figure.
type CompareView struct {
	Key, Title, Unit string  // the column's JSON key, its title and the unit the table shows
	Scale            float64 // from the base unit to the one shown
	Decimals         int
	// Quantile (0-100) marks a latency percentile, also judged by tests of that percentile on
	// the two latency distributions; mean marks the mean response time, also judged by a test
	// on the means of the per-request values.
	Quantile float64
	Mean     bool
}

// Run reads the figure of a whole run; ok is false when the run did not measure it (the server's
// load without --server-metrics) or the figure is kept only per URL.
func (f Figure) Run(r *Report) (v float64, ok bool) {
	if f.run == nil {
		return 0, false
	}
	return f.run(r)
}

// Quantile is the latency percentile the figure is (0-100, such as 95 for p95); ok is false
// for the other figures, the maximum among them.
func (f Figure) Quantile() (q float64, ok bool) {
	return f.Compare.Quantile, f.Compare.Quantile > 0
}

// URL reads the figure of one URL; ok is false when it is not kept per URL.
func (f Figure) URL(u *URLStats) (v float64, ok bool) {
	if f.url == nil {
		return 0, false
	}
	return f.url(u)
}

// Figures is read-only. Its order is the order messages list the names in: the run's own
// figures, then the sections', then laterFigures.
var Figures = slices.Concat(runFigures, sectionFigures(), laterFigures)

// runFigures are the figures every run measures, and the capacity a search found.
var runFigures = []Figure{
	{Name: "availability", Kind: FigurePercent, HigherIsBetter: true, Summary: "Availability",
		run:     runFigure(func(r *Report) float64 { return r.Availability }),
		url:     urlFigure(func(u *URLStats) float64 { return share(u.Hits, u.Failures) }),
		Compare: CompareView{Key: "availability", Title: "Availability", Unit: "%", Scale: 1, Decimals: 3}},
	{Name: "error_rate", Kind: FigurePercent,
		run:     runFigure(func(r *Report) float64 { return share(r.FailedTransactions, r.Transactions) }),
		url:     urlFigure(func(u *URLStats) float64 { return share(u.Failures, u.Hits) }),
		Compare: CompareView{Key: "error_rate", Title: "Error rate", Unit: "%", Scale: 1, Decimals: 3}},
	{Name: "transactions", aliases: []string{"trans", "hits"}, Kind: FigureCount, HigherIsBetter: true, Summary: "Transactions",
		run:     runFigure(func(r *Report) float64 { return float64(r.Transactions) }),
		url:     urlFigure(func(u *URLStats) float64 { return float64(u.Hits) }),
		Compare: CompareView{Key: "transactions", Title: "Transactions", Scale: 1}},
	{Name: "successful", aliases: []string{"ok"}, Kind: FigureCount, HigherIsBetter: true, Summary: "Successful transactions",
		run:     runFigure(func(r *Report) float64 { return float64(r.SuccessfulTransactions) }),
		Compare: CompareView{Key: "ok", Title: "OK", Scale: 1}},
	{Name: "failed", aliases: []string{"failures"}, Kind: FigureCount, Summary: "Failed transactions",
		run:     runFigure(func(r *Report) float64 { return float64(r.FailedTransactions) }),
		url:     urlFigure(func(u *URLStats) float64 { return float64(u.Failures) }),
		Compare: CompareView{Key: "failed", Title: "Failed", Scale: 1}},
	{Name: "requests", Kind: FigureCount, HigherIsBetter: true, Summary: "Requests",
		run:     runFigure(func(r *Report) float64 { return float64(r.Requests) }),
		Compare: CompareView{Key: "requests", Title: "Requests", Scale: 1}},
	{Name: "elapsed", aliases: []string{"etime"}, Kind: FigureTime, Summary: "Elapsed time (s)",
		run:     runFigure(func(r *Report) float64 { return r.ElapsedTime }),
		Compare: CompareView{Key: "etime", Title: "ETime", Unit: "s", Scale: 1, Decimals: 2}},
	{Name: "rtime", aliases: []string{"response_time", "mean"}, Kind: FigureTime, Latency: true, Summary: "Response time (ms)",
		run:     runFigure(func(r *Report) float64 { return r.ResponseTime }),
		url:     urlFigure(func(u *URLStats) float64 { return u.Mean }),
		Compare: CompareView{Key: "rtime", Title: "RTime", Unit: "s", Scale: 1, Decimals: 3, Mean: true}},
	{Name: "trate", aliases: []string{"transaction_rate"}, Kind: FigureRate, HigherIsBetter: true, Summary: "Transaction rate (/s)",
		unit:    " trans/sec",
		run:     runFigure(func(r *Report) float64 { return r.TransactionRate }),
		Compare: CompareView{Key: "trate", Title: "TRate", Unit: "/s", Scale: 1, Decimals: 2}},
	{Name: "throughput", Kind: FigureRate, HigherIsBetter: true, Summary: "Throughput (MB/s)", unit: " MB/sec",
		run:     runFigure(func(r *Report) float64 { return r.Throughput }),
		Compare: CompareView{Key: "throughput", Title: "Throughput", Unit: "MB/s", Scale: 1, Decimals: 2}},
	{Name: "concurrency", aliases: []string{"conc"}, Kind: FigureRate, Summary: "Concurrency",
		run:     runFigure(func(r *Report) float64 { return r.Concurrency }),
		Compare: CompareView{Key: "conc", Title: "Conc", Scale: 1, Decimals: 2}},
	{Name: "longest", Kind: FigureTime, Latency: true, Summary: "Longest transaction (ms)",
		run:     runFigure(func(r *Report) float64 { return r.LongestTransaction }),
		Compare: CompareView{Key: "longest", Title: "Longest", Unit: "ms", Scale: 1000, Decimals: 1}},
	{Name: "shortest", Kind: FigureTime, Latency: true, Summary: "Shortest transaction (ms)",
		run:     runFigure(func(r *Report) float64 { return r.ShortestTransaction }),
		Compare: CompareView{Key: "shortest", Title: "Shortest", Unit: "ms", Scale: 1000, Decimals: 1}},
	percentileFigure("p50", 50),
	percentileFigure("p90", 90),
	percentileFigure("p95", 95),
	percentileFigure("p99", 99),
	percentileFigure("p99.9", 99.9),
	maxFigure(),
	{Name: "capacity", Kind: FigureRate, HigherIsBetter: true, Summary: "Capacity (req/s)", unit: " req/s",
		run: capacityRate, Needs: "a capacity search (webload capacity)",
		Compare: CompareView{Key: "capacity", Title: "Capacity", Unit: "req/s", Scale: 1, Decimals: 1}},
}

// laterFigures follow the sections' figures in Figures: the figures kept per URL only and the
// sessions'.
var laterFigures = []Figure{
	{Name: "bytes", Kind: FigureCount, unit: " bytes",
		url: urlFigure(func(u *URLStats) float64 { return float64(u.Bytes) })},
	// The sessions' figures: measured in a run whose lines take values (#@extract) or whose
	// users log in, so that a gate on them fails a run that had none rather than pass it.
	{Name: "extract_failures", aliases: []string{"extract"}, Kind: FigureCount,
		run: extractFailures, Needs: "#@extract rules",
		url:     urlFigure(func(u *URLStats) float64 { return float64(u.ExtractFailures) }),
		Compare: CompareView{Key: "extract_failures", Title: "Extract failures", Scale: 1}},
	{Name: "login_failures", Kind: FigureCount,
		run: loginFailures, Needs: "login steps",
		Compare: CompareView{Key: "login_failures", Title: "Login failures", Scale: 1}},
	{Name: "users_never_logged_in", aliases: []string{"never_logged_in"}, Kind: FigureCount,
		run: neverLoggedIn, Needs: "login steps",
		Compare: CompareView{Key: "users_never_logged_in", Title: "Never logged in", Scale: 1}},
}

// percentileFigure is the latency percentile q (0-100, 100 being the maximum), of the run and of
// each URL: read from the field that keeps it (Percentiles, URLStats.Percentile) or else from the
// histogram, so that any percentile is measured wherever its histogram is kept (p(N), see
// lookupPercentile). The maximum has no quantile test: at q = 100 the test cannot see a change.
func percentileFigure(name string, q float64) Figure {
	return Figure{Name: name, Kind: FigureTime, Latency: true, Summary: name + " (ms)", Percentile: q,
		run:     func(r *Report) (float64, bool) { return runPercentile(r, q) },
		url:     func(u *URLStats) (float64, bool) { return urlPercentile(u, q) },
		Compare: CompareView{Key: name, Title: name, Unit: "ms", Scale: 1000, Decimals: 1, Quantile: q}}
}

// maxFigure is the longest transaction as a percentile's column: p(100).
func maxFigure() Figure {
	f := percentileFigure("max", 100)
	f.Summary, f.Compare.Title, f.Compare.Quantile = "Max (ms)", "Max", 0
	return f
}

// capacityRate is the capacity a search found; a plain run measured none.
func capacityRate(r *Report) (float64, bool) {
	if r.Capacity == nil {
		return 0, false
	}
	return r.Capacity.Rate, true
}

func runFigure(f func(*Report) float64) func(*Report) (float64, bool) {
	return func(r *Report) (float64, bool) { return f(r), true }
}

func urlFigure(f func(*URLStats) float64) func(*URLStats) (float64, bool) {
	return func(u *URLStats) (float64, bool) { return f(u), true }
}

// share is part as a percent of part+rest, and 0 when both are 0, as siege's availability is.
func share(part, rest int64) float64 {
	if part+rest == 0 {
		return 0
	}
	return float64(part) / float64(part+rest) * 100
}

// LookupFigure finds a figure by its name or any alias, in any case, or a latency percentile
// written p(N) for any N above 0 and at most 100 (see lookupPercentile).
func LookupFigure(name string) (Figure, bool) {
	if f, ok := listedFigure(name); ok {
		return f, true
	}
	return lookupPercentile(name)
}

// listedFigure finds a figure of the list by its name or any alias, in any case.
func listedFigure(name string) (Figure, bool) {
	name = strings.ToLower(name)
	for _, f := range Figures {
		if f.Name == name {
			return f, true
		}
		for _, a := range f.aliases {
			if a == name {
				return f, true
			}
		}
	}
	return Figure{}, false
}

// FigureNames lists the canonical names of the figures that keep, in the list's order, and p(N)
// when keep takes a percentile, as "a, b or c" for messages.
func FigureNames(keep func(Figure) bool) string {
	var names []string
	for _, f := range Figures {
		if keep(f) {
			names = append(names, f.Name)
		}
	}
	if keep(percentileFigure(percentileForm, 75)) {
		names = append(names, percentileForm)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func PerRun(f Figure) bool { return f.run != nil }

func PerURL(f Figure) bool { return f.url != nil }

// FiguresNamed picks figures by canonical name, in the order given, for a view that shows some
// of them; a name not in the list is left out (the views' tests name every one they expect).
func FiguresNamed(names ...string) []Figure {
	var out []Figure
	for _, n := range names {
		if f, ok := LookupFigure(n); ok && f.Name == n {
			out = append(out, f)
		}
	}
	return out
}

// Display picks the scale, decimals and unit a value of this metric is shown in: times in ms up
// to 10 s and in seconds beyond, where ms digits stop being useful.
func Display(m Figure, v float64) (scale float64, prec int, unit string) {
	switch m.Kind {
	case FigureTime:
		if v < 10 {
			return 1000, 3, " ms"
		}
		return 1, 3, " s"
	case FigurePercent:
		return 1, 3, " %"
	case FigureRate:
		return 1, 2, m.unit
	}
	return 1, 0, m.unit
}
