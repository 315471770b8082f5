package extract

import "testing"

// fixedHeader answers Peek and PeekCookie from fixed lines without allocating, as fasthttp's
// header does, so the test counts the rules' own allocations.
type fixedHeader struct{ name, value, cookie, setCookie []byte }

func (h fixedHeader) Peek(name string) []byte {
	if name == string(h.name) {
		return h.value
	}
	return nil
}

func (h fixedHeader) PeekCookie(name string) []byte {
	if name == string(h.cookie) {
		return h.setCookie
	}
	return nil
}

// TestExtractAllocs pins what a rule costs per response beyond its value's copy: the engine
// applies rules to every response of a URL that has them.
func TestExtractAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	h := fixedHeader{name: []byte("Location"), value: []byte("/next"), cookie: []byte("sid"), setCookie: []byte("sid=abc; Path=/; HttpOnly")}
	resp := Response{Body: []byte(`<input name="t" value="abc"> {"t":"abc"}`), Header: h}
	tests := []struct {
		rule string
		max  float64
	}{
		{"v header:Location", 1},
		{"v cookie:sid", 1},
		{`v regex:value="(\w+)"`, 2},
	}
	for _, tt := range tests {
		r := mustParse(t, tt.rule)
		if _, err := r.Extract(resp); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = r.Extract(resp) }); n > tt.max {
			t.Errorf("%s: %v allocations per response, want at most %v", tt.rule, n, tt.max)
		}
	}
}
