package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// nightResult is the result of one night of a history: 100 requests to /page and /other taking
// lo plus up to a tenth of it, started at 02:30 UTC on December 1, 2026 plus i days.
func nightResult(t *testing.T, i int, lo time.Duration) stats.Report {
	t.Helper()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1:8080/page"}, {Method: "GET", URL: "http://127.0.0.1:8080/other"}}
	rng := rand.New(rand.NewPCG(uint64(i), 1))
	rec := stats.NewRecorder(targets, stats.Options{})
	batch := make([]loader.Result, 100)
	var busy time.Duration
	for j := range batch {
		batch[j] = loader.Result{Status: 200, BodyBytes: 1000, User: int32(j % 5), Target: int32(j % 2),
			Latency: lo + time.Duration(rng.Int64N(int64(lo/10)))}
		busy += batch[j].Latency
	}
	rec.Record(batch)
	rep := rec.Report(loader.Outcome{Elapsed: busy / 5, Users: 5, Stop: loader.Completed},
		stats.RunInfo{Version: "test"}, fmt.Sprintf("build %d", i+1))
	rep.Run.StartedAt = time.Date(2026, 12, 1, 2, 30, 0, 0, time.UTC).AddDate(0, 0, i)
	return rep
}

// trendsPageData is what a test reads back from the trend page's data.
type trendsPageData struct {
	Subtitle string `json:"subtitle"`
	Nights   []struct {
		Label, Date, Link string
	} `json:"nights"`
	Figures []struct {
		Key     string     `json:"key"`
		Values  []*float64 `json:"values"`
		Changes []struct {
			Index      int    `json:"index"`
			Text       string `json:"text"`
			Regression bool   `json:"regression"`
		} `json:"changes"`
	} `json:"figures"`
	URLChanges struct {
		Rows [][]any `json:"rows"`
	} `json:"url_changes"`
}

// stepHistory is a history of 20 nights whose requests take twice as long from night 13 on, the
// fifth night linked to its own report.
func stepHistory(t *testing.T) []Night {
	t.Helper()
	var nights []Night
	for i := range 20 {
		lo := 20 * time.Millisecond
		if i+1 >= 13 {
			lo = 40 * time.Millisecond
		}
		n := Night{Result: nightResult(t, i, lo)}
		if i == 4 {
			n.Link = "night-05.html"
		}
		nights = append(nights, n)
	}
	return nights
}

// The trend page carries every night on its x axis (date, label, link), each headline figure's
// value per night, and its change points: a step at night 13 is marked on p95 as a regression
// from index 12, and /page's p95 step is in the table of URLs.
func TestTrendsData(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteTrendsHTML(&b, stepHistory(t), TrendOptions{}); err != nil {
		t.Fatal(err)
	}
	var d trendsPageData
	if err := json.Unmarshal(dataBlob(t, b.Bytes()), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Nights) != 20 || d.Nights[0].Date != "2026-12-01 02:30" || d.Nights[19].Label != "build 20" {
		t.Fatalf("nights %+v", d.Nights)
	}
	if d.Subtitle != "20 nights, 2026-12-01 02:30 (build 1) to 2026-12-20 02:30 (build 20)" {
		t.Errorf("subtitle %q", d.Subtitle)
	}
	for i, n := range d.Nights {
		if want := map[bool]string{true: "night-05.html"}[i == 4]; n.Link != want {
			t.Errorf("night %d links to %q, want %q", i+1, n.Link, want)
		}
	}
	keys := map[string]bool{}
	for _, f := range d.Figures {
		keys[f.Key] = true
		if len(f.Values) != 20 {
			t.Errorf("%s: %d values, want 20", f.Key, len(f.Values))
		}
		if f.Key != "p95" {
			continue
		}
		if len(f.Changes) != 1 || f.Changes[0].Index != 12 || !f.Changes[0].Regression {
			t.Errorf("p95 change points %+v, want one regression from index 12", f.Changes)
		} else if text := f.Changes[0].Text; !bytes.Contains([]byte(text), []byte(" → ")) {
			t.Errorf("change text %q lacks before → after", text)
		}
		if *f.Values[11] >= *f.Values[12] {
			t.Errorf("p95 %v then %v: the step is not in the series", *f.Values[11], *f.Values[12])
		}
	}
	for _, k := range []string{"etime", "rtime", "trate", "p50", "p95", "p99", "failed", "availability"} {
		if !keys[k] {
			t.Errorf("no chart of %s (charts: %v)", k, keys)
		}
	}
	found := false
	for _, r := range d.URLChanges.Rows {
		if r[0] == "GET /page" && r[2].([]any)[1] == 13.0 {
			found = true
		}
	}
	if !found {
		t.Errorf("no change of GET /page from night 13 in %v", d.URLChanges.Rows)
	}
}

// NightLink follows the NAME.html-beside-NAME.json convention with an address relative to the
// page, escaped, and "" for a night without a report.
func TestNightLink(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	hist := filepath.Join(root, "nightly")
	if err := os.MkdirAll(hist, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"20261206T023000Z-nightly.html", "a b#c.html"} {
		if err := os.WriteFile(filepath.Join(hist, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, page, result, want string
	}{
		{"beside", filepath.Join(hist, "trends.html"), filepath.Join(hist, "20261206T023000Z-nightly.json"), "20261206T023000Z-nightly.html"},
		{"from the parent", filepath.Join(root, "trends.html"), filepath.Join(hist, "20261206T023000Z-nightly.json"), "nightly/20261206T023000Z-nightly.html"},
		{"from a sibling", filepath.Join(root, "pages", "trends.html"), filepath.Join(hist, "20261206T023000Z-nightly.json"), "../nightly/20261206T023000Z-nightly.html"},
		{"escaped", filepath.Join(hist, "trends.html"), filepath.Join(hist, "a b#c.json"), "a%20b%23c.html"},
		{"no report", filepath.Join(hist, "trends.html"), filepath.Join(hist, "other.json"), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := NightLink(tc.page, tc.result); got != tc.want {
				t.Errorf("NightLink = %q, want %q", got, tc.want)
			}
		})
	}
}
