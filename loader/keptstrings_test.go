package loader

import (
	"strings"
	"testing"
	"unsafe"
)

// keptStrings hands back the string it kept for the same bytes, keeps none for bytes longer
// than maxLen, and starts over once it holds max.
func TestKeptStrings(t *testing.T) {
	k := newKeptStrings(2, 4)
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	a := k.str([]byte("abc"))
	if got := k.str([]byte("abc")); got != "abc" || !same(got, a) {
		t.Errorf("the same bytes again gave %q, a string of its own: %v", got, !same(got, a))
	}
	long := strings.Repeat("x", 5)
	if _, ok := k.lookup([]byte(k.str([]byte(long)))); ok {
		t.Error("kept a string longer than maxLen")
	}
	k.str([]byte("def")) // the second kept: full
	if _, ok := k.lookup([]byte("abc")); !ok {
		t.Error("lost a string before it was full")
	}
	k.str([]byte("ghi")) // starts over
	if _, ok := k.lookup([]byte("abc")); ok || len(k.m) != 1 {
		t.Errorf("holds %d strings after starting over, abc among them: %v; want 1 and no", len(k.m), ok)
	}
}
