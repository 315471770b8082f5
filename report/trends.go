package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/webload/webload/changepoint"
	"github.com/webload/webload/judge"
	"github.com/webload/webload/stats"
)

// Night is one result of a nightly history, as the trend page shows it.
type Night struct {
	Result stats.Report
	// Link is the address of the night's own report, relative to the trend page (see
	// NightLink); "" when the history has none.
	Link string
}

// TrendOptions shape the trend page.
type TrendOptions struct {
	// Title heads the page; "" makes one from the first and last nights.
	Title string
	// Changes is how strict the change points are (changepoint.DefaultConfig for the zero
	// value).
	Changes changepoint.Config
	// URLFigures are the figures of each URL whose change points are listed; nil means p95.
	URLFigures []stats.Figure
}

// maxURLChangeRows is how many change points of URLs the page's table shows, the largest first:
// a change of the whole site moves every URL, and the table is for the ones that moved most.
const maxURLChangeRows = 30

// trendsData is the trend page's data: what assets/trends.js draws.
type trendsData struct {
	Title    string `json:"title"`
	Subtitle string `json:"subtitle"`
	// Rule says how change points were found, for the reader to judge them.
	Rule    string        `json:"rule"`
	Nights  []trendsNight `json:"nights"`
	Figures []trendsChart `json:"figures"`
	// URLChanges are the largest change points of URLs; MoreURLChanges counts those left out.
	URLChanges     table    `json:"url_changes"`
	MoreURLChanges int      `json:"more_url_changes"`
	Notes          []string `json:"notes,omitempty"`
}

// trendsNight is one night of the x axis.
type trendsNight struct {
	Label string `json:"label"`
	Date  string `json:"date"` // when the run started, UTC "2006-01-02 15:04"; "" when unknown
	Link  string `json:"link,omitempty"`
}

// trendsChart is one headline figure over the nights, with its change points.
type trendsChart struct {
	Key    string       `json:"key"`
	Name   string       `json:"name"`
	Unit   string       `json:"unit"`
	Values []*float64   `json:"values"` // per night, oldest first; null where not measured
	Marks  []trendsMark `json:"changes"`
}

// trendsMark is a change point drawn on a chart, before the night it began.
type trendsMark struct {
	Index      int    `json:"index"` // the night the change began, 0 the oldest
	Text       string `json:"text"`  // "15.3 → 59.6 ms (+288.3 %)"
	Regression bool   `json:"regression"`
}

