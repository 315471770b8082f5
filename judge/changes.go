package judge

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/webload/webload/changepoint"
	"github.com/webload/webload/stats"
)

// MinURLHits is how many hits a URL needs on a night for its figures of that night to count in
// its change points: below 20 hits a URL's p95 is its slowest request, which swings with any
// one request.
const MinURLHits = 20

// ChangeSection lists where the figures of a history changed level (package changepoint),
// over every result of the history, not only the window a Trend judges: a step stays listed
// after half the window shares it, and a slow drift shows as the steps it adds up to. Its
// methods are not safe for concurrent use: they share one changepoint.Detector.
type ChangeSection struct {
	// Nights is how many results the change points were looked for in, oldest first, and
	// Window how many of the newest the trend judged.
	Nights int `json:"nights"`
	Window int `json:"window"`
	// P, MinMagnitude and MinURLHits are what a change had to pass to be listed.
	P            float64 `json:"p"`
	MinMagnitude float64 `json:"min_magnitude"`
	MinURLHits   int64   `json:"min_url_hits"`
	// Changes are the change points of the whole run's figures, in the order of the trend's
	// table, then of the URLs', each in the order of the nights.
	Changes []ChangePoint `json:"changes"`

	// runs are the results, kept so that a limit on a figure outside the table is judged as a
	// line of it would be.
	runs   []stats.Report
	detect *changepoint.Detector
}

// ChangePoint is one change of one figure, of a whole run or of one URL, over a history.
type ChangePoint struct {
	Figure string `json:"figure"` // canonical name, as limits take it
	Key    string `json:"key"`    // the trend table's column
	Unit   string `json:"unit"`   // of Before, After, Low and High
	// Method and Path name the URL whose figure changed; "" for a whole run's figure.
	Method string `json:"method,omitempty"`
	Path   string `json:"path,omitempty"`
	// Index is the night the change began, 0 being the oldest of the history; Night is when
	// that night's run started (UTC, "" when the result does not say) and Label its --label,
	// which nightly jobs set to the commit under test.
	Index int    `json:"index"`
	Night string `json:"night"`
	Label string `json:"label"`
	// Before and After are the figure's means over the nights either side, up to the change
	// before and to the next, outlier nights left out; BeforeNights and AfterNights count them.
	Before       float64 `json:"before"`
	After        float64 `json:"after"`
	BeforeNights int     `json:"before_nights"`
	AfterNights  int     `json:"after_nights"`
	// Low and High bound the 95 % interval of After − Before.
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Change is After relative to Before (0.2 = +20 %), P the t-test's p-value.
	Change float64 `json:"change"`
	P      float64 `json:"p"`
	// Regression is a change the bad way for the figure; false for an improvement.
	Regression bool `json:"regression"`
	// InWindow says the change began inside the window the trend judges; false for one the
	// window has absorbed.
	InWindow bool `json:"in_window"`
}

// MarshalJSON writes a change from zero (±Inf) as null, since JSON has no infinity; Before and
// After still say what happened.
func (c ChangePoint) MarshalJSON() ([]byte, error) {
	type plain ChangePoint // without this method
	return json.Marshal(struct {
		plain
		Change *float64 `json:"change"`
	}{plain(c), finite(c.Change)})
}

// FindChanges looks for the change points of every figure of the trend's table over runs, the
// whole history oldest first, of which the trend judged the newest window, and of urlFigures
// for every URL on the nights it had at least MinURLHits hits.
func FindChanges(runs []stats.Report, window int, cfg changepoint.Config, urlFigures []stats.Figure) (ChangeSection, error) {
	s := ChangeSection{Nights: len(runs), Window: min(window, len(runs)), P: cfg.P, MinMagnitude: cfg.MinMagnitude,
		MinURLHits: MinURLHits, runs: runs}
	var err error
	if s.detect, err = changepoint.New(cfg); err != nil {
		return s, fmt.Errorf("find change points: %w", err)
	}
	for _, f := range tableFigures(runs) {
		s.Changes = append(s.Changes, s.figureChanges(f)...)
	}
	s.Changes = append(s.Changes, s.urlChanges(urlFigures)...)
	return s, nil
}

// figureChanges are the change points of a whole run's figure f. A night that counted f in
// another unit than the newest (see unlikeCounts) is left out, as the trend leaves it out.
func (s *ChangeSection) figureChanges(f stats.Figure) []ChangePoint {
	if len(s.runs) == 0 {
		return nil
	}
	newest := &s.runs[len(s.runs)-1]
	values := make([]float64, len(s.runs))
	for i := range s.runs {
		v, ok := f.Run(&s.runs[i])
		if !ok || unlikeCounts(f, &s.runs[i], newest, "", "") != "" {
			v = math.NaN()
		}
		values[i] = v * f.Compare.Scale
	}
	return s.points(f, values, urlKey{})
}

