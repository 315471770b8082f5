package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/webload/webload/judge"
	"github.com/webload/webload/stats"
)

// figureRow is one line of the summary: a name with its unit, how to read the figure from a
// report and how to show it.
type figureRow struct {
	name string
	// value reads the figure in its base unit; ok is false for a figure the report does not
	// have (page figures of a plain run), NaN a figure it has but did not measure (a latency
	// of a run without transactions).
	value func(r *stats.Report) (v float64, ok bool)
	show  func(v float64) cell
	// pooled marks a percentile: for a --repeat series it is read from all the series'
	// transactions together, as compare does, where other figures are the mean of the runs.
	pooled bool
	// ifAny leaves the row out unless some result has a value other than zero: like the text
	// report, the page speaks of resent requests and cut visits only when there were some.
	ifAny bool
}

// listed is the row of a figure of stats' list (stats.LookupFigure), titled and read as the
// list says, so that the summary, the gates and compare agree on what each figure is. Times
// of transactions show in milliseconds, and a run without transactions has none (rather than
// a time of zero).
func listed(name string) figureRow {
	f, ok := stats.LookupFigure(name)
	if !ok {
		return figureRow{name: name, value: func(*stats.Report) (float64, bool) { return 0, false }, show: figure}
	}
	row := figureRow{name: f.Summary, show: figure, value: func(r *stats.Report) (float64, bool) {
		v, ok := f.Run(r)
		if ok && f.Latency && r.Transactions == 0 {
			v = math.NaN()
		}
		return v, ok
	}}
	switch {
	case f.Latency:
		row.show = millis
	case f.Kind == stats.FigureCount:
		row.show = countOf
	case f.Kind == stats.FigurePercent:
		row.show = percent
	}
	return row
}

// percentile is the row of a percentile of stats' list, pooled over a series' runs.
func percentile(name string) figureRow {
	row := listed(name)
	row.pooled = true
	return row
}

// plain is a row of a figure the page alone shows, which every report has.
func plain(name string, show func(float64) cell, value func(r *stats.Report) float64) figureRow {
	return figureRow{name: name, show: show, value: func(r *stats.Report) (float64, bool) { return value(r), true }}
}

// partRow is a row of a figure of a part some reports lack: part reads it, nil when absent.
func partRow[T any](name string, show func(float64) cell, part func(r *stats.Report) *T, value func(p *T) float64) figureRow {
	return figureRow{name: name, show: show, value: func(r *stats.Report) (float64, bool) {
		p := part(r)
		if p == nil {
			return 0, false
		}
		return value(p), true
	}}
}

// pages is a row of a page figure, which a report has when users loaded pages like a browser.
func pages(name string, show func(float64) cell, value func(p *stats.PageStats) float64) figureRow {
	return partRow(name, show, func(r *stats.Report) *stats.PageStats { return r.Pages }, value)
}

// pageLatency is a page load time, which only pages that loaded have.
func pageLatency(name string, value func(p *stats.PageStats) float64) figureRow {
	return partLatency(func(r *stats.Report) *stats.PageStats { return r.Pages },
		pages(name, millis, value),
		func(p *stats.PageStats) bool { return p.Pages == p.Failed })
}

// partLatency makes row, of a time of a part of reports, show none where every request of the
// part failed (allFailed), and read a --repeat series' time from all its requests together, as
// the run's percentiles are.
func partLatency[T any](part func(r *stats.Report) *T, row figureRow, allFailed func(p *T) bool) figureRow {
	value := row.value
	row.value = func(r *stats.Report) (float64, bool) {
		v, ok := value(r)
		if ok && allFailed(part(r)) {
			v = math.NaN()
		}
		return v, ok
	}
	row.pooled = true
	return row
}

// countOf shows a count, or the mean of counts, which may have a fraction.
func countOf(v float64) cell {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return count(int64(v))
	}
	return figure(v)
}

