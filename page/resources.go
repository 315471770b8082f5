// Package page finds the resources a browser would fetch for an HTML page (images, scripts,
// style sheets, icons, fonts and images named by CSS), so that a load test can request them
// after the page the way a browser does, and where the page's meta refresh sends the browser
// next (Options.Find).
//
// It never builds a DOM, because pages come from a load generator's hot path: a scanner finds
// the tags where golang.org/x/net/html's tokenizer would, skipping text, comments and scripts
// at memory speed, and reads attributes, in place, only of tags that can name a resource. It
// copies nothing but the URLs it returns; a page that names none costs no allocation.
package page

import (
	"bytes"
	"net/url"

	"golang.org/x/net/html"
)

// Resources returns the absolute URLs of the resources a browser would fetch for the HTML
// document body served at pageURL, in document order, without duplicates. Only http and https
// URLs are returned; fragments are removed. <base href> changes the base for relative URLs
// (only the first <base> with an href counts, as in browsers).
//
// Of each image, one candidate is counted: the one a browser on a 1x display with a
// ViewportWidth-wide window picks from img src and srcset, or the first <source> of a <picture>
// whose type browsers decode and whose media query matches such a window (width queries are
// evaluated; see mediaMatches). Images marked loading=lazy are
// left out, as a browser leaves them until they near the viewport; see Options.LazyImages.
//
// Counted besides are source src inside video and audio, script src, link href for style sheets (not alternate ones), icons,
// module preloads and preloads as style, script, image (one candidate) or font, input type=image src, video
// poster and src, audio src, embed src, object data, body background, and url(...) in style attributes and
// <style> text, where @import counts too. Iframes are pages, not resources, and are skipped,
// as is everything inside <template> and <noscript> (browsers that run scripts ignore it).
//
// URLs are resolved against pageURL, or against the base from the first <base href> once it
// has been read, as a browser does while it streams a page. Other hosts are kept: filtering is
// up to the caller. Values that do not parse, are empty or have another scheme (data:,
// javascript:, mailto:, blob: ...) are skipped. A nil pageURL keeps absolute URLs only.
//
// Resources never panics and takes time linear in len(body). It is safe for concurrent use; the
// returned URLs are new and belong to the caller. It returns nil when it finds nothing.
func Resources(body []byte, pageURL *url.URL) []*url.URL {
	return Options{}.Resources(body, pageURL)
}

// Options are the choices a browser's user makes that change what a page loads.
type Options struct {
	// LazyImages fetches the images marked loading=lazy too, as if the visitor scrolled
	// through the whole page at once.
	LazyImages bool
}

// Resources is the package's Resources with these options.
func (o Options) Resources(body []byte, pageURL *url.URL) []*url.URL {
	return o.Find(body, pageURL).Resources
}

// Find reads the page as Resources does, and finds besides where its meta refresh leads (see
// Found). Same guarantees as Resources.
func (o Options) Find(body []byte, pageURL *url.URL) Found {
	c := newCollector(pageURL, o)
	s := scanner{src: body}
	var (
		// The open <picture>, <video> and <audio> elements, innermost last. It grows by one
		// byte per unclosed element, so it stays linear in the page.
		media    []tagKind
		template int  // open <template> elements, whose content is inert
		inStyle  bool // the previous token opened a <style>, so a text token is CSS
	)
	for {
		tt, raw := s.next()
		wasStyle := inStyle
		inStyle = false
		switch tt {
		case tokEOF:
			return Found{Resources: c.out, Refresh: c.refresh}
		case tokText:
			if wasStyle {
				c.addCSS(c.rawText(raw), true)
			}
		case tokEnd:
			switch rawTagKind(raw) {
			case tagPicture, tagVideo, tagAudio:
				if len(media) > 0 {
					media = media[:len(media)-1]
				}
			case tagTemplate:
				template = max(template-1, 0)
			}
		case tokStart:
			// HTML ignores the self-closing slash on elements like <video/>, so both open them.
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
			// Tags that cannot name a resource are passed over unless they may carry a style
			// attribute (the name cannot be escaped).
			if k == tagOther && !containsStyleFold(raw) {
				continue
			}
			var a attrs
			readAttrs(raw, &a)
			innermost := tagOther
			if len(media) > 0 {
				innermost = media[len(media)-1]
			}
			c.element(k, &a, innermost)
		}
	}
}

// readAttrs reads the attributes of the start tag raw into a. Values are read in place, unless
// the tag holds a character reference, CR or NUL: then the tokenizer reads the tag, so that
// values are decoded exactly as it decodes them (entities without a semicolon, U+FFFD for
// NUL, LF for CR). Such tags are rare, and only the tag is tokenized, not the page.
func readAttrs(raw []byte, a *attrs) {
	if !bytes.ContainsAny(raw, "&\r\x00") {
		lexTag(raw, 1, a)
		return
	}
	z := html.NewTokenizer(bytes.NewReader(raw))
	z.Next()
	for more := true; more; {
		var key, val []byte
		key, val, more = z.TagAttr()
		if key == nil {
			break
		}
		a.set(key, val)
	}
}

// rawTagKind returns the kind of the tag in raw (the bytes of a start or end tag token). It
// reads the raw bytes because the tokenizer's TagName copies the name for every tag, and most
// tags do not matter here.
func rawTagKind(raw []byte) tagKind {
	var buf [maxKnownTag]byte
	i := 1 // past '<'
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	n := 0
	for ; i < len(raw); i++ {
		b := raw[i]
		if isSpace(b) || b == '/' || b == '>' {
			break
		}
		if n == len(buf) {
			return tagOther
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		buf[n] = b
		n++
	}
	return kindOf(buf[:n])
}

// containsStyleFold reports whether raw contains "style" in any case.
func containsStyleFold(raw []byte) bool {
	const word = "style"
	for i := 0; i+len(word) <= len(raw); i++ {
		if raw[i]|0x20 == 's' && bytes.EqualFold(raw[i:i+len(word)], []byte(word)) {
			return true
		}
	}
	return false
}
