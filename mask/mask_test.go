package mask

import (
	"encoding/json"
	"html"
	"net/url"
	"strings"
	"testing"
)

// A Set masks a credential in every form a page may print it, the longest form first, and
// leaves the rest of the text as it was; a credential shorter than MinLen is left alone.
func TestSetMasksEveryForm(t *testing.T) {
	t.Parallel()
	const pw = `p@ss w/rd&"x'<y>`
	j, _ := json.Marshal(pw)
	forms := map[string]string{
		"as written":       pw,
		"HTML-escaped":     html.EscapeString(pw),
		"PHP's HTML":       `p@ss w/rd&amp;&quot;x&#039;&lt;y&gt;`,
		"Python's HTML":    `p@ss w/rd&amp;&quot;x&#x27;&lt;y&gt;`,
		"query-escaped":    url.QueryEscape(pw),
		"path-escaped":     url.PathEscape(pw),
		"JSON-escaped":     string(j[1 : len(j)-1]),
		"JSON, plain HTML": `p@ss w/rd&\"x'<y>`,
		"JSON, PHP's":      `p@ss w\/rd&\"x'<y>`,
		"basic-auth pair":  Basic("bob", pw),
	}
	var s Set
	s.AddBasic("bob", pw)
	s.Add("abc") // too short
	for name, f := range forms {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			text := "before " + f + " after abc"
			want := "before " + Token + " after abc"
			if got := s.String(text); got != want {
				t.Errorf("String(%q) = %q, want %q", text, got, want)
			}
			if got := string(s.Append([]byte("x:"), []byte(text))); got != "x:"+want {
				t.Errorf("Append(%q) = %q, want %q", text, got, "x:"+want)
			}
		})
	}
	var empty Set
	if got := empty.String("abc " + pw); got != "abc "+pw || !empty.Empty() {
		t.Errorf("the zero Set masked: %q", got)
	}
	if strings.Contains(s.String(pw+pw), pw[:4]) {
		t.Errorf("a credential twice is not masked twice: %q", s.String(pw+pw))
	}
}

// Masking a text without credentials allocates nothing: it runs on every excerpt kept.
func BenchmarkSetString(b *testing.B) {
	var s Set
	for _, v := range []string{"s3cret-db-pass", "Bearer eyJhbGciOiJIUzI1NiJ9.e30", "sid=0123456789abcdef"} {
		s.Add(v)
	}
	text := strings.Repeat("a line of a page with nothing to hide in it ", 20)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.String(text)
	}
}