// summaryRows are siege's summary in its order, then the percentiles and webload's own figures:
// the figures of stats' list by name, and beside them those only the page shows. Times of
// transactions are in milliseconds, sizes in siege's MB of 2^20 bytes. The logins and
// extractions (sessionRows) come last, shown when a result had some. A capacity search's
// result (webload capacity) is headed by the capacity it found.
var summaryRows = append([]figureRow{
	listed("capacity"),
	listed("transactions"),
	listed("availability"),
	listed("elapsed"),
	plain("Data transferred (MB)", figure, func(r *stats.Report) float64 { return r.DataTransferred }),
	listed("rtime"),
	listed("trate"),
	listed("throughput"),
	listed("concurrency"),
	listed("successful"),
	listed("failed"),
	listed("longest"),
	listed("shortest"),
	percentile("p50"),
	percentile("p90"),
	percentile("p95"),
	percentile("p99"),
	percentile("p99.9"),
	listed("max"),
	listed("requests"),
	withIfAny(plain("Resent requests", countOf, func(r *stats.Report) float64 { return float64(r.Resent) })),
	plain("Connections opened", countOf, func(r *stats.Report) float64 { return float64(r.ConnectionsOpened) }),
	withIfAny(plain("HTTP/2 GOAWAY frames", countOf, func(r *stats.Report) float64 { return float64(r.HTTP2GoAways) })),
	withIfAny(plain("HTTP/2 RST_STREAM frames", countOf, func(r *stats.Report) float64 { return float64(r.HTTP2Resets) })),
	withIfAny(plain("HTTP/2 requests sent again", countOf, func(r *stats.Report) float64 { return float64(r.HTTP2Retries) })),
	plain("Users", countOf, func(r *stats.Report) float64 { return float64(r.Users.Count) }),
	pages("Pages", countOf, func(p *stats.PageStats) float64 { return float64(p.Pages) }),
	pages("Failed pages", countOf, func(p *stats.PageStats) float64 { return float64(p.Failed) }),
	withIfAny(pages("Pages cut short by the end of the run", countOf, func(p *stats.PageStats) float64 { return float64(p.Cut) })),
	pageLatency("Page load p50 (ms)", func(p *stats.PageStats) float64 { return p.Percentiles.P50 }),
	pageLatency("Page load p95 (ms)", func(p *stats.PageStats) float64 { return p.Percentiles.P95 }),
	pageLatency("Page load p99 (ms)", func(p *stats.PageStats) float64 { return p.Percentiles.P99 }),
	pages("Resources", countOf, func(p *stats.PageStats) float64 { return float64(p.Resources) }),
	pages("Failed resources", countOf, func(p *stats.PageStats) float64 { return float64(p.ResourceFailures) }),
	pages("Redirects", countOf, func(p *stats.PageStats) float64 { return float64(p.Redirects) }),
	// The database's figures (--db), shown when a result measured them.
	listed("qps"),
	listed("q/t"),
	listed("slow"),
	listed("rows/t"),
	listed("buffer_hit_ratio"),
	listed("deadlocks"),
}, sessionRows...)

func withIfAny(row figureRow) figureRow {
	row.ifAny = true
	return row
}

