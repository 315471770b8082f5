package loader

import (
	"strings"
	"testing"
)

// BenchmarkMentionsRefresh is what a page without a meta refresh costs a run without the parser
// (see readPage): one search of its bytes, here a 33 KB page with two q in each line.
func BenchmarkMentionsRefresh(b *testing.B) {
	page := []byte("<html><head><title>Kettle</title></head><body>" +
		strings.Repeat("<p>This kettle boils a litre of water quite quickly; its handle stays cool.</p>\n", 400) + "</body></html>")
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if mentionsRefresh(page) {
			b.Fatal("found a refresh in a page without one")
		}
	}
}

// A page is read for its refresh, without the parser, when it says http-equiv="refresh" as
// pages write it, and not for a refresh named elsewhere or another http-equiv.
func TestMentionsRefresh(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		page string
		want bool
	}{
		{`<meta http-equiv="refresh" content="0; url=/x">`, true},
		{`<META HTTP-EQUIV=Refresh CONTENT="0;URL=/x">`, true},
		{`<meta content="5" http-equiv = 'REFRESH'>`, true},
		{"<meta\nHttp-Equiv=\n\"refresh\">", true},
		{`<meta http-equiv="X-UA-Compatible" content="IE=edge">`, false},
		{`<p>Press F5 to refresh the page; the equivalent of a quick reload.</p>`, false},
		{`http-equiv`, false},
		{`qqq`, false},
		{``, false},
	} {
		if got := mentionsRefresh([]byte(tc.page)); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.page, got, tc.want)
		}
	}
}
