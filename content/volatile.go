package content

import "strings"

// VolatileShare is the part of the profile's segments that varied among the answers of its run
// (or, for profiles merged over several runs, among those runs), from 0 to 1: how much a URL's
// answers differ among themselves. Bare tags ("<p>", "</div>") are left out of the count: every
// page repeats them, so a page whose every paragraph varies would otherwise read as half stable.
// 0 for a profile without segments.
func (p *Profile) VolatileShare() float64 {
	volatile, n := p.Variation()
	if n == 0 {
		return 0
	}
	return float64(volatile) / float64(n)
}

// Variation counts the profile's volatile segments and the segments VolatileShare is of.
func (p *Profile) Variation() (volatile, of int) {
	for i, h := range p.segs.hashes {
		switch {
		case h == volatileHash:
			volatile++
		case bareTag(p.segs.textOf(i)):
			continue
		}
		of++
	}
	return volatile, of
}

// bareTag tells a tag without attributes, opening or closing, from a segment with content.
func bareTag(t string) bool {
	if len(t) < 3 || t[0] != '<' || t[len(t)-1] != '>' {
		return false
	}
	return !strings.ContainsAny(t[1:len(t)-1], " =\"'<>")
}

// Reordered tells whether two profiles have the same stable segments, as many times each, in
// another order: search results of equal relevance that two databases (or two runs of one)
// list in different orders. A run learns its stable segments without their order, so a list
// whose order varies from answer to answer is stable within a run; only its order tells two
// runs apart, and an order alone is not content.
func Reordered(a, b *Profile) bool {
	count := map[uint64]int{}
	for _, h := range a.segs.hashes {
		if h != volatileHash {
			count[h]++
		}
	}
	for _, h := range b.segs.hashes {
		if h != volatileHash {
			count[h]--
		}
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}
