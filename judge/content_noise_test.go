package judge

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/webload/webload/content"
	"github.com/webload/webload/stats"
)

// learned is the profile a run learns from the answers page(0), page(1), ... page(n-1).
func learned(t *testing.T, n int, page func(i int) string) *content.Profile {
	t.Helper()
	l := content.NewLearner(content.Options{})
	var s content.Scanner
	for i := range n {
		if !l.Sample(200, []byte("text/html")) {
			t.Fatalf("answer %d was not sampled", i)
		}
		l.Observe(&s, []byte(page(i)))
	}
	p := l.Profile()
	return &p
}

// wikiPage is a page of a wiki: a skin of nav lines around an article of body lines.
func wikiPage(article string, body int) string {
	var b strings.Builder
	b.WriteString("<html><body>\n")
	for i := range 6 {
		fmt.Fprintf(&b, "<p>Navigation link %d</p>\n", i)
	}
	fmt.Fprintf(&b, "<h1>%s</h1>\n", article)
	for i := range body {
		fmt.Fprintf(&b, "<p>%s, paragraph %d.</p>\n", article, i)
	}
	b.WriteString("<p>Privacy policy</p>\n</body></html>\n")
	return b.String()
}

// What a real site answers differently from one visit to the next is no content change:
// a random page, search results of equal relevance in another order, a URL seen too seldom to
// learn what varies on it. They are listed apart, not counted; a real edit of a stable page is
// still found, and ranked above a change of a page that varies in part.
func TestContentNoise(t *testing.T) {
	t.Parallel()
	n := MinContentSamples
	stable := func(words string) *content.Profile {
		return learned(t, n, func(int) string { return wikiPage(words, 4) })
	}
	random := func(seed int) *content.Profile { // a different article each visit
		return learned(t, n, func(i int) string { return wikiPage(fmt.Sprintf("Article %d", seed*100+i), 4) })
	}
	results := func(order ...string) *content.Profile { // the same hits, in the order given
		return learned(t, n, func(int) string {
			var b strings.Builder
			b.WriteString("<html><body>\n<h1>Search results</h1>\n")
			for _, o := range order {
				fmt.Fprintf(&b, "<li>Result %s</li>\n", o)
			}
			b.WriteString("</body></html>\n")
			return b.String()
		})
	}
	withAd := func(words string) *content.Profile { // the article, and an ad slot that rotates
		return learned(t, n, func(i int) string {
			return strings.Replace(wikiPage(words, 4), "<p>Privacy policy</p>", fmt.Sprintf("<p>Ad: offer %d</p>", i), 1)
		})
	}
	few := func(words string) *content.Profile {
		return learned(t, n-2, func(int) string { return wikiPage(words, 4) })
	}
	paths := []string{"/wiki/Kettle", "/wiki/Special:Random", "/search?q=kettle", "/wiki/Teapot", "/wiki/Rare"}
	base := siteRun("old.example", "old", n, paths, map[string]answer{})
	cand := siteRun("new.example", "new", n, paths, map[string]answer{})
	for i, p := range []struct{ base, cand *content.Profile }{
		{stable("Kettle"), stable("Kettle edited")},
		{random(1), random(2)},
		{results("A", "B", "C"), results("B", "A", "C")},
		{withAd("Teapot"), withAd("Teapot edited")},
		{few("Rare"), few("Rare edited")},
	} {
		base.URLs[i].Content, cand.URLs[i].Content = p.base, p.cand
	}
	sec := contentSection(&base, &cand, "new", nil)
	var got []string
	for _, ch := range sec.Content {
		got = append(got, ch.Path)
	}
	if want := []string{"/wiki/Kettle", "/wiki/Teapot"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("changes %v, want %v (the stable page first)", got, want)
	}
	if len(sec.ContentVaries) != 1 || sec.ContentVaries[0].Path != "/wiki/Special:Random" || sec.ContentVaries[0].Magnitude < VariesShare {
		t.Errorf("varies %+v, want the random page", sec.ContentVaries)
	}
	if len(sec.ContentNotJudged) != 1 || sec.ContentNotJudged[0].Path != "/wiki/Rare" ||
		sec.ContentNotJudged[0].Before != fmt.Sprintf("%d answers", n-2) {
		t.Errorf("not judged %+v, want the rare page", sec.ContentNotJudged)
	}
	var b strings.Builder
	sec.write(&b, "the baseline", false)
	for _, want := range []string{"Content: 2 URLs of 5 answer differently", "Content: 1 URL varies by itself, not judged",
		"/wiki/Special:Random  ", "Content: 1 URL not judged, fewer than 8 answers fingerprinted on a side",
		"GET /wiki/Rare  6 answers → 6 answers"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	if v := sec.verdicts(0); len(v) != 2 || v[0].Passed {
		t.Errorf("verdicts %+v, want the two changes failed", v)
	}
	// --content-ignore leaves a page out wherever it is listed.
	sec.IgnoreContent([]*regexp.Regexp{regexp.MustCompile(`^/wiki/(Special:Random|Teapot)$`)})
	if len(sec.Content) != 1 || len(sec.ContentVaries) != 0 || sec.ContentIgnored != 2 {
		t.Errorf("after --content-ignore: %+v", sec)
	}
}

// A nightly history judges the newest night's content against the night before, unless the
// URL's content changed between at least half of the earlier nights: a featured article of the
// day, search results that differ by night. Those are listed, not judged; a page the same every
// night that changes is a change, and so is a change some nights after one edit.
func TestHistoryContentJudgedByEveryNight(t *testing.T) {
	t.Parallel()
	n := MinContentSamples
	night := func(featured, title string) stats.Report {
		r := siteRun("wiki.example", featured, n, []string{"/wiki/Main_Page"}, map[string]answer{"/wiki/Main_Page": {200, 3000}})
		r.URLs[0].Content = learned(t, n, func(int) string {
			return strings.Replace(wikiPage(title, 12), "<p>Privacy policy</p>", "<p>Featured: "+featured+"</p>", 1)
		})
		return r
	}
	for _, tc := range []struct {
		name    string
		runs    []stats.Report
		changed bool
		varies  string // the note on the URL, "" for none
	}{
		{"a third featured article", []stats.Report{night("Kettle", "Main"), night("Teapot", "Main"), night("Cup", "Main")}, false,
			"changed between 1 of 1 pairs of earlier runs"},
		{"the second night", []stats.Report{night("Kettle", "Main"), night("Teapot", "Main")}, false,
			"one earlier run: which pages vary by night is not known yet"},
		{"the second night, the same page", []stats.Report{night("Kettle", "Main"), night("Kettle", "Main")}, false, ""},
		{"the title changed", []stats.Report{night("Kettle", "Main"), night("Kettle", "Main"), night("Kettle", "Broken")}, true, ""},
		{"results that differ by night", []stats.Report{night("Kettle", "Hits A"), night("Kettle", "Hits B"), night("Kettle", "Hits C"),
			night("Kettle", "Hits D")}, false, "changed between 2 of 2 pairs of earlier runs"},
		{"an edit some nights ago", []stats.Report{night("Kettle", "Main"), night("Kettle", "Main"), night("Kettle", "Edited"),
			night("Kettle", "Edited"), night("Kettle", "Edited"), night("Kettle", "Broken")}, true, ""},
	} {
		tr, err := NewTrend(tc.runs, 2)
		if err != nil {
			t.Fatal(err)
		}
		if changed := len(tr.Content) > 0; changed != tc.changed {
			t.Errorf("%s: content changes %+v, want changed %v", tc.name, tr.Content, tc.changed)
		}
		varies := ""
		if len(tr.ContentVaries) == 1 {
			varies = tr.ContentVaries[0].Before
		}
		if varies != tc.varies {
			t.Errorf("%s: varies %+v, want %q", tc.name, tr.ContentVaries, tc.varies)
		}
	}
}