// WriteTrendsHTML writes one self-contained page of a nightly history, oldest night first: each
// headline figure of the trend table over the nights with its change points marked, the per-URL
// figures that changed most, and a link from each night to its own report when it has one.
// Like WriteHTML's page it opens offline and makes no request.
func WriteTrendsHTML(w io.Writer, nights []Night, opt TrendOptions) error {
	if len(nights) == 0 {
		return ErrNoResults
	}
	data, err := buildTrends(nights, opt)
	if err != nil {
		return fmt.Errorf("trend page: %w", err)
	}
	blob, err := json.Marshal(data) // escapes <, > and &: no text can close its element
	if err != nil {
		return fmt.Errorf("trend page: encode data: %w", err)
	}
	var b bytes.Buffer
	err = trendsTemplate.Execute(&b, pageAssets{
		CSP:      trendsPolicy,
		UPlotCSS: template.CSS(uplotCSS),
		CSS:      template.CSS(reportCSS + trendsCSS),
		Data:     template.JS(blob),
		UPlotJS:  template.JS(uplotJS),
		CommonJS: template.JS(commonJS),
		JS:       template.JS(trendsJS),
	})
	if err != nil {
		return fmt.Errorf("trend page: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("trend page: %w", err)
	}
	return nil
}

func buildTrends(nights []Night, opt TrendOptions) (trendsData, error) {
	var d trendsData
	runs := make([]stats.Report, len(nights))
	for i, n := range nights {
		runs[i] = n.Result
		tn := trendsNight{Label: stats.Printable(n.Result.Label), Link: n.Link}
		if at := n.Result.Run.StartedAt; !at.IsZero() {
			tn.Date = at.UTC().Format("2006-01-02 15:04")
		}
		d.Nights = append(d.Nights, tn)
	}
	// The trend's table names the headline figures and reads them from each night, as compare
	// --history shows them; its judgement of the newest night is not drawn.
	trend, err := judge.NewTrend(runs, 2)
	if err != nil {
		return d, err
	}
	cfg := opt.Changes
	if cfg == (changepoint.Config{}) {
		cfg = changepoint.DefaultConfig()
	}
	urlFigures := opt.URLFigures
	if len(urlFigures) == 0 {
		if urlFigures, err = judge.ParseURLFigures("p95"); err != nil {
			return d, err
		}
	}
	changes, err := judge.FindChanges(runs, len(runs), cfg, urlFigures)
	if err != nil {
		return d, err
	}
	var urlChanges []judge.ChangePoint
	for _, c := range changes.Changes {
		if c.Path != "" || c.Method != "" {
			urlChanges = append(urlChanges, c)
		}
	}
	for _, l := range trend.Figures {
		ch := trendsChart{Key: l.Key, Name: l.Name, Unit: l.Unit}
		for _, v := range l.Values {
			ch.Values = append(ch.Values, finite(v))
		}
		for _, c := range changes.Changes {
			if c.Key == l.Key && c.Path == "" && c.Method == "" {
				ch.Marks = append(ch.Marks, trendsMark{Index: c.Index, Text: stepText(c), Regression: c.Regression})
			}
		}
		d.Figures = append(d.Figures, ch)
	}
	for _, name := range extraTrendFigures {
		if f, ok := stats.LookupFigure(name); ok {
			d.Figures = append(d.Figures, extraChart(runs, f, &changes))
		}
	}
	// A figure no night measured (the load average where the machine does not tell) would be
	// an empty chart.
	d.Figures = slices.DeleteFunc(d.Figures, func(c trendsChart) bool {
		return !slices.ContainsFunc(c.Values, func(v *float64) bool { return v != nil })
	})
	d.URLChanges, d.MoreURLChanges = urlStepTable(urlChanges)
	d.Notes = trend.Notes
	d.Title, d.Subtitle = trendsTitle(d.Nights, opt.Title)
	d.Rule = fmt.Sprintf("Change points over all %d nights: E-divisive means, t-test p < %g, at least %s%%; a URL's figures count on nights with %d hits or more.",
		len(nights), cfg.P, strconv.FormatFloat(cfg.MinMagnitude*100, 'g', 3, 64), judge.MinURLHits)
	return d, nil
}

// extraTrendFigures are drawn after the trend table's figures: a night's availability is what
// a nightly site check reads first, though compare's table shows the counts it comes from.
var extraTrendFigures = []string{"availability"}

// extraChart is figure f over the nights, with its change points.
func extraChart(runs []stats.Report, f stats.Figure, changes *judge.ChangeSection) trendsChart {
	ch := trendsChart{Key: f.Compare.Key, Name: f.Compare.Title, Unit: f.Compare.Unit}
	for i := range runs {
		v, ok := f.Run(&runs[i])
		if !ok {
			v = math.NaN()
		}
		ch.Values = append(ch.Values, finite(v*f.Compare.Scale))
	}
	for _, c := range changes.FigureChanges(f) {
		ch.Marks = append(ch.Marks, trendsMark{Index: c.Index, Text: stepText(c), Regression: c.Regression})
	}
	return ch
}

// trendsTitle is the page's title and the line under it: how many nights, from when to when.
func trendsTitle(nights []trendsNight, title string) (string, string) {
	name := func(n trendsNight) string {
		switch {
		case n.Date != "" && n.Label != "":
			return n.Date + " (" + n.Label + ")"
		case n.Date != "":
			return n.Date
		}
		return n.Label
	}
	first, last := nights[0], nights[len(nights)-1]
	if title == "" {
		title = "webload trends"
		if last.Label != "" {
			title += ": " + last.Label
		}
	}
	if len(nights) == 1 {
		return title, "1 night, " + name(first)
	}
	return title, fmt.Sprintf("%d nights, %s to %s", len(nights), name(first), name(last))
}

// urlStepTable lists the change points of URLs, the largest relative change first, up to
// maxURLChangeRows; it returns how many it left out.
func urlStepTable(cs []judge.ChangePoint) (table, int) {
	slices.SortStableFunc(cs, func(x, y judge.ChangePoint) int {
		return cmp.Compare(math.Abs(y.Change), math.Abs(x.Change)) // NaN never comes: ±Inf sorts first
	})
	t := table{Columns: []column{
		{Title: "URL", Sticky: true}, {Title: "Figure"}, {Title: "From night", Num: true}, {Title: "Date"}, {Title: "Label"},
		{Title: "Before", Num: true}, {Title: "After", Num: true}, {Title: "Change", Num: true, Hint: "after relative to before"},
		{Title: "", Hint: "a regression or an improvement for this figure"},
	}}
	more := max(0, len(cs)-maxURLChangeRows)
	for _, c := range cs[:min(len(cs), maxURLChangeRows)] {
		way, class := "improvement", "better"
		if c.Regression {
			way, class = "regression", "worse"
		}
		name := c.Figure
		if c.Unit != "" {
			name += " " + c.Unit
		}
		t.Rows = append(t.Rows, []cell{
			text(c.Method + " " + c.Path), text(name), count(int64(c.Index + 1)), text(c.Night), text(c.Label),
			figure(c.Before), figure(c.After), {Text: changePercent(c.Change), Key: c.Change, Class: class}, {Text: way, Key: math.NaN(), Class: class},
		})
	}
	return t, more
}

// stepText is a change point's size: "15.3 → 59.6 ms (+288.3 %)".
func stepText(c judge.ChangePoint) string {
	unit := ""
	if c.Unit != "" {
		unit = " " + c.Unit
	}
	return sig(c.Before) + " → " + sig(c.After) + unit + " (" + changePercent(c.Change) + ")"
}

// changePercent is a relative change in percent; a change from zero (±Inf) has no percentage.
func changePercent(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return "from 0"
	}
	return fmt.Sprintf("%+.1f %%", v*100)
}

// finite is v, or nil for JSON's null when v is not a number JSON can hold (NaN: not measured).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
