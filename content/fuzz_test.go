package content

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzProfileJSON loads arbitrary saved profiles: a load either fails or gives a profile that
// saves and loads again to itself.
func FuzzProfileJSON(f *testing.F) {
	for _, p := range []Profile{run(1, 10, nil), run(2, 1, nil), {}, {Samples: 2}} {
		b, _ := json.Marshal(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var p Profile
		if err := json.Unmarshal(b, &p); err != nil {
			return
		}
		again, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("saving a loaded profile: %v", err)
		}
		var q Profile
		if err := json.Unmarshal(again, &q); err != nil {
			t.Fatalf("loading %s again: %v", again, err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("profile changed on the way through %s", again)
		}
		if p.segs.len() > MaxSegments {
			t.Fatalf("%d segments loaded, more than %d", p.segs.len(), MaxSegments)
		}
	})
}

// FuzzScan cuts arbitrary bodies: every segment is non-empty, at most a bounded length, and
// hashed from its text; a learner fed the same body twice keeps every segment stable.
func FuzzScan(f *testing.F) {
	f.Add(productPage(answer{token: "abc", price: "15.65"}, 2<<10))
	f.Add(errorPage())
	f.Add([]byte(`<a href="x`))
	f.Add([]byte("<!-- x"))
	f.Add([]byte("Tue, 01 Dec 2026 22:35:19 GMT 2026-12-01T22:35:19Z 0.012"))
	f.Fuzz(func(t *testing.T, body []byte) {
		var s Scanner
		s.scan(body, nil)
		for _, sg := range s.segs {
			text := s.text[sg.off:sg.end]
			// Normalising may lengthen a segment by its markers ("1" → "#date" is not
			// possible, but "0.0001" → "#n" shortens); a segment is at most its source's
			// MaxSegment bytes plus what markers add.
			if len(text) == 0 || len(text) > 5*MaxSegment {
				t.Fatalf("segment of %d bytes", len(text))
			}
			if sg.hash != hashText(text) || sg.hash == volatileHash {
				t.Fatalf("segment %q has a wrong hash", text)
			}
			if bytes.Contains(text, []byte("  ")) {
				t.Fatalf("segment %q has a run of spaces", text)
			}
		}
		l := NewLearner(Options{})
		for range 2 {
			if l.Sample(200, nil) {
				l.Observe(&s, body)
			}
		}
		p := l.Profile()
		if countVolatile(p) != 0 {
			t.Fatalf("the same body twice left %d segments volatile", countVolatile(p))
		}
	})
}
