package judge

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/content"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// answer is how a site answers one path: a status and a body size, which varies by up to
// jitter bytes from request to request, as pages with tokens and timestamps do.
type answer struct {
	status uint16
	size   int64
}

// siteRun records n requests to each path, answered as given, and reports them under label.
func siteRun(host, label string, n int, paths []string, answers map[string]answer) stats.Report {
	var targets []urls.Target
	for _, p := range paths {
		targets = append(targets, urls.Target{Method: "GET", URL: "http://" + host + p})
	}
	rec := stats.NewRecorder(targets, stats.Options{})
	var batch []loader.Result
	for i := range n {
		for t, p := range paths {
			a := answers[p]
			batch = append(batch, loader.Result{Target: int32(t), Status: a.status, Latency: time.Millisecond,
				Decoded: a.size + int64(i*7%23), BodyBytes: a.size})
		}
	}
	rec.Record(batch)
	return rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1}, stats.RunInfo{}, label)
}

// priceProfile is the fingerprint of a product page at the given price, learned from answers
// whose form token and serving time vary from one to the next, as a run learns it.
func priceProfile(t *testing.T, price string) *content.Profile {
	t.Helper()
	l := content.NewLearner(content.Options{})
	var s content.Scanner
	for i := range MinContentSamples {
		page := fmt.Sprintf("<html><body>\n<h1>Blue kettle</h1>\n<p>Price: %s EUR</p>\n"+
			"<input type=hidden name=token value=\"%x\">\n<p>served in 0.%03d s</p>\n</body></html>\n",
			price, rand.Uint64(), i*37%1000)
		if !l.Sample(200, []byte("text/html")) {
			t.Fatalf("answer %d was not sampled", i)
		}
		l.Observe(&s, []byte(page))
	}
	p := l.Profile()
	return &p
}

func TestContentChanges(t *testing.T) {
	t.Parallel()
	paths := []string{"/a", "/gone", "/short", "/price"}
	old := map[string]answer{"/a": {200, 2000}, "/gone": {200, 5000}, "/short": {200, 3000}, "/price": {200, 1500}}
	changed := map[string]answer{"/a": {200, 2000}, "/gone": {404, 300}, "/short": {200, 100}, "/price": {200, 1500}}
	base := siteRun("old.example", "old", 50, paths, old)
	same := siteRun("new.example", "same", 50, paths, old)
	cand := siteRun("new.example", "new", 50, paths, changed)
	// /price keeps its size but its price changed, which only the fingerprints see.
	base.URLs[3].Content = priceProfile(t, "15.65")
	same.URLs[3].Content = priceProfile(t, "15.65")
	cand.URLs[3].Content = priceProfile(t, "18.65")
	if got := ContentChanges(&base, &same, "same"); len(got) != 0 {
		t.Errorf("the same stack twice: %+v", got)
	}
	got := ContentChanges(&base, &cand, "new")
	want := []struct {
		url, change, shown string
	}{
		{"http://new.example/gone", ChangeStatus, "200 ×50 → 404 ×50 (also size)"},
		{"http://new.example/short", ChangeSize, "2.9 KiB → 111 B"},
		{"http://new.example/price", ChangeContent, `"Price: 15.65 EUR" → "Price: 18.65 EUR"`},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d changes, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.URL != w.url || g.Change != w.change || g.shown() != w.shown || g.Label != "new" || g.Method != "GET" {
			t.Errorf("change %d: %s %s %q, want %s %s %q", i, g.URL, g.Change, g.shown(), w.url, w.change, w.shown)
		}
	}
	cmp, err := Compare([]stats.Report{base, cand}, false)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := cmp.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, w := range []string{
		"\nContent: 3 URLs of 4 answer differently from the baseline (one line per URL",
		"  new  status   GET /gone   200 ×50 → 404 ×50 (also size)\n",
		"  new  size     GET /short  2.9 KiB → 111 B\n",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	if i, j := strings.Index(text, "ETime"), strings.Index(text, "Content:"); i < 0 || j < i {
		t.Errorf("the Content section comes after the figures table:\n%s", text)
	}
	b.Reset()
	if err := cmp.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| new | GET /gone | status | 200 ×50 → 404 ×50 (also size) |\n") {
		t.Errorf("markdown:\n%s", b.String())
	}
	cmp, err = Compare([]stats.Report{base, same}, false)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := cmp.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Content: the 4 URLs answer as the baseline did (status mix, content and size)") {
		t.Errorf("no change, markdown:\n%s", b.String())
	}
}

