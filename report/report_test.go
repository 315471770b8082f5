package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/webload/webload/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// decodedPage is the page's data as the script sees it.
type decodedPage struct {
	Title    string `json:"title"`
	Subtitle string `json:"subtitle"`
	Runs     []struct {
		Label    string `json:"label"`
		About    string `json:"about"`
		Timeline struct {
			Step     float64    `json:"step"`
			Merged   int        `json:"merged"`
			T        []*float64 `json:"t"`
			P99      []*float64 `json:"p99"`
			Requests []*float64 `json:"requests"`
			Queries  []*float64 `json:"queries"`
		} `json:"timeline"`
		URLs    decodedTable `json:"urls"`
		URLNote string       `json:"url_note"`
	} `json:"runs"`
	Summary      decodedTable `json:"summary"`
	SummaryNotes []string     `json:"summary_notes"`
	Comparison   *struct {
		Figures decodedTable `json:"figures"`
		URLs    decodedTable `json:"urls"`
		Notes   []string     `json:"notes"`
	} `json:"comparison"`
	Curves struct {
		X []float64    `json:"x"`
		Y [][]*float64 `json:"y"`
	} `json:"curves"`
	StatusCodes decodedTable `json:"status_codes"`
	Errors      decodedTable `json:"errors"`
}

type decodedTable struct {
	Columns []struct {
		Title string `json:"title"`
		Num   bool   `json:"num"`
	} `json:"columns"`
	Rows     [][]any `json:"rows"`
	Sortable bool    `json:"sortable"`
}

// dataBlob is the text of the page's <script id="data">.
func dataBlob(t testing.TB, page []byte) []byte {
	t.Helper()
	const open = `<script type="application/json" id="data">`
	start := bytes.Index(page, []byte(open))
	if start < 0 {
		t.Fatal("the page has no data element")
	}
	start += len(open)
	end := bytes.Index(page[start:], []byte("</script>"))
	if end < 0 {
		t.Fatal("the data element is not closed")
	}
	return page[start : start+end]
}

func pageData(t testing.TB, page []byte) decodedPage {
	t.Helper()
	var d decodedPage
	if err := json.Unmarshal(dataBlob(t, page), &d); err != nil {
		t.Fatalf("the page's data is not JSON: %v", err)
	}
	return d
}

// small is a quick result for structure tests.
func small(label string, seed uint64) stats.Report {
	return synthetic(load{label: label, urls: 5, seconds: 20, perSecond: 50, slowdown: 3, seed: seed})
}

func TestNoExternalReferences(t *testing.T) {
	t.Parallel()
	base, cand := small("base", 1), small("candidate http://evil.test/x.js", 2)
	// A URL of the load test may be anything; it must stay inside the data.
	cand.URLs[0].URL = `https://cdn.test/lib.js"></script><script src="https://cdn.test/x.js"></script>`
	tests := []struct {
		name    string
		results []stats.Report
	}{
		{name: "one result", results: []stats.Report{base}},
		{name: "two results", results: []stats.Report{base, cand}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			page := render(t, tt.results, Options{})
			blob := dataBlob(t, page)
			outside := string(bytes.Replace(page, blob, nil, 1))
			for _, bad := range []string{"http://", "https://", "//cdn", "@import", "url(", "<link", "<iframe", "<img", "fetch(", "XMLHttpRequest", "sourceMappingURL"} {
				if strings.Contains(outside, bad) {
					t.Errorf("the page has %q outside its data", bad)
				}
			}
			checkElements(t, page)
		})
	}
}

// checkElements walks the page's markup: no element may load anything (src, href, srcset,
// data, poster, action), and only the four expected scripts (the data, uPlot, common.js and
// report.js) and two styles may be there.
func checkElements(t *testing.T, page []byte) {
	t.Helper()
	z := html.NewTokenizer(bytes.NewReader(page))
	scripts, styles := 0, 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			if scripts != 4 || styles != 2 {
				t.Errorf("%d scripts and %d styles, want 4 and 2", scripts, styles)
			}
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			switch tok.Data {
			case "script":
				scripts++
			case "style":
				styles++
			}
			for _, a := range tok.Attr {
				switch a.Key {
				case "src", "href", "srcset", "data", "poster", "action", "formaction", "background":
					t.Errorf("<%s %s=%q> would load something", tok.Data, a.Key, a.Val)
				}
			}
		}
	}
}

