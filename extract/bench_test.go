package extract

import (
	"net/http"
	"strings"
	"testing"
)

// page30K is the MediaWiki login page grown to about 30 KiB with article-like paragraphs
// before the form, so the value sits where real pages put it: well into the body.
func page30K(b *testing.B) []byte {
	page := readPage(b, "mediawiki-login.html")
	para := "<p>Lorem ipsum dolor sit amet, <a href=\"/wiki/Consectetur\" title=\"Consectetur\">consectetur</a> adipiscing elit, sed do eiusmod tempor.</p>\n"
	i := strings.Index(page, `<div id="userloginForm">`)
	body := page[:i] + strings.Repeat(para, (30<<10-len(page))/len(para)+1) + page[i:]
	return []byte(body)
}

// json30K is a JSON answer of about 30 KiB with the value near its end.
func json30K() []byte {
	item := `{"id":12345,"title":"Lorem ipsum dolor sit amet","tags":["a","b","c"],"price":19.99},`
	return []byte(`{"items":[` + strings.Repeat(item, 30<<10/len(item)) + `{"id":1}],"login":{"token":"d41d8cd98f00b204e9800998ecf8427e+\\"}}`)
}

func BenchmarkExtract(b *testing.B) {
	header := httpHeader(http.Header{
		"Location":   {"/index.php?title=Main_Page"},
		"Set-Cookie": {"wiki_session=0123456789abcdef; path=/; HttpOnly"},
	})
	page := page30K(b)
	tests := []struct {
		name, rule string
		body       []byte
	}{
		{"regex", `token regex:value="([^"]*)" name="wpLoginToken"`, page},
		{"css", "token css:input[name=wpLoginToken] value", page},
		{"json", "token json:login.token", json30K()},
		{"header", "loc header:Location", page},
		{"cookie", "sid cookie:wiki_session", page},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			r := mustParse(b, tt.rule)
			resp := Response{Body: tt.body, Header: header}
			if _, err := r.Extract(resp); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(tt.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Extract(resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