// urlKey names a URL as compare pairs URLs across results: the stacks of a history may differ
// in host.
type urlKey struct{ method, path string }

// urlChanges are the change points of each of figs for every URL of the history, in the order
// the URLs first appear, over the nights each had enough hits. Every result's URLs are read
// once, so a history of many nights and URLs costs what reading it does.
func (s *ChangeSection) urlChanges(figs []stats.Figure) []ChangePoint {
	if len(figs) == 0 {
		return nil
	}
	var order []urlKey
	series := map[urlKey][][]float64{} // by URL, by figure, by night
	for i := range s.runs {
		done := map[urlKey]bool{} // a URL listed twice counts by its first line
		for j := range s.runs[i].URLs {
			u := &s.runs[i].URLs[j]
			k := urlKey{u.Method, stats.RequestURI(u.URL)}
			if u.Login || done[k] {
				continue
			}
			done[k] = true
			vs, seen := series[k]
			if !seen {
				order = append(order, k)
				vs = make([][]float64, len(figs))
				for f := range vs {
					vs[f] = nanSeries(len(s.runs))
				}
				series[k] = vs
			}
			if u.Hits < MinURLHits {
				continue
			}
			for f, fig := range figs {
				if v, ok := fig.URL(u); ok {
					vs[f][i] = v * fig.Compare.Scale
				}
			}
		}
	}
	var out []ChangePoint
	for _, k := range order {
		for f, fig := range figs {
			out = append(out, s.points(fig, series[k][f], k)...)
		}
	}
	return out
}

func nanSeries(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}

// points finds the change points of values, one per night, and describes them as changes of
// figure f of the whole run (k zero) or of URL k.
func (s *ChangeSection) points(f stats.Figure, values []float64, k urlKey) []ChangePoint {
	res := s.detect.Detect(values)
	var out []ChangePoint
	for _, c := range res.Changes {
		r := &s.runs[c.Index]
		p := ChangePoint{Figure: f.Name, Key: f.Compare.Key, Unit: f.Compare.Unit, Method: k.method, Path: k.path,
			Index: c.Index, Label: stats.Printable(r.Label), Before: c.Before, After: c.After, BeforeNights: c.BeforeN,
			AfterNights: c.AfterN, Low: c.Lo, High: c.Hi, Change: c.Relative(), P: c.P,
			Regression: c.Worse(f.HigherIsBetter), InWindow: c.Index >= s.Nights-s.Window}
		if !r.Run.StartedAt.IsZero() {
			p.Night = r.Run.StartedAt.UTC().Format("2006-01-02 15:04")
		}
		out = append(out, p)
	}
	return out
}

// newest is the last change point of a whole run's figure f: where the newest segment began.
func (s *ChangeSection) newest(f stats.Figure) (ChangePoint, bool) {
	var last *ChangePoint
	found := false
	for i := range s.Changes {
		if c := &s.Changes[i]; c.Figure == f.Name && c.Path == "" && c.Method == "" {
			last, found = c, true
		}
	}
	if !found && !tableHas(s.runs, f) {
		if cs := s.figureChanges(f); len(cs) > 0 {
			return cs[len(cs)-1], true
		}
	}
	if !found {
		return ChangePoint{}, false
	}
	return *last, true
}

// tableHas tells whether the trend's table of runs has a line of f, whose change points
// FindChanges has already looked for.
func tableHas(runs []stats.Report, f stats.Figure) bool {
	for _, g := range tableFigures(runs) {
		if g.Name == f.Name {
			return true
		}
	}
	return false
}

// ForChanges is r without what change points do not read: its latency histograms, its
// timeline, and the runs of its series or the steps of its ladder. compare --history keeps the
// results before its window this way, so that years of nights of a long URL list fit in memory.
// The figures of the trend's table and every percentile a result keeps as a field read the
// same; a percentile it does not keep (p(99.5)) is then not measured on those nights.
func ForChanges(r stats.Report) stats.Report {
	r.Histogram, r.ServiceHistogram = "", ""
	r.Timeline, r.Repeats, r.Steps = nil, nil, nil
	r.URLs = slices.Clone(r.URLs)
	for i := range r.URLs {
		r.URLs[i].Histogram = ""
		r.URLs[i].Pages = nil
	}
	return r
}
