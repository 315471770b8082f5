package judge

import (
	"fmt"
	"slices"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/webload/webload/stats"
)

// URLChange is one URL's figure (p95 unless Figure says otherwise) in the baseline and a
// candidate.
type URLChange struct {
	Label  string `json:"label"`
	Method string `json:"method"`
	Path   string `json:"path"`
	// Figure is the canonical name of the figure the line is about (p95, rtime, p(99.5)), and
	// Base and Value are the figure in the baseline and the candidate, in seconds.
	Figure string  `json:"figure"`
	Base   float64 `json:"base"`
	Value  float64 `json:"value"`
	// BaseP95 and P95 are the URL's p95 in seconds, whichever figure the line is about: the
	// fields a line had when p95 was the only figure listed.
	BaseP95 float64 `json:"base_p95"`
	P95     float64 `json:"p95"`
	// Change is the figure's relative change (0.1 = +10 %).
	Change float64 `json:"change"`
	// Verdict comes from a test of the URL's figure on its two latency distributions: with the
	// few requests a URL gets, a large change in p95 is often noise.
	Verdict string   `json:"verdict"`
	P       *float64 `json:"p,omitempty"`
	// BaseHits and Hits are the URL's transactions in each run: what its test had to go on.
	BaseHits int64 `json:"base_hits"`
	Hits     int64 `json:"hits"`
	// Test names the test that judged the change.
	Test string `json:"test,omitempty"`
}

// figure is the line's figure with its two values, a line made without Figure being about p95.
func (u URLChange) figure() (name string, base, value float64) {
	if u.Figure == "" {
		return "p95", u.BaseP95, u.P95
	}
	return u.Figure, u.Base, u.Value
}

// urlChangeFigure tells whether --per-url can list f: a response time kept per URL, which the
// lines show in ms and judge on the URL's latency distributions.
func urlChangeFigure(f stats.Figure) bool { return stats.PerURL(f) && f.Latency }

// ParseURLFigures reads the figures --per-url lists, such as "p99,rtime,p(99.5)": response
// times kept per URL, named as --assert names them. A figure named twice is listed once.
func ParseURLFigures(s string) ([]stats.Figure, error) {
	var out []stats.Figure
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if _, form, err := stats.ParsePercentileName(name); form && err != nil {
			return nil, err
		}
		f, ok := stats.LookupFigure(name)
		switch {
		case name == "":
			return nil, fmt.Errorf("empty figure in %q: want figures such as p99,rtime", s)
		case !ok && stats.NearPercentile(name) != "":
			return nil, fmt.Errorf("unknown figure %q: write %s for that percentile", name, stats.NearPercentile(name))
		case !ok:
			return nil, fmt.Errorf("unknown figure %q (known per URL: %s)", name, stats.FigureNames(urlChangeFigure))
		case !urlChangeFigure(f):
			return nil, fmt.Errorf("%s is not a response time kept per URL (want %s)", name, stats.FigureNames(urlChangeFigure))
		}
		if !slices.ContainsFunc(out, func(g stats.Figure) bool { return g.Name == f.Name }) {
			out = append(out, f)
		}
	}
	return out, nil
}

// ListURLChanges sets URLChanges to the URLs whose figures changed most, for each of figs
// (from ParseURLFigures) in turn and each candidate in the order compared: --per-url. Each URL's
// histograms are decoded once for all the figures.
func (c *Comparison) ListURLChanges(figs []stats.Figure) {
	perFigure := make([][]URLChange, len(figs))
	for i := 1; i < len(c.reports) && i < len(c.Rows); i++ {
		for k, lines := range urlChanges(&c.reports[0], &c.reports[i], c.Rows[i].Label, figs) {
			perFigure[k] = append(perFigure[k], lines...)
		}
	}
	c.URLChanges = nil
	for _, lines := range perFigure {
		c.URLChanges = append(c.URLChanges, lines...)
	}
}

// urlChanges pairs URLs by method and path (the stacks under test often differ in host), judges
// each URL's figures as the table's columns are judged for single runs, and keeps, for each
// figure, the five URLs that rose and the five that fell with the most certainty: significant
// before inconclusive before within noise, then the best measured (most hits on the scarcer
// side), then the largest change. Ordering by change alone would fill the list with few-hit
// URLs, whose figures swing most.
func urlChanges(base, r *stats.Report, label string, figs []stats.Figure) [][]URLChange {
	byKey := map[string]*stats.URLStats{}
	for i := range base.URLs {
		u := &base.URLs[i]
		byKey[u.Method+" "+stats.RequestURI(u.URL)] = u
	}
	rises, falls := make([][]URLChange, len(figs)), make([][]URLChange, len(figs))
	for i := range r.URLs {
		u := &r.URLs[i]
		b, ok := byKey[u.Method+" "+stats.RequestURI(u.URL)]
		if !ok || b.Hits == 0 || u.Hits == 0 {
			continue
		}
		hb, errB := stats.DecodeHistogram(b.Histogram)
		hu, errU := stats.DecodeHistogram(u.Histogram)
		decoded := errB == nil && errU == nil
		for k, f := range figs {
			bv, okB := urlValue(f, b, hb, decoded)
			v, okU := urlValue(f, u, hu, decoded)
			if !okB || !okU {
				continue
			}
			ch := URLChange{Label: label, Method: u.Method, Path: stats.RequestURI(u.URL), Figure: f.Name, Base: bv, Value: v,
				BaseP95: b.P95, P95: u.P95, Change: relChange(bv, v), Verdict: NoEstimate, BaseHits: b.Hits, Hits: u.Hits}
			if decoded {
				cell := CompareCell{Measured: true, Value: v}
				judge(&cell, CompareCell{Measured: true, Value: bv}, f, nil, nil, hb, hu)
				ch.Verdict, ch.P, ch.Test = cell.Verdict, cell.P, cell.Test
			}
			switch {
			case ch.Change > 0:
				rises[k] = append(rises[k], ch)
			case ch.Change < 0:
				falls[k] = append(falls[k], ch)
			}
		}
	}
	out := make([][]URLChange, len(figs))
	for k := range figs {
		sortChanges(rises[k])
		sortChanges(falls[k])
		out[k] = append(rises[k][:min(5, len(rises[k])):min(5, len(rises[k]))], falls[k][:min(5, len(falls[k]))]...)
	}
	return out
}

// urlValue is figure f of URL u, whose histogram h is decoded when decoded is set: a percentile
// the URL's fields do not keep is read from h rather than decoded once more.
func urlValue(f stats.Figure, u *stats.URLStats, h *hdr.Histogram, decoded bool) (float64, bool) {
	if q := f.Percentile; decoded && q > 0 && q < 100 {
		if v, ok := u.Percentile(q); ok {
			return v, true
		}
		return stats.CappedQuantile(h, q, u.Max), true
	}
	return f.URL(u)
}
