package content

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Change is what Compare found between two profiles of a URL.
type Change struct {
	// Changed is true when the stable content differs.
	Changed bool
	// Share is the part of the segments (of the longer side) in changed stretches, from 0 to 1:
	// how much of the answer changed, to put the biggest changes first.
	Share float64
	// Before and After are the texts of the first changed stretch, trimmed to about
	// ExcerptLength bytes from a little before the first differing byte; "" for a side that has
	// nothing there. Volatile segments show as "…".
	Before, After string
}

// ExcerptLength is about how long Change's excerpts are.
const ExcerptLength = 80

// maxEdits bounds the diff: beyond it the whole differing middle is one changed stretch. The
// diff's memory grows with its square (4 MiB at the bound).
const maxEdits = 1000

// Compare tells whether the stable content of a URL's answers changed from before to after, or,
// when it did not, whether more of the answers were another page (Profile.Odd: an error page
// served now and then), whose excerpt it then gives as After.
// The segment lists are aligned (a Myers diff on their hashes); a differing stretch is no change
// when one side's segments there all varied within their run and the other side has no more of
// them (a token replaced by a token), so a run that fetched the URL once is judged by the other
// run's learning. A profile with no sample (nil, or no 2xx answer) says nothing: the zero Change,
// and the status mix tells the rest.
func Compare(before, after *Profile) Change {
	if before == nil || after == nil || before.Samples == 0 || after.Samples == 0 {
		return Change{}
	}
	a, b := before.segs.list(), after.segs.list()
	var out Change
	changed, texts := 0, false
	for _, h := range align(a, b) {
		if !h.changed(a, b) {
			continue
		}
		// The excerpt is of the first stretch with text in it, if there is one: "Blue kettle"
		// → "Database error" says more than <html lang="en"> → <html>.
		sa, sb := a[h.a0:h.a1], b[h.b0:h.b1]
		if t := hasText(sa) || hasText(sb); !out.Changed || t && !texts {
			out.Before, out.After = excerpts(sa, sb, t)
			texts = t
		}
		out.Changed = true
		changed += max(h.a1-h.a0, h.b1-h.b0)
	}
	if n := max(len(a), len(b)); n > 0 {
		out.Share = min(float64(changed)/float64(n), 1)
	}
	if !out.Changed {
		out = compareOdd(before, after)
	}
	return out
}

// oddMargin is how much larger a share of odd answers (see Profile.Odd) must be after than
// before to be a change: one odd answer in a few dozen samples is noise.
const oddMargin = 0.05

// compareOdd tells whether more of the answers were another page (an error page served now
// and then) after than before. Its Share is the growth of their share of the samples.
func compareOdd(before, after *Profile) Change {
	ob := float64(before.Odd) / float64(before.Samples)
	oa := float64(after.Odd) / float64(after.Samples)
	if after.Odd == 0 || oa <= ob+oddMargin {
		return Change{}
	}
	c := Change{Changed: true, Share: oa - ob, After: after.OddExcerpt}
	if before.Odd > 0 {
		c.Before = before.OddExcerpt
	}
	return c
}

// hunk is a differing stretch: a[a0:a1] became b[b0:b1].
type hunk struct{ a0, a1, b0, b1 int }

// changed tells whether the stretch changes stable content.
func (h hunk) changed(a, b []Segment) bool {
	na, nb := h.a1-h.a0, h.b1-h.b0
	va, vb := allVolatile(a[h.a0:h.a1]), allVolatile(b[h.b0:h.b1])
	if na > 0 && va && (vb || nb <= na) || nb > 0 && vb && (va || na <= nb) {
		return false
	}
	return true
}

func allVolatile(s []Segment) bool {
	for _, x := range s {
		if !x.Volatile() {
			return false
		}
	}
	return true
}

// align lists the differing stretches of a and b, in order.
func align(a, b []Segment) []hunk {
	p := 0
	for p < len(a) && p < len(b) && a[p].hash == b[p].hash {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s].hash == b[len(b)-1-s].hash {
		s++
	}
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	if len(ma) == 0 && len(mb) == 0 {
		return nil
	}
	hs, ok := myers(ma, mb)
	if !ok {
		return []hunk{{p, p + len(ma), p, p + len(mb)}}
	}
	for i := range hs {
		hs[i].a0, hs[i].a1, hs[i].b0, hs[i].b1 = hs[i].a0+p, hs[i].a1+p, hs[i].b0+p, hs[i].b1+p
	}
	return hs
}

