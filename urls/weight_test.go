package urls

import (
	"bytes"
	"strings"
	"testing"
)

func TestWeights(t *testing.T) {
	t.Parallel()
	in := "# exported from analytics\n#@weight 1234\nhttp://h/a\nhttp://h/b\n#@weight 0.5\nhttp://h/c POST x=1\n"
	got, err := Parse(strings.NewReader(in), "u.txt", "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1234, 0, 0.5}
	for i, tg := range got {
		if tg.Weight != want[i] {
			t.Errorf("target %d weight %v, want %v", i, tg.Weight, want[i])
		}
	}
	for _, bad := range []string{"#@weight\nhttp://h/", "#@weight -1\nhttp://h/", "#@weight x\nhttp://h/", "#@weight 0\nhttp://h/"} {
		if _, err := Parse(strings.NewReader(bad), "u.txt", "", Options{}); err == nil || !strings.HasPrefix(err.Error(), "u.txt:1: bad weight") {
			t.Errorf("Parse(%q) error = %v", bad, err)
		}
	}
	var b bytes.Buffer
	if err := WriteWeighted(&b, []string{"http://h/a", "http://h/b"}, []float64{10, 0}); err != nil {
		t.Fatal(err)
	}
	if b.String() != "#@weight 10\nhttp://h/a\nhttp://h/b\n" {
		t.Errorf("WriteWeighted wrote %q", b.String())
	}
}