// summaryTable puts the results' summaries side by side. A figure no result has (page figures
// of plain runs) is left out; one that only some have shows "-" for the others. A --repeat
// series shows each figure per run, as compare does (see seriesCell), and its column says so.
func summaryTable(results []stats.Report) table {
	t := table{Columns: []column{{Title: "Figure", Sticky: true}}}
	for i := range results {
		title, hint := stats.Label(&results[i], i), ""
		if n := len(results[i].Repeats); n > 1 {
			title += fmt.Sprintf(" (per run, mean of %d)", n)
			hint = "per run of the series, the mean of its runs ± their standard deviation, as compare shows them; " +
				"percentiles of all its transactions together"
		}
		t.Columns = append(t.Columns, column{Title: title, Num: true, Hint: hint})
	}
	for _, f := range summaryRows {
		row := []cell{text(f.name)}
		seen := false
		for i := range results {
			c, ok := f.cell(&results[i])
			seen = seen || ok && (!f.ifAny || c.Key != 0)
			row = append(row, c)
		}
		if seen {
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// cell is the row's figure for one result: ok is false when the result does not have it.
func (f figureRow) cell(r *stats.Report) (cell, bool) {
	v, ok := f.value(r)
	switch {
	case !ok:
		return none(), false
	case len(r.Repeats) > 1 && !f.pooled:
		return f.seriesCell(r.Repeats), true
	case math.IsNaN(v):
		return none(), true
	}
	return f.show(v), true
}

// seriesCell is a figure of a --repeat series on compare's basis: the mean of its runs'
// values, with their standard deviation when they differ. Runs that did not measure it are
// left out.
func (f figureRow) seriesCell(runs []stats.Report) cell {
	var vals []float64
	for i := range runs {
		if v, ok := f.value(&runs[i]); ok && !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return none()
	}
	mean, sd := judge.MeanSD(vals)
	c := f.show(mean)
	if len(vals) > 1 {
		c.Text += spreadText(sd, f.show)
	}
	return c
}

// statusTable counts responses by status code, a count and a share column per result.
func statusTable(results []stats.Report) table {
	t := table{Columns: []column{{Title: "Status"}}, Sortable: true}
	var codes []string
	for i := range results {
		r := &results[i]
		t.Columns = append(t.Columns, column{Title: stats.Label(r, i), Num: true},
			column{Title: "share", Num: true, Hint: "of the responses of " + stats.Label(r, i)})
		for code := range r.StatusCodes {
			if !slices.Contains(codes, code) {
				codes = append(codes, code)
			}
		}
	}
	slices.SortFunc(codes, compareCodes)
	for _, code := range codes {
		row := []cell{statusCell(code)}
		for i := range results {
			total := int64(0)
			for _, n := range results[i].StatusCodes {
				total += n
			}
			n := results[i].StatusCodes[code]
			row = append(row, count(n), percent(100*float64(n)/float64(max(total, 1))))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// statusCell is a status code, sorted by its number.
func statusCell(code string) cell {
	n, err := strconv.Atoi(code)
	if err != nil {
		return text(code)
	}
	return cell{Text: code, Key: float64(n)}
}

// compareCodes orders status codes by number, anything else after them by text.
func compareCodes(a, b string) int {
	x, errX := strconv.Atoi(a)
	y, errY := strconv.Atoi(b)
	switch {
	case errX == nil && errY == nil:
		return x - y
	case errX == nil:
		return -1
	case errY == nil:
		return 1
	}
	return strings.Compare(a, b)
}

// errorTable counts requests that got no response, by kind, with the first message seen.
func errorTable(results []stats.Report) table {
	t := table{Columns: []column{{Title: "Error"}}, Sortable: true}
	var kinds []string
	for i := range results {
		t.Columns = append(t.Columns, column{Title: stats.Label(&results[i], i), Num: true})
		for k := range results[i].Errors {
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	t.Columns = append(t.Columns, column{Title: "First message", Hint: "the first message seen for this kind of error"})
	slices.Sort(kinds)
	for _, k := range kinds {
		row := []cell{text(k)}
		sample := ""
		for i := range results {
			row = append(row, count(results[i].Errors[k]))
			if sample == "" {
				sample = results[i].ErrorSamples[k]
			}
		}
		t.Rows = append(t.Rows, append(row, text(sample)))
	}
	return t
}

// spreadText is " ± sd" as show writes it, or "" when that shows no digit other than zero: runs
// that agree (or differ only by rounding, 1e-14) have no spread worth a "± 0.000000".
func spreadText(sd float64, show func(float64) cell) string {
	s := show(sd).Text
	if !(sd > 0) || strings.Trim(s, "0. %\u202f") == "" {
		return ""
	}
	return " ± " + s
}