// Sizes vary a little from request to request on one stack; only a move beyond that noise and
// of at least 5 % counts.
func TestSizeChangeRule(t *testing.T) {
	t.Parallel()
	sizes := func(lo, step int64, n int) *stats.SizeStats {
		var s stats.SizeStats
		for i := range n {
			s.Record(lo + int64(i)%5*step)
		}
		return &s
	}
	tests := []struct {
		name string
		a, b *stats.SizeStats
		want bool
	}{
		{"same sizes", sizes(1000, 0, 50), sizes(1000, 0, 50), false},
		{"a token's worth of jitter", sizes(30000, 10, 50), sizes(30010, 10, 50), false},
		{"a much shorter page", sizes(30000, 10, 50), sizes(1100, 10, 50), true},
		{"4 % shorter, surely", sizes(10000, 0, 500), sizes(9600, 0, 500), false},
		{"6 % shorter, surely", sizes(10000, 0, 500), sizes(9400, 0, 500), true},
		{"6 % shorter in wide noise", sizes(10000, 2000, 5), sizes(9400, 2000, 5), false},
		{"one response each, 30 % shorter", sizes(1000, 0, 1), sizes(700, 0, 1), false},
		{"one response each, 60 % shorter", sizes(1000, 0, 1), sizes(400, 0, 1), true},
		{"no sizes saved", nil, sizes(10, 0, 5), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, ok := sizeFinding(tc.a, tc.b)
			if got := ok && f.changed(contentAlpha); got != tc.want {
				t.Errorf("changed = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestContentVerdicts(t *testing.T) {
	t.Parallel()
	two := []ContentChange{
		{Label: "new", Method: "GET", URL: "http://h/gone", Path: "/gone", Change: ChangeStatus, Before: "200 ×5", After: "404 ×5"},
		{Label: "new", Method: "GET", URL: "http://h/short?x=1", Path: "/short?x=1", Change: ChangeSize, Before: "2.0 KiB", After: "40 B"},
	}
	tests := []struct {
		name    string
		changes []ContentChange
		max     int
		cases   int
		failed  int
		want    string
	}{
		{"nothing changed", nil, 0, 1, 0, "Content: no URL answers differently (allowed 0): ok"},
		{"two changed, none allowed", two, 0, 2, 2, "Content new GET /gone: status 200 ×5 → 404 ×5: FAILED (2 URLs changed, allowed 0)"},
		{"two changed, one allowed", two, 1, 2, 2, "Content new GET /short?x=1: size 2.0 KiB → 40 B: FAILED (2 URLs changed, allowed 1)"},
		{"two changed, two allowed", two, 2, 2, 0, "Content new GET /gone: status 200 ×5 → 404 ×5: ok (2 URLs changed, allowed 2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v := contentVerdicts(tc.changes, tc.max)
			if len(v) != tc.cases || stats.Failed(v) != tc.failed {
				t.Errorf("%d checks, %d failed; want %d, %d", len(v), stats.Failed(v), tc.cases, tc.failed)
			}
			found := false
			for _, r := range v {
				found = found || r.Text == tc.want
			}
			if !found {
				t.Errorf("no verdict reads %q: %+v", tc.want, v)
			}
		})
	}
}

// A history flags the URLs of its newest run that answer differently from the run before it,
// before it has enough nights to judge the figures.
func TestTrendContentChanges(t *testing.T) {
	t.Parallel()
	paths := []string{"/a", "/gone"}
	old := map[string]answer{"/a": {200, 2000}, "/gone": {200, 5000}}
	broken := map[string]answer{"/a": {200, 2000}, "/gone": {500, 300}}
	nights := []stats.Report{siteRun("h", "mon", 20, paths, old), siteRun("h", "tue", 20, paths, old)}
	tr, err := NewTrend(nights, DefaultMinHistory)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Content) != 0 || tr.ContentURLs != 2 {
		t.Errorf("two alike nights: %+v, %d URLs", tr.Content, tr.ContentURLs)
	}
	tr, err = NewTrend(append(nights, siteRun("h", "wed", 20, paths, broken)), DefaultMinHistory)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Content) != 1 || tr.Content[0].Label != "wed" || tr.Content[0].Change != ChangeStatus || tr.Content[0].After != "500 ×20" {
		t.Fatalf("a night that broke /gone: %+v", tr.Content)
	}
	var b strings.Builder
	if err := tr.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Content: 1 URL of 2 answers differently from the run before (") ||
		!strings.Contains(b.String(), "  wed  status   GET /gone  200 ×20 → 500 ×20 (also size)\n") {
		t.Errorf("text:\n%s", b.String())
	}
	if v := tr.CheckContent(0); stats.Failed(v) != 1 {
		t.Errorf("verdicts %+v", v)
	}
}

// noisyStack is a run over n URLs of pages whose sizes vary by ±20 % from request to request,
// 50 requests each, with sizes drawn from seed; the URLs in shrunk answer 20 % shorter.
func noisyStack(n int, seed uint64, shrunk ...int) stats.Report {
	rng := rand.New(rand.NewPCG(seed, 3))
	var rep stats.Report
	for i := range n {
		mean := 10000.0
		if slices.Contains(shrunk, i) {
			mean = 8000
		}
		var s stats.SizeStats
		for range 50 {
			s.Record(int64(mean * (0.8 + 0.4*rng.Float64())))
		}
		rep.URLs = append(rep.URLs, stats.URLStats{Method: "GET", URL: fmt.Sprintf("http://h/page/%d", i), Hits: 50,
			StatusCodes: stats.StatusCounts{"200": 50}, Size: &s})
	}
	return rep
}

// Over a long URL list, the tests of all URLs are held together: two runs of one stack show no
// URL, though each URL's test alone would flag one in a hundred, and the URLs that did change
// are still found.
func TestContentChangesOverManyURLs(t *testing.T) {
	t.Parallel()
	flagged := 0
	const trials = 30
	for i := range trials {
		a, b := noisyStack(300, uint64(2*i)), noisyStack(300, uint64(2*i+1))
		if got := ContentChanges(&a, &b, "b"); len(got) > 0 {
			flagged++
		}
	}
	if flagged > 1 {
		t.Errorf("%d of %d comparisons of one stack flagged a URL", flagged, trials)
	}
	a, b := noisyStack(300, 1), noisyStack(300, 2, 7, 70, 170)
	got := ContentChanges(&a, &b, "b")
	var paths []string
	for _, ch := range got {
		paths = append(paths, ch.Path)
	}
	slices.Sort(paths)
	if fmt.Sprint(paths) != "[/page/170 /page/7 /page/70]" {
		t.Errorf("flagged %v, want the three pages 20 %% shorter", paths)
	}
}

// FuzzContentChanges feeds two arbitrary saved results to the Content section: impossible
// counts and sizes must give a section, never a panic or a walk without end.
func FuzzContentChanges(f *testing.F) {
	a := siteRun("a", "a", 5, []string{"/x", "/y"}, map[string]answer{"/x": {200, 100}, "/y": {200, 5}})
	b := siteRun("b", "b", 5, []string{"/x", "/y"}, map[string]answer{"/x": {404, 100}, "/y": {200, 500}})
	ja, _ := json.Marshal(&a)
	jb, _ := json.Marshal(&b)
	f.Add(ja, jb)
	f.Fuzz(func(t *testing.T, base, cand []byte) {
		var a, b stats.Report
		if json.Unmarshal(base, &a) != nil || json.Unmarshal(cand, &b) != nil {
			return
		}
		sec := contentSection(&a, &b, "b", nil)
		var w strings.Builder
		sec.write(&w, "the baseline", false)
		_ = sec.verdicts(0)
	})
}

// BenchmarkContentChanges judges 500 URLs of 50 requests each, three of them changed: what a
// compare of a long URL list adds to the table.
func BenchmarkContentChanges(b *testing.B) {
	b.ReportAllocs()
	base, cand := noisyStack(500, 1), noisyStack(500, 2, 7, 70, 170)
	for b.Loop() {
		ContentChanges(&base, &cand, "b")
	}
}
