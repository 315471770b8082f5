package report

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/webload/webload/stats"
)

// urlTable lists a result's URLs in the order of its URL list, with their own figures (and
// their page figures when users loaded pages like a browser). It sorts by any column.
func urlTable(r *stats.Report) table {
	origin := commonOrigin(r.URLs)
	urlHint := "the URL as the list gave it"
	if origin != "" {
		urlHint = "paths on " + origin
	}
	t := table{Sortable: true, Columns: []column{
		{Title: "Method", Hint: methodHint(r.URLs)},
		{Title: "URL", Hint: urlHint, Sticky: true},
		{Title: "Hits", Num: true, Hint: "transactions: responses other than 408 and 5xx"},
		{Title: "Failed", Num: true, Hint: "no response, 408 or 5xx"},
		{Title: "Mean (ms)", Num: true},
	}}
	(&stats.URLStats{}).EachPercentile(func(q, _ float64) {
		t.Columns = append(t.Columns, column{Title: "p" + strconv.FormatFloat(q, 'g', -1, 64) + " (ms)", Num: true})
	})
	t.Columns = append(t.Columns,
		column{Title: "Max (ms)", Num: true},
		column{Title: "Bytes", Num: true, Hint: "response bodies as received"},
		column{Title: "Status codes"})
	withPages := slices.ContainsFunc(r.URLs, func(u stats.URLStats) bool { return u.Pages != nil })
	if withPages {
		t.Columns = append(t.Columns,
			column{Title: "Pages", Num: true, Hint: "visits of the URL as a page: it, its redirects and its resources"},
			column{Title: "Failed pages", Num: true},
			column{Title: "Page p95 (ms)", Num: true, Hint: "page load time, from the first request to the last resource"},
			column{Title: "Resources", Num: true},
			column{Title: "Failed resources", Num: true})
	}
	extract, withMessage := extractColumns(r.URLs)
	t.Columns = append(t.Columns, extract...)
	for i := range r.URLs {
		row := urlRow(&r.URLs[i], origin, withPages)
		if extract != nil {
			row = append(row, extractCells(&r.URLs[i], withMessage)...)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// urlRow is one URL's line of the table.
func urlRow(u *stats.URLStats, origin string, withPages bool) []cell {
	name := u.URL
	if origin != "" {
		if name = strings.TrimPrefix(u.URL, origin); name == "" {
			name = "/"
		}
	}
	row := []cell{text(methodText(u)), text(name), count(u.Hits), count(u.Failures)}
	if u.Hits > 0 {
		row = append(row, millis(u.Mean))
		u.EachPercentile(func(_, v float64) { row = append(row, millis(v)) })
		row = append(row, millis(u.Max))
	} else {
		row = append(row, none(), none())
		u.EachPercentile(func(float64, float64) { row = append(row, none()) })
	}
	row = append(row, count(u.Bytes), text(statusText(u.StatusCodes)))
	if !withPages {
		return row
	}
	p := u.Pages
	switch {
	case p == nil:
		row = append(row, none(), none(), none(), none(), none())
	case p.Pages > p.Failed:
		row = append(row, count(p.Pages), count(p.Failed), millis(p.P95), count(p.Resources), count(p.ResourceFailures))
	default:
		row = append(row, count(p.Pages), count(p.Failed), none(), count(p.Resources), count(p.ResourceFailures))
	}
	return row
}

// statusText lists a URL's responses by status: "200×1 234, 404×2", the commonest first.
func statusText(codes map[string]int64) string {
	keys := make([]string, 0, len(codes))
	for k := range codes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(codes[b], codes[a]); c != 0 {
			return c
		}
		return compareCodes(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "×" + group(codes[k])
	}
	return strings.Join(parts, ", ")
}

// commonOrigin is the scheme and host that every URL shares, so the table can show paths
// (the usual case, and much easier to read); "" when they differ or one does not parse.
func commonOrigin(urls []stats.URLStats) string {
	origin := ""
	for _, u := range urls {
		p, err := url.Parse(u.URL)
		if err != nil || p.Scheme == "" || p.Host == "" {
			return ""
		}
		o := p.Scheme + "://" + p.Host
		switch {
		case origin == "":
			origin = o
		case o != origin:
			return ""
		}
	}
	return origin
}
