package report

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/stats"
)

var dbStart = time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)

// points are a database's intervals, each [end in seconds from dbStart, width, queries/s].
func points(p ...[3]float64) []dbload.Point {
	var out []dbload.Point
	for _, v := range p {
		out = append(out, dbload.Point{At: dbStart.Add(time.Duration(v[0] * float64(time.Second))), Seconds: v[1], QueriesPerSec: v[2]})
	}
	return out
}

// The database's statement rate is drawn on the timeline's points: each point gets the rate of
// the database's intervals it overlaps, weighted by the overlap, and none where no reading
// covers it.
func TestDatabaseRate(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		dbs  [][]dbload.Point
		tl   timeline
		want series
	}{
		{"readings every 2 s on 1 s points", [][]dbload.Point{points([3]float64{2, 2, 100}, [3]float64{4, 2, 300})},
			timeline{Step: 1, T: series{0, 1, 2, 3, 4, 5}, Requests: series{1, 1, 1, 1, 1, 1}}, series{100, 100, 300, 300, nan, nan}},
		{"readings every 1 s on 2 s points", [][]dbload.Point{points([3]float64{1, 1, 100}, [3]float64{2, 1, 300}, [3]float64{3, 1, 50})},
			timeline{Step: 2, T: series{0, 2}, Requests: series{1, 1}}, series{200, 50}},
		{"readings off the points", [][]dbload.Point{points([3]float64{1.5, 1.5, 100}, [3]float64{2.5, 1, 400})},
			timeline{Step: 1, T: series{0, 1, 2}, Requests: series{1, 1, 1}}, series{100, 250, 400}},
		{"a series' pause stays a gap", [][]dbload.Point{points([3]float64{10, 10, 100})},
			timeline{Step: 1, T: series{0, 1, 1.5, 2}, Requests: series{1, 1, nan, 1}}, series{100, 100, nan, 100}},
		{"two databases add up where both were read", [][]dbload.Point{
			points([3]float64{1, 1, 100}, [3]float64{2, 1, 100}), points([3]float64{2, 1, 7})},
			timeline{Step: 1, T: series{0, 1}, Requests: series{1, 1}}, series{nan, 107}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var dbs []dbload.Summary
			for _, p := range tc.dbs {
				dbs = append(dbs, dbload.Summary{Series: p})
			}
			got := queriesPerSec(dbs, dbStart, &tc.tl)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// A result with a database draws its queries/s on the timeline, shows the database's figures in
// the summary, and compares Q/T; one without shows none of them.
func TestDatabaseInPage(t *testing.T) {
	t.Parallel()
	withDB := func(label string, seed uint64, q float64) stats.Report {
		r := small(label, seed)
		r.Run.StartedAt = dbStart
		queries, rows := int64(q*r.ElapsedTime), int64(q*r.ElapsedTime*3)
		r.SetDatabases([]dbload.Summary{{Source: "mysql://webload:xxxxx@127.0.0.1:3306/", Kind: dbload.KindMySQL,
			Samples: 3, Seconds: r.ElapsedTime, Queries: &queries, QueriesPerSec: q, RowsRead: &rows,
			Series: points([3]float64{10, 10, q}, [3]float64{20, 10, q})}})
		return r
	}
	page := pageData(t, render(t, []stats.Report{withDB("base", 1, 500), withDB("candidate", 2, 1500)}, Options{}))
	tl := page.Runs[0].Timeline
	if len(tl.Queries) != len(tl.T) || tl.Queries[0] == nil || *tl.Queries[0] != 500 {
		t.Errorf("queries/s on the timeline: %d points for %d, first %v", len(tl.Queries), len(tl.T), tl.Queries[0])
	}
	rows := map[string]bool{}
	for _, r := range page.Summary.Rows {
		rows[fmt.Sprint(r[0])] = true
	}
	for _, want := range []string{"Database queries (/s)", "Database queries per transaction", "Rows read per transaction"} {
		if !rows[want] {
			t.Errorf("no summary row %q in %v", want, rows)
		}
	}
	var figures []string
	for _, r := range page.Comparison.Figures.Rows {
		figures = append(figures, fmt.Sprint(r[0]))
	}
	if got := strings.Join(figures, ", "); !strings.Contains(got, "QPS") || !strings.Contains(got, "Q/T") {
		t.Errorf("compared figures: %s", got)
	}

	plain := pageData(t, render(t, []stats.Report{small("base", 1), small("candidate", 2)}, Options{}))
	if plain.Runs[0].Timeline.Queries != nil {
		t.Error("queries/s on the timeline of a run without --db")
	}
	for _, r := range plain.Summary.Rows {
		if strings.Contains(fmt.Sprint(r[0]), "Database") {
			t.Errorf("summary row %v without --db", r[0])
		}
	}
}

// BenchmarkQueriesPerSec draws an hour's readings, one a second, on an hour's timeline of
// one-second points: the longest a report holds undownsampled.
func BenchmarkQueriesPerSec(b *testing.B) {
	const n = 3600
	var pts [][3]float64
	tl := timeline{Step: 1}
	for i := range n {
		pts = append(pts, [3]float64{float64(i + 1), 1, float64(i % 100)})
		tl.T = append(tl.T, float64(i))
		tl.Requests = append(tl.Requests, 1)
	}
	dbs := []dbload.Summary{{Series: points(pts...)}}
	b.ReportAllocs()
	for b.Loop() {
		queriesPerSec(dbs, dbStart, &tl)
	}
}
