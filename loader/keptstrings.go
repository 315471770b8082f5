package loader

// keptStrings gives the same string each time for bytes that repeat. An HTTP/2 connection
// sends and receives few names and values, again and again, and hpack keeps the strings it
// indexes, so each must be a string of its own: making one per field was most of a request's
// allocations. It holds at most max strings, each for at most maxLen bytes (longer values,
// cookies and tokens, are not kept), and starts over when full.
type keptStrings struct {
	m           map[string]string
	max, maxLen int
}

func newKeptStrings(max, maxLen int) keptStrings {
	return keptStrings{m: make(map[string]string), max: max, maxLen: maxLen}
}

// lookup returns the string kept for b, if there is one.
func (k *keptStrings) lookup(b []byte) (string, bool) {
	s, ok := k.m[string(b)] // a lookup by string(b) does not allocate
	return s, ok
}

// keep keeps s for b, unless b is longer than maxLen.
func (k *keptStrings) keep(b []byte, s string) {
	if len(b) > k.maxLen {
		return
	}
	if len(k.m) >= k.max {
		clear(k.m)
	}
	k.m[string(b)] = s
}

// str returns b as a string: the one kept for it, or a new one, then kept.
func (k *keptStrings) str(b []byte) string {
	if s, ok := k.lookup(b); ok {
		return s
	}
	s := string(b)
	k.keep(b, s)
	return s
}
