package page

import (
	"bytes"
	"net/url"
)

// meta handles a <meta>: one whose http-equiv is "refresh" sends the browser to another URL
// (or reloads the page) after a delay, the way sites redirect without an HTTP redirect. As in
// browsers, only the first whose content parses counts.
func (c *collector) meta(a *attrs) {
	if c.refreshSeen || !bytes.EqualFold(a.httpEquiv, []byte("refresh")) {
		return
	}
	target, ok := parseRefresh(a.content)
	if !ok {
		return
	}
	c.refreshSeen = true
	if target == nil { // no URL: the page reloads itself
		if c.page != nil {
			u := *c.page
			u.Fragment, u.RawFragment = "", ""
			c.refresh = &u
		}
		return
	}
	c.refresh = c.resolve(string(c.clean(trimSpace(target))))
}

// parseRefresh reads the content of a <meta http-equiv=refresh> as the HTML standard's shared
// declarative refresh steps do: a delay in seconds (digits and dots), then optionally ';' or
// ',' and a URL, itself optionally after "url=" and in quotes. ok is false when content does
// not parse, and the element then does not count. target is nil when there is no URL (the page
// reloads itself), and may be empty (a URL that resolves to the base). The delay is read only
// to check the syntax: a load test follows the refresh at once, as siege does, because the
// wait would be the visitor's, not the server's.
func parseRefresh(content []byte) (target []byte, ok bool) {
	s := content
	i := skipSpaces(s, 0)
	digits := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == digits && (i >= len(s) || s[i] != '.') {
		return nil, false
	}
	for i < len(s) && (isDigit(s[i]) || s[i] == '.') {
		i++
	}
	if i < len(s) {
		if c := s[i]; c != ';' && c != ',' && !isSpace(c) {
			return nil, false
		}
		i = skipSpaces(s, i)
		if i < len(s) && (s[i] == ';' || s[i] == ',') {
			i++
		}
		i = skipSpaces(s, i)
	}
	if i >= len(s) {
		return nil, true
	}
	rest := s[i:]
	if s[i]|0x20 == 'u' {
		// "url" must be followed by '=' to be a label; otherwise it is the URL's own start.
		k := i + 1
		if k+1 >= len(s) || s[k]|0x20 != 'r' || s[k+1]|0x20 != 'l' {
			return rest, true
		}
		if k = skipSpaces(s, k+2); k >= len(s) || s[k] != '=' {
			return rest, true
		}
		i = skipSpaces(s, k+1)
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		q := s[i]
		rest = s[i+1:]
		if end := bytes.IndexByte(rest, q); end >= 0 {
			rest = rest[:end]
		}
		return rest, true
	}
	return s[i:], true
}

// Found is what a page makes a browser do after loading it.
type Found struct {
	// Resources are the page's resources, as Resources returns them.
	Resources []*url.URL
	// Refresh is where the page's <meta http-equiv=refresh> sends the browser: the first such
	// element whose content parses, resolved like a resource URL (fragment removed). It is the
	// page's own URL when that element names none (a reload), and nil when the page has no
	// refresh or its URL is not http or https.
	Refresh *url.URL
}
