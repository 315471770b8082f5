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

// latency reads a time of the transactions, which a run without one does not have (rather
// than a time of zero).
func latency(f func(r *stats.Report) float64) func(r *stats.Report) (cell, bool) {
	return func(r *stats.Report) (cell, bool) {
		if r.Transactions == 0 {
			return none(), true
		}
		return millis(f(r)), true
	}
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

// summaryRows are siege's summary in its order, then the percentiles and webload's own figures.
// Times are in milliseconds, sizes in siege's MB of 2^20 bytes.
var summaryRows = []figureRow{
	{name: "Transactions", value: always(func(r *stats.Report) cell { return count(r.Transactions) })},
	{name: "Availability", value: always(func(r *stats.Report) cell { return percent(r.Availability) })},
	{name: "Elapsed time (s)", value: always(func(r *stats.Report) cell { return figure(r.ElapsedTime) })},
	{name: "Data transferred (MB)", value: always(func(r *stats.Report) cell { return figure(r.DataTransferred) })},
	{name: "Response time (ms)", value: latency(func(r *stats.Report) float64 { return r.ResponseTime })},
	{name: "Transaction rate (/s)", value: always(func(r *stats.Report) cell { return figure(r.TransactionRate) })},
	{name: "Throughput (MB/s)", value: always(func(r *stats.Report) cell { return figure(r.Throughput) })},
	{name: "Concurrency", value: always(func(r *stats.Report) cell { return figure(r.Concurrency) })},
	{name: "Successful transactions", value: always(func(r *stats.Report) cell { return count(r.SuccessfulTransactions) })},
	{name: "Failed transactions", value: always(func(r *stats.Report) cell { return count(r.FailedTransactions) })},
	{name: "Longest transaction (ms)", value: latency(func(r *stats.Report) float64 { return r.LongestTransaction })},
	{name: "Shortest transaction (ms)", value: latency(func(r *stats.Report) float64 { return r.ShortestTransaction })},
	{name: "p50 (ms)", value: latency(func(r *stats.Report) float64 { return r.Percentiles.P50 })},
	{name: "p90 (ms)", value: latency(func(r *stats.Report) float64 { return r.Percentiles.P90 })},
	{name: "p95 (ms)", value: latency(func(r *stats.Report) float64 { return r.Percentiles.P95 })},
	{name: "p99 (ms)", value: latency(func(r *stats.Report) float64 { return r.Percentiles.P99 })},
	{name: "p99.9 (ms)", value: latency(func(r *stats.Report) float64 { return r.Percentiles.P999 })},
	{name: "Max (ms)", value: latency(func(r *stats.Report) float64 { return r.Percentiles.Max })},
	{name: "Requests", value: always(func(r *stats.Report) cell { return count(r.Requests) })},
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
