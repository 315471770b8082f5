package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/webload/webload/judge"
	"github.com/webload/webload/stats"
)

// page is everything the page's script draws: the JSON document in <script id="data">. Figures
// arrive formatted (text) beside their value for sorting, so the script only lays them out.
type page struct {
	Title    string    `json:"title"`
	Subtitle string    `json:"subtitle"`
	Runs     []runPage `json:"runs"` // one per result, the baseline first
	// Summary has one row per figure and one column per result; SummaryNotes say how the
	// figures of --repeat series are read, with the series' totals.
	Summary      table    `json:"summary"`
	SummaryNotes []string `json:"summary_notes,omitempty"`
	// Comparison is set when there are several results.
	Comparison *comparison `json:"comparison,omitempty"`
	// Curves are the results' percentile plots, on one x axis.
	Curves curves `json:"curves"`
	// Ladder has the ladders' rate and p95 by users; nil when no result is a ladder.
	Ladder *ladder `json:"ladder,omitempty"`
	// Capacity has the capacity searches' completed rate and p95 by offered rate; nil when no
	// result is a search.
	Capacity    *ladder `json:"capacity,omitempty"`
	StatusCodes table   `json:"status_codes"`
	Errors      table   `json:"errors"`
}

// runPage is what belongs to one result alone.
type runPage struct {
	Label    string   `json:"label"`
	About    string   `json:"about"` // how the run was made, in one line
	Timeline timeline `json:"timeline"`
	URLs     table    `json:"urls"`
	// URLNote says what the per-URL figures of a --repeat series are: totals over its runs,
	// where its summary is per run.
	URLNote string `json:"url_note,omitempty"`
	// Statements are its databases' statements (--db with --db-statements), StatementsNote
	// their headlines; absent when it read none.
	Statements     *table `json:"statements,omitempty"`
	StatementsNote string `json:"statements_note,omitempty"`
}

// buildPage computes the page's data from the results.
func buildPage(results []stats.Report, opt Options) (page, error) {
	p := page{
		Title:       opt.Title,
		Summary:     summaryTable(results),
		StatusCodes: statusTable(results),
		Errors:      errorTable(results),
	}
	labels := make([]string, len(results))
	for i := range results {
		r := &results[i]
		labels[i] = stats.Label(r, i)
		if n := len(r.Repeats); n > 1 {
			p.SummaryNotes = append(p.SummaryNotes, seriesNote(r, labels[i]))
		}
		if len(r.Steps) > 0 {
			p.SummaryNotes = append(p.SummaryNotes, ladderNote(r, labels[i]))
		}
		tl, err := runTimeline(r, opt.MaxPoints)
		if err != nil {
			return p, &ResultError{Index: i, Label: labels[i], Err: fmt.Errorf("timeline: %w", err)}
		}
		tl.Queries = queriesPerSec(r.DatabaseList(), r.Run.StartedAt, &tl)
		tl.Planned = plannedPerSec(r, &tl)
		stmts, stmtsNote := runStatements(r.DatabaseList())
		p.Runs = append(p.Runs, runPage{
			Label:          labels[i],
			About:          about(r),
			Timeline:       tl,
			URLs:           urlTable(r),
			URLNote:        urlNote(r),
			Statements:     stmts,
			StatementsNote: stmtsNote,
		})
	}
	if p.Title == "" {
		p.Title = "webload report"
		if slices.ContainsFunc(results, func(r stats.Report) bool { return r.Label != "" }) {
			p.Title = "webload: " + strings.Join(labels, " vs ")
		}
	}
	p.Subtitle = subtitle(results)
	var err error
	if p.Curves, err = buildCurves(results); err != nil {
		return p, err
	}
	p.Ladder = buildLadder(results)
	p.Capacity = buildCapacity(results)
	if len(results) > 1 {
		cmp, err := judge.Compare(results, true)
		if err != nil {
			return p, err
		}
		c := comparisonTables(cmp)
		p.Comparison = &c
	}
	return p, nil
}

// ResultError says which result a page could not be made of, so a caller can name its file.
type ResultError struct {
	Index int    // in the list given to WriteHTML
	Label string // its label, or "run N"
	Err   error
}

// Error names the result and the cause.
func (e *ResultError) Error() string { return fmt.Sprintf("result \"%s\": %v", e.Label, e.Err) } // Printable already

// Unwrap returns the cause.
func (e *ResultError) Unwrap() error { return e.Err }

// about says how a run was made: users or rate, length, and why it stopped.
func about(r *stats.Report) string {
	run := &r.Run
	var parts []string
	if !run.StartedAt.IsZero() {
		parts = append(parts, "started "+run.StartedAt.UTC().Format(time.DateTime)+" UTC")
	}
	switch {
	case run.Model == stats.ModelOpen:
		parts = append(parts, fmt.Sprintf("open model at %.6g requests/s (up to %d users)", run.Rate, run.MaxUsers))
	case run.Users > 0:
		parts = append(parts, fmt.Sprintf("%d users", run.Users))
	}
	if n := len(r.Repeats); n > 1 {
		// In all, where the summary shows a series per run.
		parts = append(parts, fmt.Sprintf("%d runs, %s elapsed in all", n, seconds(r.ElapsedTime)))
	} else {
		parts = append(parts, fmt.Sprintf("%s elapsed", seconds(r.ElapsedTime)))
	}
	if run.StopReason != "" {
		parts = append(parts, "stopped: "+string(run.StopReason))
	}
	if run.Version != "" {
		parts = append(parts, "webload "+run.Version)
	}
	return strings.Join(parts, ", ")
}

// subtitle sums up what the page shows.
func subtitle(results []stats.Report) string {
	if len(results) == 1 {
		return about(&results[0])
	}
	return fmt.Sprintf("%d results; the first, \"%s\", is the baseline", len(results), stats.Label(&results[0], 0))
}

// seconds shows a duration given in seconds the way people read run lengths: 59.2 s, 12m05s.
func seconds(s float64) string {
	if s < 60 {
		return fmt.Sprintf("%.3g s", s)
	}
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}

// seriesNote says how the summary reads a --repeat series, and gives the totals over its runs
// that the text report and the saved result show.
func seriesNote(r *stats.Report, label string) string {
	return fmt.Sprintf("%q is a --repeat series of %d runs: its figures are per run, the mean of the runs "+
		"± their standard deviation, as compare shows them; its percentiles are of all its transactions together. "+
		"Over the %d runs together: %s transactions (%s failed) in %s.",
		label, len(r.Repeats), len(r.Repeats), group(r.Transactions), group(r.FailedTransactions), seconds(r.ElapsedTime))
}

// urlNote is the per-URL table's note for a --repeat series, "" for a single run.
func urlNote(r *stats.Report) string {
	n := len(r.Repeats)
	if n < 2 {
		return ""
	}
	return fmt.Sprintf("Over the %d runs of the series together: counts and bytes are their totals, "+
		"times are of all their transactions (the summary shows the series per run).", n)
}
