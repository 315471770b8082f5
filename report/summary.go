package report

import (
	"slices"
	"strconv"
	"strings"

	"github.com/webload/webload/stats"
)

// figureRow is one line of the summary: a name with its unit, and how to read it from a report
// (ok false for a figure the report does not have, such as page figures of a plain run).
type figureRow struct {
	name  string
	value func(r *stats.Report) (cell, bool)
	// ifAny leaves the row out unless some result has a value other than zero: like the text
	// report, the page speaks of resent requests and cut visits only when there were some.
	ifAny bool
}

func always(f func(r *stats.Report) cell) func(r *stats.Report) (cell, bool) {
	return func(r *stats.Report) (cell, bool) { return f(r), true }
}

// listed is the row of a figure of stats' list (stats.LookupFigure), titled and read as the
// list says, so that the summary, the gates and compare agree on what each figure is.
func listed(name string) figureRow {
	f, ok := stats.LookupFigure(name)
	if !ok {
		return figureRow{name: name, value: func(*stats.Report) (cell, bool) { return cell{}, false }}
	}
	return figureRow{name: f.Summary, value: func(r *stats.Report) (cell, bool) { return listedCell(f, r) }}
}

// listedCell shows a figure by its kind: times of transactions in milliseconds, which a run
// without transactions does not have (rather than a time of zero), the elapsed time in seconds.
func listedCell(f stats.Figure, r *stats.Report) (cell, bool) {
	v, ok := f.Run(r)
	switch {
	case !ok:
		return cell{}, false
	case f.Latency && r.Transactions == 0:
		return none(), true
	case f.Latency:
		return millis(v), true
	case f.Kind == stats.FigureCount:
		return count(int64(v)), true
	case f.Kind == stats.FigurePercent:
		return percent(v), true
	}
	return figure(v), true
}

// pages reads a page figure, when users loaded pages like a browser.
func pages(f func(p *stats.PageStats) cell) func(r *stats.Report) (cell, bool) {
	return func(r *stats.Report) (cell, bool) {
		if r.Pages == nil {
			return cell{}, false
		}
		return f(r.Pages), true
	}
}

// pageLatency is a page load time, which only pages that loaded have.
func pageLatency(p *stats.PageStats, seconds float64) cell {
	if p.Pages == p.Failed {
		return none()
	}
	return millis(seconds)
}

// summaryRows are siege's summary in its order, then the percentiles and webload's own figures:
// the figures of stats' list by name, and beside them those only the page shows. Times of
// transactions are in milliseconds, sizes in siege's MB of 2^20 bytes.
var summaryRows = []figureRow{
	listed("transactions"),
	listed("availability"),
	listed("elapsed"),
	{name: "Data transferred (MB)", value: always(func(r *stats.Report) cell { return figure(r.DataTransferred) })},
	listed("rtime"),
	listed("trate"),
	listed("throughput"),
	listed("concurrency"),
	listed("successful"),
	listed("failed"),
	listed("longest"),
	listed("shortest"),
	listed("p50"),
	listed("p90"),
	listed("p95"),
	listed("p99"),
	listed("p99.9"),
	listed("max"),
	listed("requests"),
	{name: "Resent requests", value: always(func(r *stats.Report) cell { return count(r.Resent) }), ifAny: true},
	{name: "Connections opened", value: always(func(r *stats.Report) cell { return count(r.ConnectionsOpened) })},
	{name: "Users", value: always(func(r *stats.Report) cell { return count(int64(r.Users.Count)) })},
	{name: "Pages", value: pages(func(p *stats.PageStats) cell { return count(p.Pages) })},
	{name: "Failed pages", value: pages(func(p *stats.PageStats) cell { return count(p.Failed) })},
	{name: "Pages cut short by the end of the run", value: pages(func(p *stats.PageStats) cell { return count(p.Cut) }), ifAny: true},
	{name: "Page load p50 (ms)", value: pages(func(p *stats.PageStats) cell { return pageLatency(p, p.Percentiles.P50) })},
	{name: "Page load p95 (ms)", value: pages(func(p *stats.PageStats) cell { return pageLatency(p, p.Percentiles.P95) })},
	{name: "Page load p99 (ms)", value: pages(func(p *stats.PageStats) cell { return pageLatency(p, p.Percentiles.P99) })},
	{name: "Resources", value: pages(func(p *stats.PageStats) cell { return count(p.Resources) })},
	{name: "Failed resources", value: pages(func(p *stats.PageStats) cell { return count(p.ResourceFailures) })},
	{name: "Redirects", value: pages(func(p *stats.PageStats) cell { return count(p.Redirects) })},
}

// summaryTable puts the results' summaries side by side. A figure no result has (page figures
// of plain runs) is left out; one that only some have shows "-" for the others.
func summaryTable(results []stats.Report) table {
	t := table{Columns: []column{{Title: "Figure"}}}
	for i := range results {
		t.Columns = append(t.Columns, column{Title: stats.Label(&results[i], i), Num: true})
	}
	for _, f := range summaryRows {
		row := []cell{text(f.name)}
		seen := false
		for i := range results {
			c, ok := f.value(&results[i])
			if !ok {
				c = none()
			}
			seen = seen || ok && (!f.ifAny || c.Key != 0)
			row = append(row, c)
		}
		if seen {
			t.Rows = append(t.Rows, row)
		}
	}
	return t
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
