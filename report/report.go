// Package report writes results for people: the text report in siege's layout (WriteText), the
// -l log line (AppendLog), and one self-contained HTML page of one or more saved results: the
// siege summary, percentiles, latency over time, the latency distribution as a percentile plot,
// per-URL figures, status codes and errors, and, for several results, their comparison. Every
// script and style is inlined, so the page opens offline and makes no request.
//
// The page is static markup, the page's data as one JSON document, and a small script
// (assets/report.js) that draws tables and charts (uPlot) from that data. Everything that
// needs a histogram or a statistical test is computed here, in Go; the script only lays out.
package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"

	"github.com/webload/webload/stats"
)

// Options shape the page.
type Options struct {
	// Title heads the page; "" makes one from the results' labels.
	Title string
	// MaxPoints caps the points of each timeline series; a longer timeline is merged into
	// fewer, wider intervals. 0 means DefaultMaxPoints.
	MaxPoints int
}

// DefaultMaxPoints keeps a chart quick to draw and the page small: an hour of one-second
// intervals becomes 1 800 points of two seconds.
const DefaultMaxPoints = 2000

// ErrNoResults is returned by WriteHTML for an empty list.
var ErrNoResults = errors.New("no results to report")

// WriteHTML writes one self-contained HTML page for one or more results (the first is the
// baseline when there are several).
func WriteHTML(w io.Writer, results []stats.Report, opt Options) error {
	if len(results) == 0 {
		return ErrNoResults
	}
	if opt.MaxPoints <= 0 {
		opt.MaxPoints = DefaultMaxPoints
	}
	data, err := buildPage(results, opt)
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	// json.Marshal escapes <, > and & as \u003c and so on, so no text in the data (a URL, a
	// label, an error message) can close the <script> element that holds it.
	blob, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("html report: encode data: %w", err)
	}
	var b bytes.Buffer
	err = pageTemplate.Execute(&b, pageAssets{
		CSP:      contentSecurityPolicy,
		UPlotCSS: template.CSS(uplotCSS),
		CSS:      template.CSS(reportCSS),
		Data:     template.JS(blob),
		UPlotJS:  template.JS(uplotJS),
		CommonJS: template.JS(commonJS),
		JS:       template.JS(reportJS),
	})
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return nil
}
