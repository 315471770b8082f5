package content

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"slices"

	"github.com/cespare/xxhash/v2"
)

// Profile is what one URL answered in a run: how many answers were fingerprinted, the content
// types of all its answers, and the segments of its first fingerprinted answer, each either
// stable (present in every sample, with its normalised text) or volatile (it varied; no text is
// kept). It is a plain value; the zero Profile is a URL with no 2xx answer fingerprinted.
type Profile struct {
	// Samples counts the 2xx answers fingerprinted.
	Samples int64
	// Types counts every answer by media type (lower case, without parameters; NoType for an
	// answer without Content-Type),
	// most frequent first; at most MaxTypes, the rest counted as "other".
	Types []TypeCount
	// Odd counts the samples that were another page than the others, such as an error page
	// served now and then (see Learner); they are in Samples but took no part in learning what
	// is stable. OddExcerpt is the start of the text of one of them.
	Odd        int64
	OddExcerpt string
	segs       segList
}

// Segment is a piece of an answer: stable with its normalised text, or volatile.
type Segment struct {
	hash uint64
	// Text is the segment's text after normalising; "" for a volatile one.
	Text string
}

// Volatile tells whether the segment varied within its run.
func (s Segment) Volatile() bool { return s.hash == volatileHash }

// Segments are the profile's segments in the order of the body, in a new slice.
func (p *Profile) Segments() []Segment { return p.segs.list() }

// TypeCount is how many answers came with one media type.
type TypeCount struct {
	Type  string
	Count int64
}

// MaxTypes is how many media types a profile names; more are counted under OtherType.
const MaxTypes = 4

// OtherType counts the answers of the media types beyond MaxTypes.
const OtherType = "other"

// NoType counts the answers without a Content-Type.
const NoType = "none"

// ID is a short fingerprint of the stable content: equal IDs mean the same stable segments in
// the same order. "" when nothing was fingerprinted.
func (p *Profile) ID() string {
	if p.Samples == 0 && p.segs.len() == 0 {
		return ""
	}
	d := xxhash.New()
	var b [8]byte
	for _, h := range p.segs.hashes {
		if h != volatileHash {
			binary.LittleEndian.PutUint64(b[:], h)
			_, _ = d.Write(b[:])
		}
	}
	return hex.EncodeToString(binary.BigEndian.AppendUint64(nil, d.Sum64()))
}

// Merge adds two profiles of the same URL (the runs of a series, or the shards of one run): the
// samples and types add up, and a segment stays stable only if it is stable on both sides. The
// segment order is that of the profile with more segments (on a tie, the one whose hashes sort
// first), so Merge(a, b) equals Merge(b, a).
func Merge(a, b Profile) Profile {
	out := Profile{Samples: a.Samples + b.Samples, Types: addTypes(a.Types, b.Types), Odd: a.Odd + b.Odd,
		OddExcerpt: a.OddExcerpt}
	if a.OddExcerpt == "" || b.OddExcerpt != "" && b.OddExcerpt < a.OddExcerpt {
		out.OddExcerpt = b.OddExcerpt // either order gives the same
	}
	base, other := a.segs, b.segs
	if other.len() > base.len() || other.len() == base.len() && slices.Compare(other.hashes, base.hashes) < 0 {
		base, other = other, base
	}
	switch {
	case other.len() == 0 && base.len() == 0:
		return out
	case other.len() == 0 && (a.Samples == 0 || b.Samples == 0):
		out.segs = base // one side saw no 2xx answer: nothing to intersect with; never changed, so shared
		return out
	}
	stable := make(map[uint64]bool, other.len())
	for _, h := range other.hashes {
		if h != volatileHash {
			stable[h] = true
		}
	}
	var sb segBuilder
	sb.grow(base.len(), len(base.text))
	for i, h := range base.hashes {
		if stable[h] {
			sb.add(h, base.textOf(i))
		} else {
			sb.addVolatile()
		}
	}
	out.segs, _ = sb.done()
	return out
}

// typeCounts counts answers by media type while a run lasts.
type typeCounts struct {
	seen  []TypeCount
	other int64
}

// add counts one answer of Content-Type ct; it allocates only for a type not seen before.
func (t *typeCounts) add(ct []byte) {
	ct = mediaType(ct)
	if len(ct) == 0 {
		var none [len(NoType)]byte // on the stack: no allocation per answer
		copy(none[:], NoType)
		ct = none[:]
	}
	for i := range t.seen {
		if len(t.seen[i].Type) == len(ct) && bytes.EqualFold([]byte(t.seen[i].Type), ct) {
			t.seen[i].Count++
			return
		}
	}
	if len(t.seen) == MaxTypes {
		t.other++
		return
	}
	t.seen = append(t.seen, TypeCount{Type: string(bytes.ToLower(ct)), Count: 1})
}

// list gives the counts in a Profile's order.
func (t *typeCounts) list() []TypeCount {
	out := slices.Clone(t.seen)
	if t.other > 0 {
		out = append(out, TypeCount{Type: OtherType, Count: t.other})
	}
	return sortTypes(out)
}

// addTypes adds two profiles' type counts, keeping MaxTypes and counting the rest as other.
func addTypes(a, b []TypeCount) []TypeCount {
	if len(a) == 0 && len(b) == 0 {
		return nil
	}
	sum := map[string]int64{}
	for _, t := range slices.Concat(a, b) {
		sum[t.Type] += t.Count
	}
	var out []TypeCount
	for k, v := range sum {
		if k != OtherType {
			out = append(out, TypeCount{k, v})
		}
	}
	out = sortTypes(out)
	if other := sum[OtherType]; len(out) > MaxTypes || other > 0 {
		for _, t := range out[min(MaxTypes, len(out)):] {
			other += t.Count
		}
		out = append(out[:min(MaxTypes, len(out))], TypeCount{OtherType, other})
	}
	return out
}

// sortTypes puts counts most frequent first, then by name, "other" last.
func sortTypes(t []TypeCount) []TypeCount {
	slices.SortFunc(t, func(x, y TypeCount) int {
		if (x.Type == OtherType) != (y.Type == OtherType) {
			if x.Type == OtherType {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.Type, y.Type))
	})
	return t
}

// mediaType is a Content-Type without its parameters and surrounding space.
func mediaType(ct []byte) []byte {
	if i := bytes.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return bytes.TrimSpace(ct)
}
