package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/webload/webload/stats"
)

// Layout picks which siege release's summary block the text report imitates, so scripts
// written against either keep parsing it.
type Layout uint8

// The siege layouts.
const (
	// Siege40 is siege 4.0.x (Debian and Ubuntu's siege): times in seconds.
	Siege40 Layout = iota
	// Siege41 is siege 4.1.7 and later: response, longest and shortest times in ms.
	Siege41
)

// ParseLayout reads a --siege-format value.
func ParseLayout(s string) (Layout, error) {
	switch s {
	case "4.0", "4":
		return Siege40, nil
	case "4.1":
		return Siege41, nil
	}
	return 0, fmt.Errorf("unknown siege format %q (want 4.0 or 4.1)", s)
}

// TextOptions choose what the text report shows.
type TextOptions struct {
	Layout Layout
	// PerURL adds the table of URLs, slowest first.
	PerURL bool
}

// WriteText writes the report as siege's summary block followed by webload's own lines.
func WriteText(w io.Writer, rep *stats.Report, opt TextOptions) error {
	var b strings.Builder
	writeSiegeBlock(&b, rep, opt.Layout)
	writeExtras(&b, rep)
	writePages(&b, rep)
	WriteSteps(&b, rep)
	if opt.PerURL {
		writeURLTable(&b, rep)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSiegeBlock repeats siege's labels, tabs, widths and units exactly. One change: the
// longest and shortest lines of the 4.0 layout get their unit, which siege leaves out.
func writeSiegeBlock(b *strings.Builder, rep *stats.Report, layout Layout) {
	count, timeUnit, timeScale := "%12d", "secs", 1.0
	hits := "\nTransactions:\t\t%12d hits\n"
	if layout == Siege41 {
		count, timeUnit, timeScale = "%9d", "ms", 1000.0
		hits = "\nTransactions:\t\t%9d    hits\n"
	}
	fmt.Fprintf(b, hits, rep.Transactions)
	fmt.Fprintf(b, "Availability:\t\t%12.2f %%\n", rep.Availability)
	fmt.Fprintf(b, "Elapsed time:\t\t%12.2f secs\n", rep.ElapsedTime)
	fmt.Fprintf(b, "Data transferred:\t%12.2f MB\n", rep.DataTransferred)
	fmt.Fprintf(b, "Response time:\t\t%12.2f %s\n", rep.ResponseTime*timeScale, timeUnit)
	fmt.Fprintf(b, "Transaction rate:\t%12.2f trans/sec\n", rep.TransactionRate)
	fmt.Fprintf(b, "Throughput:\t\t%12.2f MB/sec\n", rep.Throughput)
	fmt.Fprintf(b, "Concurrency:\t\t%12.2f\n", rep.Concurrency)
	fmt.Fprintf(b, "Successful transactions:"+count+"\n", rep.SuccessfulTransactions)
	fmt.Fprintf(b, "Failed transactions:\t"+count+"\n", rep.FailedTransactions)
	fmt.Fprintf(b, "Longest transaction:\t%12.2f %s\n", rep.LongestTransaction*timeScale, timeUnit)
	fmt.Fprintf(b, "Shortest transaction:\t%12.2f %s\n", rep.ShortestTransaction*timeScale, timeUnit)
	b.WriteString(" \n")
}

// writeExtras adds what siege never reported: exact percentiles, outcomes by status and error
// kind, the accounting of every request, wire bytes and fairness between users.
func writeExtras(b *strings.Builder, rep *stats.Report) {
	p := rep.Percentiles
	for _, q := range []struct {
		name string
		v    float64
	}{{"p50", p.P50}, {"p90", p.P90}, {"p95", p.P95}, {"p99", p.P99}, {"p99.9", p.P999}, {"max", p.Max}} {
		fmt.Fprintf(b, "Response time %s:%s%12.3f ms\n", q.name, tabsAfter("Response time "+q.name+":"), q.v*1000)
	}
	fmt.Fprintf(b, "Requests:\t\t%12d (%d transactions + %d failed; %d in flight at stop, finished and counted)\n",
		rep.Requests, rep.Transactions, rep.FailedTransactions, rep.InFlightAtStop)
	if rep.Resent > 0 {
		// Only when it happened: most servers keep their connections open as long as webload does.
		fmt.Fprintf(b, "Resent:%s%12d (on a new connection: the server had closed the kept-alive one, or sent on it unasked)\n",
			tabsAfter("Resent:"), rep.Resent)
	}
	if rep.HTTP2GoAways+rep.HTTP2Resets+rep.HTTP2Retries > 0 {
		// Only when a server sent them: an HTTP/2 server that sheds load says so in frames.
		fmt.Fprintf(b, "HTTP/2 frames:%s%12d GOAWAY, %d RST_STREAM; %d requests sent again after a refusal or a GOAWAY\n",
			tabsAfter("HTTP/2 frames:"), rep.HTTP2GoAways, rep.HTTP2Resets, rep.HTTP2Retries)
	}
	fmt.Fprintf(b, "Status codes:\t\t%s\n", counts(rep.StatusCodes, numericOrder))
	fmt.Fprintf(b, "Failed requests:\t%s\n", failureCounts(rep))
	writeCheckFailures(b, rep)
	writeCheckCost(b, rep)
	writeSessions(b, rep)
	fmt.Fprintf(b, "Wire data:\t\t%12.2f MB received, %.2f MB sent, %d connections opened\n",
		float64(rep.WireBytesReceived)/stats.Megabyte, float64(rep.WireBytesSent)/stats.Megabyte, rep.ConnectionsOpened)
	fmt.Fprintf(b, "Per-user transactions:\t%12.2f mean, %.2f stddev over %d users\n",
		rep.Users.TransactionsMean, rep.Users.TransactionsStddev, rep.Users.Count)
	if s := rep.Schedule; s != nil {
		writeSchedule(b, rep, s)
	}
	writeReplay(b, rep)
	writeSections(b, rep)
	if st := rep.SteadyState; st != nil {
		fmt.Fprintf(b, "Steady state:\t\t%12.2f trans/sec after the %.2f s ramp: %d transactions, %d failed, p50 %.3f ms, p99 %.3f ms\n",
			st.TransactionRate, st.From, st.Transactions, st.Failed, st.Percentiles.P50*1000, st.Percentiles.P99*1000)
	}
	writeShards(b, rep)
	if rep.LatencyOverflow > 0 {
		fmt.Fprintf(b, "Latency overflow:\t%12d transactions longer than 1 h, recorded as 1 h\n", rep.LatencyOverflow)
	}
}

// writeSchedule reports the open model's timing: how closely arrivals left on schedule, and
// how many had to wait for a free user. When users loaded pages, an arrival is a URL's visit
// (its redirects and resources follow it), and the lines say visits.
func writeSchedule(b *strings.Builder, rep *stats.Report, s *stats.Schedule) {
	unit, sent, waited := "req", "", "requests"
	if rep.Pages != nil {
		unit, sent, waited = "visits", " visits", "visits"
	}
	fmt.Fprintf(b, "Arrival rate:\t\t%12s %s/sec planned; %d%s sent, %d unsent\n", rateText(s.Rate), unit, s.Sent, sent, s.Unsent)
	fmt.Fprintf(b, "Send lag:\t\t%12.3f ms p99, %.3f ms max (actual minus intended send time)\n",
		s.LagP99*1000, s.LagMax*1000)
	fmt.Fprintf(b, "Waited for a user:\t%12d %s (users started: %d of at most %d), %.3f ms mean, %.3f ms max\n",
		s.Delayed, waited, s.Users, s.MaxUsers, s.DelayedWaitMean*1000, s.DelayedWaitMax*1000)
	fmt.Fprintf(b, "Service time:\t\t%12.3f ms p50, %.3f ms p99, %.3f ms max (from the actual send; response times count from the intended one)\n",
		rep.ServiceTime.P50*1000, rep.ServiceTime.P99*1000, rep.ServiceTime.Max*1000)
}

// rateText prints a rate in requests per second with two decimals, or, below a tenth, with
// three significant digits: two decimals would show a slow schedule (one a minute, or one in
// centuries) as 0.02 or 0.00.
func rateText(r float64) string {
	if r < 0.1 {
		return strconv.FormatFloat(r, 'g', 3, 64)
	}
	return strconv.FormatFloat(r, 'f', 2, 64)
}

// writeCheckFailures names each URL whose answers failed a response check, with the first
// check it failed and how many of its requests failed (by a check or otherwise); nothing when
// none did, so runs without checks read as before.
func writeCheckFailures(b *strings.Builder, rep *stats.Report) {
	label := "Failed checks:"
	for _, u := range rep.URLs {
		if u.CheckFailure == "" {
			continue
		}
		fmt.Fprintf(b, "%s%s%s %s: %s; %d failures\n", label, tabsAfter(label), u.Method, u.URL, u.CheckFailure, u.Failures)
		label = ""
	}
}

// tabsAfter pads a label to the 24-column value start siege's block uses (tab stops of 8).
func tabsAfter(label string) string {
	n := (24 - len(label) + 7) / 8
	return strings.Repeat("\t", max(n, 1))
}

// failureCounts lists failed requests by cause: status codes that siege counts as failures,
// then the kinds of requests that got no response.
func failureCounts(rep *stats.Report) string {
	byCause := map[string]int64{}
	for code, n := range rep.StatusCodes {
		// an answer that failed a check is counted once, as a check
		if stats.FailedStatus(code) && n > rep.CheckStatusCodes[code] {
			byCause["HTTP "+code] = n - rep.CheckStatusCodes[code]
		}
	}
	for kind, n := range rep.Errors {
		byCause[kind] = n
	}
	if len(byCause) == 0 {
		return "none"
	}
	return counts(byCause, nil)
}

var numericOrder = func(a, b string) bool {
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	return x < y
}

// counts renders "key: n, key: n" in a stable order (by less, or by name).
func counts(m map[string]int64, less func(a, b string) bool) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	if less == nil {
		sort.Strings(keys)
	} else {
		sort.Slice(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