func TestDataRoundTrip(t *testing.T) {
	t.Parallel()
	nasty := "</script><script>alert(1)</script><!-- \u2028 & é"
	base, cand := small("base "+nasty, 1), small("candidate", 2)
	base.URLs[1].URL = "http://127.0.0.1:8080/search?q=" + nasty
	results := []stats.Report{base, cand}
	page := render(t, results, Options{Title: "title " + nasty})
	if bytes.Contains(page, []byte("<script>alert(1)")) || bytes.Count(page, []byte("</script>")) != 4 {
		t.Fatal("text in the data closed its element")
	}
	want, err := buildPage(results, Options{Title: "title " + nasty, MaxPoints: DefaultMaxPoints})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if blob := dataBlob(t, page); !bytes.Equal(blob, wantJSON) {
		t.Fatal("the page's data differs from the data it was built from")
	}
	d := pageData(t, page)
	checks := []struct {
		name      string
		got, want any
	}{
		{"title", d.Title, "title " + nasty},
		{"label", d.Runs[0].Label, "base " + nasty},
		{"URL", d.Runs[0].URLs.Rows[1][1], "/search?q=" + nasty},
		{"hits", d.Runs[0].URLs.Rows[1][2], []any{fmt.Sprint(base.URLs[1].Hits), float64(base.URLs[1].Hits)}},
		{"runs", len(d.Runs), 2},
		{"timeline points", len(d.Runs[1].Timeline.T), len(cand.Timeline)},
		{"curves", len(d.Curves.Y), 2},
		{"comparison", d.Comparison != nil, true},
	}
	for _, c := range checks {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestWriteHTMLErrors(t *testing.T) {
	t.Parallel()
	corrupt := small("corrupt", 1)
	corrupt.Histogram = "not a histogram"
	badInterval := small("no interval", 1)
	badInterval.TimelineInterval = 0
	fine := small("fine", 3)
	tests := []struct {
		name    string
		results []stats.Report
		want    string
		index   int // of the result named by a ResultError; -1 for none
	}{
		{name: "no results", results: nil, want: ErrNoResults.Error(), index: -1},
		{name: "corrupt histogram", results: []stats.Report{fine, corrupt}, want: `result "corrupt": latencies: decode histogram`, index: 1},
		{name: "timeline without interval", results: []stats.Report{badInterval, fine}, want: errBadInterval.Error(), index: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			err := WriteHTML(&b, tt.results, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one saying %q", err, tt.want)
			}
			index := -1
			if re := (*ResultError)(nil); errors.As(err, &re) {
				index = re.Index
			}
			if index != tt.index {
				t.Errorf("the error names result %d, want %d", index, tt.index)
			}
			if b.Len() > 0 {
				t.Error("a failed page was partly written")
			}
		})
	}
	if err := WriteHTML(&bytes.Buffer{}, nil, Options{}); !errors.Is(err, ErrNoResults) {
		t.Errorf("no results: %v, want ErrNoResults", err)
	}
}

// TestPageStructure compares the page's outline (its elements and their ids, with the inlined
// assets' text left out) and its data for two small results with testdata/page.golden
// (rewritten by -update), so a change of either shows in review.
func TestPageStructure(t *testing.T) {
	t.Parallel()
	page := render(t, []stats.Report{small("base", 1), small("candidate", 2)}, Options{})
	var b strings.Builder
	b.WriteString(outline(page))
	var data bytes.Buffer
	if err := json.Indent(&data, dataBlob(t, page), "", " "); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\ndata:\n" + data.String() + "\n")
	golden := filepath.Join("testdata", "page.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("the page differs from %s (go test ./report/ -run TestPageStructure -update to accept):\n%s",
			golden, firstDifference(b.String(), string(want)))
	}
}

var hashes = regexp.MustCompile(`'sha256-[A-Za-z0-9+/=]+'`)

// outline lists the page's elements, indented by depth, with their ids and classes.
func outline(page []byte) string {
	var b strings.Builder
	z := html.NewTokenizer(bytes.NewReader(page))
	depth := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.EndTagToken:
			depth--
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			line := strings.Repeat("  ", depth) + tok.Data
			for _, a := range tok.Attr {
				val := hashes.ReplaceAllString(a.Val, "'sha256-…'") // the hashes change with the scripts
				line += fmt.Sprintf(" %s=%q", a.Key, val)
			}
			b.WriteString(line + "\n")
			if tt == html.StartTagToken && !voidElements[tok.Data] {
				depth++
			}
		}
	}
}

var voidElements = map[string]bool{"meta": true, "br": true, "hr": true, "img": true, "input": true, "link": true}

// firstDifference shows where two texts part, with a few lines of context.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		if i >= len(g) || i >= len(w) || g[i] != w[i] {
			from := max(0, i-2)
			return fmt.Sprintf("line %d:\ngot:  %q\nwant: %q", i+1, g[from:min(i+3, len(g))], w[from:min(i+3, len(w))])
		}
	}
	return ""
}
