package page

import (
	"bytes"
	"net/url"
)

// collector turns raw attribute and CSS URL values into the deduplicated, absolute result list.
// It is used by one Resources call only, so it needs no locking.
type collector struct {
	opt  Options
	page *url.URL // the document URL; nil means only absolute URLs can be kept
	base *url.URL // what relative URLs resolve against: page, or the first <base href>

	baseSeen bool // only the first <base> with an href counts, as in browsers

	// rawSeen skips values already handled under the current base without parsing them again:
	// shop pages repeat the same icon or placeholder dozens of times.
	rawSeen map[string]struct{}
	// seen holds the resolved URLs, because different raw values ("a.png", "./a.png") may
	// resolve to the same resource.
	seen map[string]struct{}
	out  []*url.URL

	scratch []byte // reused by clean for values with tabs, newlines or backslashes
	cssBuf  []byte // reused for CSS URLs with escapes; apart from scratch, as add cleans it
	textBuf []byte // reused by rawText for <style> text with CR or NUL

	pic picture // the innermost open <picture>

	refresh     *url.URL // where the page's meta refresh leads; nil for none
	refreshSeen bool     // a meta refresh counted already: only the first does
}

// picture is what a <picture> has chosen so far. Its sources come before its <img>, and the
// img's loading attribute decides whether any of them is fetched, so the chosen source waits
// for the img.
type picture struct {
	source []byte // the chosen source's URL, copied (the tokenizer reuses its buffers)
	chosen bool   // a source of an accepted type was found
	done   bool   // the picture's img was seen: later imgs are images of their own
}

// newCollector makes a collector; its maps are made by the first URL, so that a page naming
// none costs no allocation.
func newCollector(pageURL *url.URL, opt Options) *collector {
	return &collector{opt: opt, page: pageURL, base: pageURL}
}

// rawText returns the text of a raw text element as the HTML tokenizer gives it: CR and CRLF
// become LF and NUL becomes U+FFFD. It may live in c.textBuf until the next call.
func (c *collector) rawText(s []byte) []byte {
	if !bytes.ContainsAny(s, "\r\x00") {
		return s
	}
	buf := c.textBuf[:0]
	for i := 0; i < len(s); i++ {
		switch b := s[i]; b {
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			buf = append(buf, '\n')
		case 0:
			buf = append(buf, "\ufffd"...)
		default:
			buf = append(buf, b)
		}
	}
	c.textBuf = buf
	return buf
}

// setBase handles a <base href>. Like browsers, it resolves href against the document URL and
// falls back to the document URL when href does not parse or is a data: or javascript: URL.
func (c *collector) setBase(href []byte) {
	if c.baseSeen {
		return
	}
	c.baseSeen = true
	// Values seen so far were resolved against the old base.
	clear(c.rawSeen)
	ref, err := url.Parse(string(c.clean(trimSpace(href))))
	if err != nil {
		return
	}
	b := ref
	if c.page != nil {
		b = c.page.ResolveReference(ref)
	}
	if b.Scheme == "data" || b.Scheme == "javascript" || !b.IsAbs() {
		return
	}
	c.base = b
}

// add resolves one raw URL value and appends it unless it is not http(s), fails to parse or
// was seen before.
func (c *collector) add(raw []byte) {
	s := trimSpace(raw)
	// Checking the scheme first means large data: URLs are never copied or parsed.
	if len(s) == 0 || !httpOrRelative(s) {
		return
	}
	s = c.clean(s)
	if _, dup := c.rawSeen[string(s)]; dup {
		return
	}
	key := string(s)
	if c.rawSeen == nil {
		c.rawSeen, c.seen = make(map[string]struct{}, 32), make(map[string]struct{}, 32)
	}
	c.rawSeen[key] = struct{}{}
	u := c.resolve(key)
	if u == nil {
		return
	}
	abs := u.String()
	if _, dup := c.seen[abs]; dup {
		return
	}
	c.seen[abs] = struct{}{}
	c.out = append(c.out, u)
}

// resolve parses a cleaned URL value against the base; it returns nil unless the result is an
// http or https URL with a host. The fragment is removed: it is never sent.
func (c *collector) resolve(s string) *url.URL {
	ref, err := url.Parse(s)
	if err != nil {
		return nil
	}
	u := ref
	if c.base != nil {
		u = c.base.ResolveReference(ref)
	}
	// An empty host also rules out opaque forms such as "http:x", which name no server.
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return nil
	}
	u.Fragment, u.RawFragment = "", ""
	return u
}

// clean prepares a trimmed value the way the URL parser of a browser does before parsing: it
// removes tabs and newlines inside, and turns backslashes into slashes before the query. The
// result may live in c.scratch until the next call.
func (c *collector) clean(s []byte) []byte {
	if bytes.ContainsAny(s, "\t\n\r\\") {
		buf := c.scratch[:0]
		inQuery := false
		for _, b := range s {
			switch {
			case b == '\t' || b == '\n' || b == '\r':
				continue
			case b == '?' || b == '#':
				inQuery = true
			case b == '\\' && !inQuery:
				b = '/'
			}
			buf = append(buf, b)
		}
		c.scratch = buf
		s = buf
	}
	return s
}

// httpOrRelative reports whether s has no scheme (a relative URL) or an http or https scheme.
// A scheme is an ASCII letter followed by letters, digits, '+', '-' or '.', then ':'.
func httpOrRelative(s []byte) bool {
	if len(s) == 0 || !isAlpha(s[0]) {
		return true
	}
	for i := 1; i < len(s); i++ {
		b := s[i]
		if b == ':' {
			scheme := s[:i]
			return bytes.EqualFold(scheme, []byte("http")) || bytes.EqualFold(scheme, []byte("https"))
		}
		if !isAlpha(b) && !isDigit(b) && b != '+' && b != '-' && b != '.' {
			return true
		}
	}
	return true
}

// trimSpace trims HTML's ASCII whitespace (space, tab, LF, FF, CR) from both ends.
func trimSpace(s []byte) []byte {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

func isAlpha(b byte) bool {
	lower := b | 0x20 // ASCII letters only differ in this bit
	return 'a' <= lower && lower <= 'z'
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// addCSS adds the URLs in CSS text; imports is whether @import "x.css" counts (style sheets
// yes, style attributes no).
func (c *collector) addCSS(css []byte, imports bool) {
	s := cssScanner{src: css, imports: imports}
	for {
		u, escaped, ok := s.next()
		if !ok {
			return
		}
		if escaped {
			c.cssBuf = cssUnescape(c.cssBuf[:0], u)
			u = c.cssBuf
		}
		c.add(u)
	}
}
