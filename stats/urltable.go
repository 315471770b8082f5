package stats

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// writeURLTable lists every URL with its own figures, slowest mean first, so the pages that
// hold a site back stand at the top.
func writeURLTable(b *strings.Builder, rep *Report) {
	rows := make([]URLStats, len(rep.URLs))
	copy(rows, rep.URLs)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Mean > rows[j].Mean })
	names := urlNames(rows)

	pages := rep.Pages != nil
	b.WriteString("\nPer URL, slowest mean first (times of transactions in ms")
	if pages {
		b.WriteString("; a page load is the URL with its redirects and resources")
	}
	b.WriteString("):\n")
	fmt.Fprintf(b, "%8s %8s %10s", "Hits", "Failed", "Mean")
	var head URLStats
	head.quantiles(func(q float64, _ *float64) { fmt.Fprintf(b, " %10s", "p"+strconv.FormatFloat(q, 'g', -1, 64)) })
	fmt.Fprintf(b, " %10s %12s", "Max", "Bytes")
	if pages {
		fmt.Fprintf(b, " %10s %10s", "Page p95", "Resources")
	}
	b.WriteString("  URL\n")
	for i, u := range rows {
		fmt.Fprintf(b, "%8d %8d %10.3f", u.Hits, u.Failures, u.Mean*1000)
		u.quantiles(func(_ float64, v *float64) { fmt.Fprintf(b, " %10.3f", *v*1000) })
		fmt.Fprintf(b, " %10.3f %12d", u.Max*1000, u.Bytes)
		if pages {
			var p95 float64
			var res int64
			if u.Pages != nil {
				p95, res = u.Pages.P95, u.Pages.Resources
			}
			fmt.Fprintf(b, " %10.3f %10d", p95*1000, res)
		}
		fmt.Fprintf(b, "  %s\n", names[i])
	}
}

// urlNames shortens each URL to its path when all share one scheme and host, which is the usual
// case and keeps the table readable; otherwise the full URLs are shown.
func urlNames(rows []URLStats) []string {
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
