package content

import "strings"

// oddOne tells whether the sample just scanned into s is another page than the first sample,
// and books it as such: most of the first sample's stable text missing, and less than half
// or more than twice as many segments. That is an error page served now and then ("A database
// query error has occurred" with status 200), which would otherwise leave nothing stable of the
// URL's page: it is counted and its excerpt kept instead. When such samples are the majority,
// the first sample was the odd one, and this sample becomes the first. The lock is held.
func (l *Learner) oddOne(s *Scanner) bool {
	// Weighed by their text's length: the tags a page repeats ("<p>") are on every page.
	segs, stable, missing := 0, 0, 0
	for i, v := range l.segs.hashes {
		if v != volatileHash {
			t := len(l.segs.textOf(i))
			segs++
			stable += t
			if !s.set.has(v) {
				missing += t
			}
		}
	}
	n := len(s.segs)
	if segs < minOddStable || 2*missing <= stable || 2*n >= l.refSegs && n <= 2*l.refSegs {
		return false
	}
	l.odd++
	if l.oddText == "" {
		l.oddText = scannedExcerpt(s)
	}
	if l.samples >= 4 && 2*l.odd > l.samples {
		// The samples so far that agreed with the first become the odd ones.
		old := l.excerpt()
		l.odd = l.samples - l.odd
		l.oddText = old
		l.keep(s, 0) // a body hash of 0: the next identical body is cut and compared again
	}
	return true
}

// minOddStable is the fewest stable segments a page must have for a sample to be judged
// another page: a short page has too few to tell.
const minOddStable = 8

// scannedExcerpt is the start of the text (not markup) of the body scanned into s.
func scannedExcerpt(s *Scanner) string {
	var b strings.Builder
	for _, sg := range s.segs {
		if addExcerpt(&b, string(s.text[sg.off:sg.end])) {
			break
		}
	}
	return b.String()
}

// excerpt is the start of the text (not markup) of the first sample. The lock is held.
func (l *Learner) excerpt() string {
	var b strings.Builder
	for i, v := range l.segs.hashes {
		if v != volatileHash && addExcerpt(&b, l.segs.textOf(i)) {
			break
		}
	}
	return b.String()
}

// addExcerpt adds a segment's text to an excerpt unless it is markup, and tells whether the
// excerpt is long enough.
func addExcerpt(b *strings.Builder, t string) bool {
	if markup(Segment{hash: 1, Text: t}) {
		return false
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(t)
	if b.Len() >= ExcerptLength {
		s := trimmed(b.String(), 0)
		b.Reset()
		b.WriteString(s)
		return true
	}
	return false
}
