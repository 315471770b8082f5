package page

import (
	"bytes"
	"net/url"

	"golang.org/x/net/html"
)

// referenceResources is Options.Resources as it was written on golang.org/x/net/html's
// tokenizer, kept as the reference the scanner must agree with on every input.
func referenceResources(o Options, body []byte, pageURL *url.URL) []*url.URL {
	return referenceFind(o, body, pageURL).Resources
}

// referenceFind is Options.Find on the tokenizer.
func referenceFind(o Options, body []byte, pageURL *url.URL) Found {
	c := newCollector(pageURL, o)
	z := html.NewTokenizer(bytes.NewReader(body))
	var (
		// The open <picture>, <video> and <audio> elements, innermost last. It grows by one
		// byte per unclosed element, so it stays linear in the page.
		media    []tagKind
		template int  // open <template> elements, whose content is inert
		inStyle  bool // the previous token opened a <style>, so a text token is CSS
	)
	for {
		tt := z.Next()
		wasStyle := inStyle
		inStyle = false
		switch tt {
		case html.ErrorToken:
			// io.EOF at the end of body; the tokenizer reports no other error for a byte reader.
			return Found{Resources: c.out, Refresh: c.refresh}
		case html.TextToken:
			if wasStyle {
				c.addCSS(z.Text(), true)
			}
		case html.EndTagToken:
			switch rawTagKind(z.Raw()) {
			case tagPicture, tagVideo, tagAudio:
				if len(media) > 0 {
					media = media[:len(media)-1]
				}
			case tagTemplate:
				template = max(template-1, 0)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			// HTML ignores the self-closing slash on elements like <video/>, so both open them.
			raw := z.Raw()
			k := rawTagKind(raw)
			switch k {
			case tagPicture, tagVideo, tagAudio:
				media = append(media, k)
				if k == tagPicture {
					c.pic = picture{source: c.pic.source[:0]}
				}
			case tagTemplate:
				template++
			}
			if template > 0 {
				continue
			}
			inStyle = k == tagStyle
			// Reading attributes copies them, so tags that cannot name a resource are passed
			// over unless they may carry a style attribute (the name cannot be escaped).
			if k == tagOther && !containsStyleFold(raw) {
				continue
			}
			var a attrs
			for more := true; more; {
				var key, val []byte
				key, val, more = z.TagAttr()
				if key == nil {
					break
				}
				a.set(key, val)
			}
			innermost := tagOther
			if len(media) > 0 {
				innermost = media[len(media)-1]
			}
			c.element(k, &a, innermost)
		}
	}
}
