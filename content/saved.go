package content

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/klauspost/compress/s2"
)

// saved is a Profile as a result file holds it:
//
//	{"samples": 40, "odd": 3, "odd_excerpt": "Database error …", "types": {"text/html": 40},
//	 "id": "9c1f0e2d4b6a8f10", "segments": "…"}
//
// Segments is the segment list, compressed with S2 (github.com/klauspost/compress/s2) and in
// base64: per segment a uvarint that is 0 for a volatile segment and otherwise the length of its
// text plus one, then the text. The hashes are not saved; loading makes them again from the
// texts, and checks them against the id.
type saved struct {
	Samples    int64            `json:"samples"`
	Odd        int64            `json:"odd,omitempty"`
	OddExcerpt string           `json:"odd_excerpt,omitempty"`
	Types      map[string]int64 `json:"types,omitempty"`
	ID         string           `json:"id,omitempty"`
	Segments   string           `json:"segments,omitempty"`
}

// MarshalJSON implements json.Marshaler: a Profile is saved in its compact form.
func (p Profile) MarshalJSON() ([]byte, error) {
	s := saved{Samples: p.Samples, Odd: p.Odd, OddExcerpt: p.OddExcerpt, ID: p.ID()}
	if len(p.Types) > 0 {
		s.Types = make(map[string]int64, len(p.Types))
		for _, t := range p.Types {
			s.Types[t.Type] = t.Count
		}
	}
	if p.segs.len() > 0 {
		raw := make([]byte, 0, len(p.segs.text)+2*p.segs.len())
		for i, h := range p.segs.hashes {
			if h == volatileHash {
				raw = binary.AppendUvarint(raw, 0)
				continue
			}
			t := p.segs.textOf(i)
			raw = binary.AppendUvarint(raw, uint64(len(t))+1)
			raw = append(raw, t...)
		}
		// S2 keeps no state between calls: a long URL list saves fast. Pages repeat themselves
		// (menus, markup), which it finds.
		s.Segments = base64.StdEncoding.EncodeToString(s2.EncodeBetter(nil, raw))
	}
	return json.Marshal(s)
}

// UnmarshalJSON implements json.Unmarshaler. It refuses a profile beyond the bounds a Learner
// keeps, and one whose id does not match its segments.
func (p *Profile) UnmarshalJSON(b []byte) error {
	var s saved
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s.Samples < 0 || s.Odd < 0 || s.Odd > s.Samples {
		return fmt.Errorf("content: %d odd samples of %d, want from 0 to the samples", s.Odd, s.Samples)
	}
	out := Profile{Samples: s.Samples, Odd: s.Odd, OddExcerpt: s.OddExcerpt}
	for k, v := range s.Types {
		if v < 0 {
			return fmt.Errorf("content: negative count %d of type %q", v, k)
		}
		out.Types = append(out.Types, TypeCount{k, v})
	}
	if len(out.Types) > MaxTypes+1 {
		return fmt.Errorf("content: %d types, at most %d are kept", len(out.Types), MaxTypes+1)
	}
	sortTypes(out.Types)
	segs, err := decodeSegments(s.Segments)
	if err != nil {
		return err
	}
	out.segs = segs
	if id := out.ID(); id != s.ID {
		return fmt.Errorf("content: id %q does not match the segments' %q", s.ID, id)
	}
	*p = out
	return nil
}

// decodeSegments reads the segment list of the saved form.
func decodeSegments(enc string) (segList, error) {
	if enc == "" {
		return segList{}, nil
	}
	z, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return segList{}, fmt.Errorf("content segments: %w", err)
	}
	// The bound: MaxText of text and a uvarint of at most 3 bytes per segment.
	const limit = MaxText + 3*MaxSegments
	n, err := s2.DecodedLen(z)
	if err != nil {
		return segList{}, fmt.Errorf("content segments: %w", err)
	}
	if n > limit {
		return segList{}, errors.New("content segments: longer than a profile keeps")
	}
	raw, err := s2.Decode(nil, z)
	if err != nil {
		return segList{}, fmt.Errorf("content segments: %w", err)
	}
	var b segBuilder
	b.grow(0, len(raw))
	for r := raw; len(r) > 0; {
		n, k := binary.Uvarint(r)
		if k <= 0 || n > uint64(len(r)-k)+1 {
			return segList{}, errors.New("content segments: cut short")
		}
		r = r[k:]
		if len(b.hashes) == MaxSegments {
			return segList{}, fmt.Errorf("content segments: more than %d", MaxSegments)
		}
		if n == 0 {
			b.addVolatile()
			continue
		}
		t := r[:n-1]
		r = r[n-1:]
		if len(t) == 0 {
			return segList{}, errors.New("content segments: an empty segment")
		}
		b.addBytes(hashText(t), t)
	}
	// A list of no segments is no list: the profile saves without one, and must load as that
	// again (done gives the zero segList).
	segs, _ := b.done()
	return segs, nil
}
