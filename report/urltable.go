package report

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/webload/webload/stats"
)

// writeURLTable lists every URL with its own figures, slowest mean first, so the pages that
// hold a site back stand at the top. Login steps follow apart, in the order users make them:
// they are not pages of the list.
func writeURLTable(b *strings.Builder, rep *stats.Report) {
	var rows, logins []stats.URLStats
	extracts := false
	for _, u := range rep.URLs {
		if u.Login {
			logins = append(logins, u)
		} else {
			rows = append(rows, u)
		}
		extracts = extracts || u.ExtractRules > 0 || u.ExtractFailures > 0
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Mean > rows[j].Mean })
	names := urlNames(append(slices.Clip(rows), logins...))

	pages := rep.Pages != nil
	b.WriteString("\nPer URL, slowest mean first (times of transactions in ms")
	if pages {
		b.WriteString("; a page load is the URL with its redirects and resources")
	}
	b.WriteString("):\n")
	head := func() {
		fmt.Fprintf(b, "%8s %8s %10s", "Hits", "Failed", "Mean")
		var head stats.URLStats
		head.Quantiles(func(q float64, _ *float64) { fmt.Fprintf(b, " %10s", "p"+strconv.FormatFloat(q, 'g', -1, 64)) })
		fmt.Fprintf(b, " %10s %12s", "Max", "Bytes")
		if pages {
			fmt.Fprintf(b, " %10s %10s", "Page p95", "Resources")
		}
		if extracts {
			fmt.Fprintf(b, " %10s %8s", "Extracted", "Missing")
		}
		b.WriteString("  URL\n")
	}
	row := func(u stats.URLStats, name string) {
		fmt.Fprintf(b, "%8d %8d %10.3f", u.Hits, u.Failures, u.Mean*1000)
		u.Quantiles(func(_ float64, v *float64) { fmt.Fprintf(b, " %10.3f", *v*1000) })
		fmt.Fprintf(b, " %10.3f %12d", u.Max*1000, u.Bytes)
		if pages {
			var p95 float64
			var res int64
			if u.Pages != nil {
				p95, res = u.Pages.P95, u.Pages.Resources
			}
			fmt.Fprintf(b, " %10.3f %10d", p95*1000, res)
		}
		if extracts {
			fmt.Fprintf(b, " %10d %8d", u.Extractions, u.ExtractFailures)
		}
		fmt.Fprintf(b, "  %s\n", name)
	}
	head()
	for i, u := range rows {
		row(u, names[i])
	}
	if len(logins) == 0 {
		return
	}
	b.WriteString("\nLogin steps, in order:\n")
	head()
	for i, u := range logins {
		row(u, names[len(rows)+i])
	}
}

// urlNames shortens each URL to its path when all share one scheme and host, which is the usual
// case and keeps the table readable; otherwise the full URLs are shown.
func urlNames(rows []stats.URLStats) []string {
	names := make([]string, len(rows))
	origin := ""
	short := true
	for _, r := range rows {
		u, err := url.Parse(r.URL)
		if err != nil {
			short = false
			break
		}
		o := u.Scheme + "://" + u.Host
		if origin == "" {
			origin = o
		}
		if o != origin {
			short = false
			break
		}
	}
	for i, r := range rows {
		name := r.URL
		if short {
			name = strings.TrimPrefix(r.URL, origin)
		}
		names[i] = fmt.Sprintf("%-4s %s", r.Method, name)
	}
	return names
}
