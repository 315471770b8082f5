package content

import (
	"slices"
	"strings"
)

// segList is a profile's segments, compact, since a long URL list keeps one per URL reached:
// segment i's hash is hashes[i] (volatileHash for one that varied within its run) and its text
// text[ends[i-1]:ends[i]], empty for a volatile one. A segList is never changed once made, so a
// learner and the profiles it gives share one; the zero segList has no segments. Its form is
// canonical: equal segment lists are equal values, whether learned or loaded.
type segList struct {
	hashes []uint64
	ends   []int32
	text   string
}

func (s segList) len() int { return len(s.hashes) }

// textOf is segment i's text, "" for a volatile one.
func (s segList) textOf(i int) string {
	from := int32(0)
	if i > 0 {
		from = s.ends[i-1]
	}
	return s.text[from:s.ends[i]]
}

// list gives the segments as values, sharing the text.
func (s segList) list() []Segment {
	if s.len() == 0 {
		return nil
	}
	out := make([]Segment, s.len())
	for i, h := range s.hashes {
		out[i] = Segment{hash: h, Text: s.textOf(i)}
	}
	return out
}

// segBuilder makes a segList, its room allocated once: grown by appending, a long list's
// copies would cost more than cutting the bodies apart did. The zero value is ready.
type segBuilder struct {
	hashes []uint64
	ends   []int32
	text   strings.Builder
}

// grow makes room for n segments with size bytes of text in all.
func (b *segBuilder) grow(n, size int) {
	// slices.Grow and Builder.Grow round the capacity up to what the allocator gives, which
	// done then counts; make would leave it at n.
	b.hashes = slices.Grow(b.hashes, n)
	b.ends = slices.Grow(b.ends, n)
	b.text.Grow(size)
}

func (b *segBuilder) add(hash uint64, text string) {
	b.text.WriteString(text)
	b.hashes = append(b.hashes, hash)
	b.ends = append(b.ends, int32(b.text.Len()))
}

func (b *segBuilder) addBytes(hash uint64, text []byte) {
	b.text.Write(text)
	b.hashes = append(b.hashes, hash)
	b.ends = append(b.ends, int32(b.text.Len()))
}

func (b *segBuilder) addVolatile() {
	b.hashes = append(b.hashes, volatileHash)
	b.ends = append(b.ends, int32(b.text.Len()))
}

// done gives the list and the bytes it holds as allocated. A list of no segments is the zero
// segList, as a loaded one is.
func (b *segBuilder) done() (segList, int) {
	if len(b.hashes) == 0 {
		return segList{}, 0
	}
	return segList{hashes: b.hashes, ends: b.ends, text: b.text.String()},
		8*cap(b.hashes) + 4*cap(b.ends) + b.text.Cap()
}
