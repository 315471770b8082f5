package judge_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/internal/resulttest"
	"github.com/webload/webload/judge"
	"github.com/webload/webload/report"
	"github.com/webload/webload/stats"
)

// FuzzReadReport feeds arbitrary files to what compare, combine and the gates do with a saved
// result: a truncated or foreign file must be an error, never a panic.
func FuzzReadReport(f *testing.F) {
	closed, err := os.ReadFile(resulttest.SavedPath("closed"))
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	b.Write(closed)
	f.Add(b.Bytes())
	f.Add(b.Bytes()[:b.Len()/2])
	f.Add([]byte(`{"transactions": 4, "availability": 100.00, "elapsed_time": 0.01}`)) // siege's -j
	// Logins and extractions, whose counts a foreign file may make impossible.
	sessions, err := os.ReadFile(resulttest.SavedPath("login-extract-broken"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sessions)
	f.Add([]byte(`{"run": {"version": "x"}, "logins": {"logins": 3, "requests": 1, "failed": 5, "failures": {"x": -1}},` +
		` "extractions": {"taken": -1}, "urls": [{"login": true, "extract_failures": 2, "extract_unsent": 9}]}`))
	f.Add([]byte(`{"run": {"version": "x", "histogram_unit": "us"}, "histogram": "HISTFAAAAB"}`))
	f.Add([]byte(`{"run": {"version": "x", "histogram_unit": "us"}, "urls": [{"hits": 1, "histogram": "%%%"}]}`))
	// Hand-corrupted results, refused on load: a negative count, a p95 far beyond its histogram,
	// a NaN, and counts whose sums wrap around.
	for _, name := range []string{"negative-status", "p95-beyond", "nan"} {
		corrupt, err := os.ReadFile(filepath.Join("..", "stats", "testdata", "corrupt", name+".json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(corrupt)
	}
	f.Add([]byte(`{"run": {"version": "x", "histogram_unit": "us"}, "status_codes": {"200": -100}}`))
	f.Add([]byte(`{"run": {"version": "x", "histogram_unit": "us"}, "transactions": 1, "requests": 1,` +
		` "status_codes": {"200": 9223372036854775807, "201": 2}, "percentiles": {"p95": 9999}}`))
	f.Add([]byte(`{"run": {"version": "x", "histogram_unit": "us"}, "timeline": [{"requests": -1, "p50": Infinity}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "r.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := stats.ReadJSON(path)
		if err != nil {
			return
		}
		_ = r.Check()
		if c, err := judge.Compare([]stats.Report{r, r}, true); err == nil {
			_ = c.CheckLimits([]judge.Limit{{Key: "p95", Max: 0.1}, {Key: "q/t", Max: 0.1}})
			var w bytes.Buffer
			_ = c.WriteText(&w)
			_ = json.NewEncoder(&w).Encode(c)
		}
		if comb, err := stats.Combine([]stats.Report{r, r}); err == nil {
			var w bytes.Buffer
			_ = report.WriteText(&w, &comb, report.TextOptions{PerURL: true})
		}
		var w bytes.Buffer
		_ = report.WriteText(&w, &r, report.TextOptions{})
		gates := []string{"p95<1s", "availability>=99", "url:/ p99<2s", "q/t<20", "buffer_hit_ratio>90"}
		for _, expr := range gates {
			if g, err := gate.ParseGate(expr); err == nil {
				_ = gate.CheckGates(&r, []gate.Gate{g})
			}
		}
		if tr, err := judge.NewTrend([]stats.Report{r, r, r}, 2); err == nil {
			var w bytes.Buffer
			_ = tr.WriteText(&w)
		}
	})
}
