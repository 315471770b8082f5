package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trendsData reads back the data of a trend page: its nights, each figure's values and change
// points, and the table of URLs that changed.
type trendsData struct {
	Subtitle string `json:"subtitle"`
	Nights   []struct {
		Label, Date, Link string
	} `json:"nights"`
	Figures []struct {
		Key     string     `json:"key"`
		Values  []*float64 `json:"values"`
		Changes []struct {
			Index      int  `json:"index"`
			Regression bool `json:"regression"`
		} `json:"changes"`
	} `json:"figures"`
	URLChanges struct {
		Rows [][]any `json:"rows"`
	} `json:"url_changes"`
}

func readTrendsPage(t *testing.T, path string) trendsData {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const open = `<script type="application/json" id="data">`
	_, rest, ok := strings.Cut(string(page), open)
	blob, _, closed := strings.Cut(rest, "</script>")
	if !ok || !closed {
		t.Fatalf("%s has no data element", path)
	}
	var d trendsData
	if err := json.Unmarshal([]byte(blob), &d); err != nil {
		t.Fatalf("the page's data: %v", err)
	}
	return d
}

// report --history draws a history of 20 nights made twice as slow from night 13: every night on
// the x axis, the step marked on p95 where it began, /page's step in the table of URLs, and the
// night whose NAME.html sits beside its NAME.json linked by a relative address, from the
// folder itself and from its parent.
func TestReportHistoryPage(t *testing.T) {
	t.Parallel()
	dir := slowerFrom(t, 20, 13)
	if err := os.WriteFile(filepath.Join(dir, "night-05.html"), []byte("<p>night 5</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, page, link string }{
		{"in the folder", filepath.Join(dir, "trends.html"), "night-05.html"},
		{"beside the folder", filepath.Join(filepath.Dir(dir), "trends.html"), filepath.Base(dir) + "/night-05.html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := webload(t, nil, "report", "--history", dir, "--html", tc.page)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			d := readTrendsPage(t, tc.page)
			if len(d.Nights) != 20 || d.Nights[12].Label != "night 13" || !strings.HasPrefix(d.Subtitle, "20 nights, ") {
				t.Fatalf("nights %+v, subtitle %q", d.Nights, d.Subtitle)
			}
			for i, n := range d.Nights {
				want := ""
				if i == 4 {
					want = tc.link
				}
				if n.Link != want {
					t.Errorf("night %d links to %q, want %q", i+1, n.Link, want)
				}
			}
			p95 := false
			for _, f := range d.Figures {
				if len(f.Values) != 20 {
					t.Errorf("%s: %d values, want 20", f.Key, len(f.Values))
				}
				if f.Key == "p95" {
					p95 = true
					if len(f.Changes) != 1 || f.Changes[0].Index != 12 || !f.Changes[0].Regression {
						t.Errorf("p95 change points %+v, want one regression from night 13", f.Changes)
					}
				}
			}
			if !p95 {
				t.Error("no p95 chart")
			}
			if rows := d.URLChanges.Rows; len(rows) != 1 || rows[0][0] != "GET /page" || rows[0][2].([]any)[0] != "13" {
				t.Errorf("URL changes %v, want GET /page from night 13", rows)
			}
		})
	}
}

// A history the page cannot be drawn from is a usage error (exit 2) in one line that names the
// folder, the file or the flag, and no page is written.
func TestReportHistoryBadInput(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	broken := slowerFrom(t, 3, 10)
	bad := filepath.Join(broken, "night-02.json")
	if err := os.WriteFile(bad, []byte(`{"label": "night 02", "transactions": `), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"an empty folder", []string{"--history", empty}, empty + " holds no results"},
		{"a missing folder", []string{"--history", filepath.Join(empty, "none")}, "--history: "},
		{"an unreadable result", []string{"--history", broken}, bad},
		{"results and a folder", []string{"--history", broken, bad}, "not both"},
		{"a bad --change-min", []string{"--history", broken, "--change-min", "lots"}, "--change-min"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			page := filepath.Join(t.TempDir(), "trends.html")
			_, stderr, code := webload(t, nil, append([]string{"report", "--html", page}, tc.args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("stderr %q, want one line with %q", stderr, tc.want)
			}
			if _, err := os.Stat(page); err == nil {
				t.Error("a page was written")
			}
		})
	}
	if _, stderr, code := webload(t, nil, "report", "--history", empty); code != 2 || !strings.Contains(stderr, "--html") {
		t.Errorf("without --html: exit %d, %q", code, stderr)
	}
}
