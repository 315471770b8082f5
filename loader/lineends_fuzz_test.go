package loader

import (
	"bytes"
	"testing"
)

// FuzzLineEnds: whatever bytes come, lineEnds only ever adds a CR before an LF, and reads the
// same bytes however reads split them and however small the reader's buffer is.
func FuzzLineEnds(f *testing.F) {
	for i, tc := range h1Cases() {
		f.Add([]byte(tc.in), tc.head, uint16(i*7), uint8(i))
	}
	f.Fuzz(func(t *testing.T, in []byte, head bool, split uint16, size uint8) {
		whole := readLineEnds(in, head, len(in), 4096)
		if !onlyCRsAdded(in, whole) {
			t.Fatalf("%q read as %q", in, whole)
		}
		at, bufSize := int(split)%(len(in)+1), int(size)%16+1
		if parts := readLineEnds(in, head, at, bufSize); !bytes.Equal(parts, whole) {
			t.Fatalf("split at %d, buffer %d: %q, in one read: %q", at, bufSize, parts, whole)
		}
	})
}

// onlyCRsAdded tells whether out is in with CRs added before some of its bare LFs, and
// nothing else changed.
func onlyCRsAdded(in, out []byte) bool {
	i := 0
	for k := 0; k < len(out); k++ {
		switch {
		case i < len(in) && out[k] == in[i]:
			i++
		case out[k] != '\r' || i == len(in) || in[i] != '\n' || k > 0 && out[k-1] == '\r':
			return false // not a CR added before a bare LF
		}
	}
	return i == len(in)
}
