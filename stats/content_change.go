package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// The kinds of content change, in order of importance: a URL whose answers changed in several
// ways is shown once, under the first.
const (
	ChangeStatus  = "status"  // the status mix changed (statusmix.go)
	ChangeContent = "content" // the stable content changed, by the fingerprints' comparison
	ChangeSize    = "size"    // the body size moved beyond its noise
)

// A URL's size has moved when Welch's t-test on the two runs' size moments gives p < sizeAlpha
// and the mean moved by at least minSizeMove of the larger mean: pages of one stack vary by a
// token or a timestamp from request to request, never by 5 %. With a single response on a side
// there is no spread to test by, and only a move of loneSizeMove counts.
const (
	sizeAlpha    = 0.01
	minSizeMove  = 0.05
	loneSizeMove = 0.5
)

// ContentChange is one URL that answers differently in a candidate run than in the baseline.
type ContentChange struct {
	// Label names the candidate run.
	Label  string `json:"label"`
	Method string `json:"method"`
	// URL is the candidate's URL; the baseline's is paired with it by method, path and query,
	// since the stacks compared often differ in host.
	URL string `json:"url"`
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

// ContentDiff compares the fingerprints of two URL rows' stable content (before is the
// baseline's): ok says the content changed, and the change gives its Magnitude, Before, After
// and Excerpt. It is the hook of the fingerprint comparison; nil compares status mixes and
// sizes only.
type ContentDiff func(before, after *URLStats) (change ContentChange, ok bool)

// ContentChanges lists the URLs of cand that answer differently from base's, one each, biggest
// change first. URLs are paired by method, path and query, the n-th of a kind with the n-th;
// a URL without a request on either side has nothing to compare. label names cand.
func ContentChanges(base, cand *Report, label string, diff ContentDiff) []ContentChange {
	byKey := map[string][]*URLStats{}
	for i := range base.URLs {
		u := &base.URLs[i]
		k := u.Method + " " + requestURI(u.URL)
		byKey[k] = append(byKey[k], u)
	}
	var out []ContentChange
	for i := range cand.URLs {
		u := &cand.URLs[i]
		k := u.Method + " " + requestURI(u.URL)
		if len(byKey[k]) == 0 {
			continue
		}
		b := byKey[k][0]
		byKey[k] = byKey[k][1:]
		if ch, ok := urlContentChange(b, u, diff); ok {
			ch.Label, ch.Method, ch.URL = label, u.Method, u.URL
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
	return out
}

// urlContentChange judges one URL: status, then content, then size; the first that changed
// is the change shown, the others are listed in Also.
func urlContentChange(b, u *URLStats, diff ContentDiff) (ContentChange, bool) {
	mb, mu := mixOf(b), mixOf(u)
	if mb == nil || mu == nil {
		return ContentChange{}, false
	}
	var found []ContentChange
	if d := mixDistance(mb, mu); d >= minMixMove {
		if p := mixChangeP(mb, mu); p < mixAlpha {
			found = append(found, ContentChange{Change: ChangeStatus, Magnitude: d, Before: mb.String(), After: mu.String(), P: &p})
		}
	}
	var excerpt string
	if diff != nil {
		if ch, ok := diff(b, u); ok {
			ch.Change, ch.P = ChangeContent, nil
			excerpt = ch.Excerpt
			found = append(found, ch)
		}
	}
	if ch, ok := sizeChange(b.Size, u.Size); ok {
		found = append(found, ch)
	}
	if len(found) == 0 {
		return ContentChange{}, false
	}
	ch := found[0]
	ch.Excerpt = excerpt
	for _, o := range found[1:] {
		ch.Also = append(ch.Also, o.Change)
	}
	return ch, true
}

// sizeChange judges a URL's body sizes (see sizeAlpha); nil sizes, of results saved before sizes
// were recorded, are not judged.
func sizeChange(b, u *SizeStats) (ContentChange, bool) {
	if b == nil || u == nil || b.Count == 0 || u.Count == 0 {
		return ContentChange{}, false
	}
	mb, mu := b.Mean(), u.Mean()
	move := math.Abs(mu-mb) / math.Max(mb, mu)
	if mb == mu || move < minSizeMove {
		return ContentChange{}, false
	}
	ch := ContentChange{Change: ChangeSize, Magnitude: move, Before: sizeText(mb), After: sizeText(mu)}
	if b.Count < 2 || u.Count < 2 {
		return ch, move >= loneSizeMove
	}
	p := welchMoments(b.Count, mb, b.Variance(), u.Count, mu, u.Variance())
	ch.P = &p
	return ch, p < sizeAlpha
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
