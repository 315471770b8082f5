package judge

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/webload/webload/content"
	"github.com/webload/webload/stats"

	"gonum.org/v1/gonum/stat/distuv"
)

// The kinds of content change, in order of importance: a URL whose answers changed in several
// ways is shown once, under the first.
const (
	ChangeStatus  = "status"  // the status mix changed (statusmix.go)
	ChangeContent = "content" // the stable content changed, by the fingerprints' comparison
	ChangeSize    = "size"    // the body size moved beyond its noise
)

// A URL's size has moved when the mean moved by at least minSizeMove of the larger mean (pages
// of one stack vary by a token or a timestamp from request to request, never by 5 %) and
// Welch's t-test on the two runs' size moments passes (see contentAlpha). With a single
// response on a side there is no spread to test by, and only a move of loneSizeMove counts.
const (
	minSizeMove  = 0.05
	loneSizeMove = 0.5
)

// contentAlpha is the false discovery rate of the Content section's tests: the status and size
// tests of all the URLs of a comparison are held together to it (Benjamini-Hochberg), so that
// two runs of one stack over a list of 500 URLs show nothing, where a 1 % level for each URL
// would flag five by chance. For a single URL it is a test at p <= 0.01.
const contentAlpha = 0.01

// ContentChange is one URL that answers differently in a candidate run than in the baseline.
type ContentChange struct {
	// Label names the candidate run.
	Label  string `json:"label"`
	Method string `json:"method"`
	// URL is the candidate's URL; the baseline's is paired with it by method, path and query,
	// since the stacks compared often differ in host.
	URL string `json:"url"`
	// Path is the URL's path and query, which pair it with the baseline's.
	Path string `json:"path"`
	// Change is the most important kind that changed: ChangeStatus, ChangeContent or ChangeSize.
	Change string `json:"change"`
	// Magnitude is how large that change is, 0 to 1: for status the total variation distance of
	// the two mixes, for size |Δ mean| / the larger mean, for content the fingerprints' own.
	Magnitude float64 `json:"magnitude"`
	// Before and After show the change: "200 ×50" and "404 ×50", "31.2 KiB" and "1.1 KiB", or
	// the two sides of the first difference of the content.
	Before string `json:"before"`
	After  string `json:"after"`
	// Excerpt shows the first difference of the stable content when the fingerprints found one,
	// whatever the kind shown: "Price: 15.65 EUR" → "Price: 18.65 EUR".
	Excerpt string `json:"excerpt,omitempty"`
	// Also lists the other kinds that changed, in order of importance.
	Also []string `json:"also,omitempty"`
	// P is the p-value of the status or size test; nil for content.
	P *float64 `json:"p,omitempty"`
}

// ContentChanges lists the URLs of cand that answer differently from base's, one each, biggest
// change first. URLs are paired by method, path and query, the n-th of a kind with the n-th;
// a URL without a request on either side has nothing to compare. label names cand.
func ContentChanges(base, cand *stats.Report, label string) []ContentChange {
	return contentSection(base, cand, label, nil).Content
}

// contentSection is what the Content section says of cand against base: the URLs that answer
// differently (see ContentChanges), those whose answers vary by themselves, and those with too
// few answers to judge their content. varied says, by method, path and query, the URLs whose
// content is known to vary from run to run, and how (nightlyVariation); their content is not
// judged either, and they are listed when it differs.
func contentSection(base, cand *stats.Report, label string, varied map[string]string) ContentSection {
	byKey := map[string][]*stats.URLStats{}
	for i := range base.URLs {
		u := &base.URLs[i]
		k := u.Method + " " + stats.RequestURI(u.URL)
		byKey[k] = append(byKey[k], u)
	}
	var urls [][]finding
	var tested []float64
	sec := ContentSection{ContentURLs: sizedURLs(base, cand)}
	for i := range cand.URLs {
		u := &cand.URLs[i]
		path := stats.RequestURI(u.URL)
		k := u.Method + " " + path
		if len(byKey[k]) == 0 {
			continue
		}
		b := byKey[k][0]
		byKey[k] = byKey[k][1:]
		note, ok := contentNote(b, u)
		if how, known := varied[k]; known && !ok && content.Compare(b.Content, u.Content).Changed {
			note, ok = ContentChange{Change: ContentVariesKind, Before: how, After: "not judged"}, true
		}
		if ok {
			note.Label, note.Method, note.URL, note.Path = label, u.Method, u.URL, path
			sec.note(note)
		}
		found := urlFindings(b, u, ok)
		for j := range found {
			found[j].ch.Label, found[j].ch.Method, found[j].ch.URL, found[j].ch.Path = label, u.Method, u.URL, path
			if found[j].tested {
				tested = append(tested, found[j].p)
			}
		}
		urls = append(urls, found)
	}
	threshold := fdrThreshold(tested, contentAlpha)
	out := sec.Content
	for _, found := range urls {
		if ch, ok := urlChange(found, threshold); ok {
			out = append(out, ch)
		}
	}
	slices.SortStableFunc(out, func(a, b ContentChange) int {
		if a.Magnitude != b.Magnitude {
			if a.Magnitude > b.Magnitude {
				return -1
			}
			return 1
		}
		return 0
	})
	sec.Content = out
	return sec
}

// finding is one kind of change a URL may show, before the tests of all URLs are judged together.
type finding struct {
	ch ContentChange
	// tested says a test gave p; sure marks a change that needs none (disjoint status mixes,
	// a lone response half the size, a content change); large says the move is large enough to
	// count (minMixMove, minSizeMove).
	p                   float64
	tested, sure, large bool
}