// myers is Myers' O(ND) diff of a and b, grouped into stretches; false when they differ by
// more than maxEdits segments.
func myers(a, b []Segment) ([]hunk, bool) {
	n, m := len(a), len(b)
	maxD := min(n+m, maxEdits)
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	var trace [][]int32
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1]) // from the diagonal above: b[y-1] inserted
			} else {
				x = int(v[off+k-1]) + 1 // from the left: a[x-1] deleted
			}
			y := x - k
			for x < n && y < m && a[x].hash == b[y].hash {
				x, y = x+1, y+1
			}
			v[off+k] = int32(x)
			if x >= n && y >= m {
				trace = append(trace, slices.Clone(v[off-d:off+d+1]))
				return backtrack(trace, n, m), true
			}
		}
		trace = append(trace, slices.Clone(v[off-d:off+d+1]))
	}
	return nil, false
}

// backtrack walks the diff's trace from the end and groups its edits into stretches.
func backtrack(trace [][]int32, n, m int) []hunk {
	type edit struct {
		x, y int
		del  bool
	}
	at := func(d, k int) int { return int(trace[d][k+d]) }
	var edits []edit
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		k := x - y
		var pk int
		if k == -d || (k != d && at(d-1, k-1) < at(d-1, k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(d-1, pk)
		py := px - pk
		edits = append(edits, edit{px, py, pk == k-1})
		x, y = px, py
	}
	slices.Reverse(edits)
	var hs []hunk
	for _, e := range edits {
		if len(hs) == 0 || hs[len(hs)-1].a1 != e.x || hs[len(hs)-1].b1 != e.y {
			hs = append(hs, hunk{e.x, e.x, e.y, e.y})
		}
		h := &hs[len(hs)-1]
		if e.del {
			h.a1++
		} else {
			h.b1++
		}
	}
	return hs
}

// excerpts gives the two sides of a changed stretch as short texts, from a little before their
// first differing byte; only the text segments when textOnly is set.
func excerpts(a, b []Segment, textOnly bool) (string, string) {
	ta, tb := joined(a, textOnly), joined(b, textOnly)
	p := 0
	for p < len(ta) && p < len(tb) && ta[p] == tb[p] {
		p++
	}
	from := max(p-ExcerptLength/4, 0)
	return trimmed(ta, from), trimmed(tb, from)
}

// joined is the text of the first segments of s, enough for an excerpt.
func joined(s []Segment, textOnly bool) string {
	var b strings.Builder
	for _, x := range s {
		if textOnly && markup(x) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if x.Volatile() {
			b.WriteString("…")
		} else {
			b.WriteString(x.Text)
		}
		if b.Len() > 4*ExcerptLength {
			break
		}
	}
	return b.String()
}

// hasText tells whether s has a segment that is not markup.
func hasText(s []Segment) bool {
	for _, x := range s {
		if !markup(x) {
			return true
		}
	}
	return false
}

// markup tells a tag's name or attribute (which starts with the tag's name) from text. A
// volatile segment counts as markup: it has no text to show.
func markup(x Segment) bool { return x.Volatile() || strings.HasPrefix(x.Text, "<") }

// trimmed is about ExcerptLength bytes of t from byte from (moved back to a character's start),
// printable, with "…" where it was cut.
func trimmed(t string, from int) string {
	from = min(from, len(t))
	for from > 0 && from < len(t) && !utf8.RuneStart(t[from]) {
		from--
	}
	end := min(from+ExcerptLength, len(t))
	for end < len(t) && !utf8.RuneStart(t[end]) {
		end++
	}
	out := strings.Map(func(r rune) rune {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return '?'
		}
		return r
	}, t[from:end])
	if from > 0 {
		out = "…" + out
	}
	if end < len(t) {
		out += "…"
	}
	return out
}
