package urls

import (
	"slices"
	"testing"
)

// A log_format that extends the combined one keeps its extra fields, quoted or bare, in order;
// a plain combined or common line has none.
func TestAccessExtraFields(t *testing.T) {
	t.Parallel()
	const head = `10.0.0.1 - - [10/Oct/2026:13:55:36 +0000] "GET /p HTTP/1.1" 200 512`
	f, err := NewAccessFilter(ImportOptions{Base: "http://127.0.0.1:8080"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, line string
		want       []string
	}{
		{"common", head, nil},
		{"combined", head + ` "-" "Mozilla/5.0"`, nil},
		{"a cookie and a time", head + ` "-" "Mozilla/5.0" "sid=a\"b" 0.012`, []string{`sid=a"b`, "0.012"}},
		{"none logged", head + ` "-" "Mozilla/5.0" "-"`, []string{"-"}},
	} {
		req, skip, err := f.Line(tc.line)
		if err != nil || skip != "" {
			t.Fatalf("%s: %v %q", tc.name, err, skip)
		}
		if !slices.Equal(req.Extra, tc.want) {
			t.Errorf("%s: extra %q, want %q", tc.name, req.Extra, tc.want)
		}
	}
}