// changed says whether the finding is a change when tests pass at p <= threshold.
func (f *finding) changed(threshold float64) bool {
	return f.sure || f.large && f.tested && f.p <= threshold
}

// urlFindings are what the tests of one URL found: its status mix, its content (by the
// fingerprints, unless skipContent: the URL is not judged on it) and its size, in that order;
// the kinds with nothing to compare are left out.
func urlFindings(b, u *stats.URLStats, skipContent bool) []finding {
	mb, mu := mixOf(b), mixOf(u)
	if mb == nil || mu == nil {
		return nil
	}
	d, p := mixDistance(mb, mu), mixChangeP(mb, mu)
	found := []finding{{ch: ContentChange{Change: ChangeStatus, Magnitude: d, Before: mb.String(), After: mu.String(), P: &p},
		p: p, tested: true, sure: disjoint(mb, mu), large: d >= minMixMove}}
	if !skipContent { // a URL not judged on content is not diffed for nothing
		if f, ok := contentFinding(b.Content, u.Content); ok {
			found = append(found, f)
		}
	}
	if f, ok := sizeFinding(b.Size, u.Size); ok {
		found = append(found, f)
	}
	return found
}

// urlChange is a URL's line: the first kind that changed, with the others in Also and the
// content's excerpt whatever the kind shown.
func urlChange(found []finding, threshold float64) (ContentChange, bool) {
	var ch ContentChange
	n := 0
	for i := range found {
		f := &found[i]
		if !f.changed(threshold) {
			continue
		}
		if n == 0 {
			ch = f.ch
		} else {
			ch.Also = append(ch.Also, f.ch.Change)
		}
		if f.ch.Change == ChangeContent {
			ch.Excerpt = f.ch.Excerpt
		}
		n++
	}
	return ch, n > 0
}

// contentFinding compares the fingerprints of a URL's stable content (package content). A change
// the fingerprints see needs no test: what varies within a run is already left out of them. A
// URL whose content cannot be judged (contentJudged) has no finding. The change's magnitude is
// its share of the answer weighed by how stable the page was on both sides, so that an edit of a
// page whose answers never vary outranks a page that varies in part.
func contentFinding(b, u *content.Profile) (finding, bool) {
	if b == nil || u == nil || b.Samples == 0 || u.Samples == 0 || contentJudged(b, u) != "" {
		return finding{}, false // no 2xx answer on a side (the status mix tells), or not judged
	}
	c := content.Compare(b, u)
	if !c.Changed || content.Reordered(b, u) && b.Odd == 0 && u.Odd == 0 {
		return finding{}, false
	}
	excerpt := strconv.Quote(c.Before) + " → " + strconv.Quote(c.After)
	magnitude := c.Share * (1 - b.VolatileShare()) * (1 - u.VolatileShare())
	return finding{ch: ContentChange{Change: ChangeContent, Magnitude: magnitude, Before: c.Before, After: c.After,
		Excerpt: excerpt}, sure: true}, true
}

// sizeFinding compares a URL's body sizes (see minSizeMove); nil sizes, of results saved before
// sizes were recorded, have nothing to compare.
func sizeFinding(b, u *stats.SizeStats) (finding, bool) {
	if b == nil || u == nil || b.Count == 0 || u.Count == 0 {
		return finding{}, false
	}
	mb, mu := b.Mean(), u.Mean()
	move := 0.0
	if mb != mu {
		move = math.Abs(mu-mb) / math.Max(mb, mu)
	}
	f := finding{ch: ContentChange{Change: ChangeSize, Magnitude: move, Before: sizeText(mb), After: sizeText(mu)},
		large: move >= minSizeMove}
	if b.Count < 2 || u.Count < 2 {
		f.sure = move >= loneSizeMove
		return f, true
	}
	f.p, f.tested = welchMoments(b.Count, mb, b.Variance(), u.Count, mu, u.Variance()), true
	f.ch.P = &f.p
	return f, true
}

// fdrThreshold is the Benjamini-Hochberg threshold of p-values at false discovery rate q: the
// largest p(k) with p(k) <= k/m q, the p-values sorted; -1 when none passes.
func fdrThreshold(ps []float64, q float64) float64 {
	s := slices.Clone(ps)
	slices.Sort(s)
	for k := len(s); k >= 1; k-- {
		if s[k-1] <= float64(k)/float64(len(s))*q {
			return s[k-1]
		}
	}
	return -1
}

// welchMoments is the two-sided p-value of Welch's t-test from each side's count (at least 2),
// mean and sample variance. Two sides without any spread differ for sure when their means do.
func welchMoments(na int64, ma, va float64, nb int64, mb, vb float64) float64 {
	sa, sb := va/float64(na), vb/float64(nb)
	if sa+sb == 0 {
		if ma == mb {
			return 1
		}
		return 0
	}
	t := (mb - ma) / math.Sqrt(sa+sb)
	// Welch-Satterthwaite degrees of freedom.
	df := (sa + sb) * (sa + sb) / (sa*sa/float64(na-1) + sb*sb/float64(nb-1))
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t))
}

// sizeText shows a mean body size in binary units: "512 B", "31.2 KiB", "1.4 MiB".
func sizeText(bytes float64) string {
	switch {
	case bytes < 1024:
		return fmt.Sprintf("%.0f B", bytes)
	case bytes < 1024*1024:
		return fmt.Sprintf("%.1f KiB", bytes/1024)
	}
	return fmt.Sprintf("%.1f MiB", bytes/(1024*1024))
}
