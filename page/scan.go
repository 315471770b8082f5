package page

import "bytes"

// scanner splits an HTML document into the only tokens that can name a resource: start tags,
// end tags and the raw text of elements such as <style>. It finds them where the HTML
// tokenizer of golang.org/x/net/html does (FuzzScannerMatchesTokenizer holds it to that), but
// it reads the document in place: text, comments and scripts are skipped with
// bytes.IndexByte at memory speed, and nothing is copied.
type scanner struct {
	src []byte
	pos int
	// raw names the element whose raw text comes next ("style", "script", "title" ...): the
	// tokenizer reads its content as text up to the matching end tag, tags and all.
	raw string
}

// tokenKind is what scanner.next found.
type tokenKind uint8

const (
	tokEOF   tokenKind = iota // the end of the document, or a tag cut off by it
	tokStart                  // a start tag, self-closing or not
	tokEnd                    // an end tag
	tokText                   // the raw text of an element such as <style> (other text is skipped)
)

// next returns the next token and its bytes: the whole tag, from '<' to '>', or the text.
func (s *scanner) next() (tokenKind, []byte) {
	b := s.src
	if s.raw != "" {
		name, start := s.raw, s.pos
		s.raw = ""
		switch name {
		case "plaintext":
			s.pos = len(b)
		case "script":
			s.pos = scriptEnd(b, start)
		default:
			s.pos = rawTextEnd(b, start, name)
		}
		if s.pos > start {
			return tokText, b[start:s.pos]
		}
	}
	for {
		j := bytes.IndexByte(b[s.pos:], '<')
		if j < 0 || s.pos+j+1 >= len(b) {
			s.pos = len(b)
			return tokEOF, nil
		}
		p := s.pos + j
		switch c := b[p+1]; {
		case isAlpha(c):
			end := lexTag(b, p+1, nil)
			if end < 0 {
				s.pos = len(b)
				return tokEOF, nil
			}
			s.pos = end
			s.raw = rawTextName(b[p+1 : end])
			return tokStart, b[p:end]
		case c == '/':
			if p+2 >= len(b) {
				s.pos = len(b)
				return tokEOF, nil
			}
			switch c := b[p+2]; {
			case c == '>': // "</>" is no token at all
				s.pos = p + 3
			case isAlpha(c):
				end := lexTag(b, p+2, nil)
				if end < 0 {
					s.pos = len(b)
					return tokEOF, nil
				}
				s.pos = end
				return tokEnd, b[p:end]
			default: // a bogus comment
				s.pos = closeAngle(b, p+2)
			}
		case c == '!':
			if p+3 < len(b) && b[p+2] == '-' && b[p+3] == '-' {
				s.pos = commentEnd(b, p+4)
			} else { // a doctype, CDATA (a comment in HTML) or a bogus comment
				s.pos = closeAngle(b, p+2)
			}
		case c == '?': // a processing instruction, a bogus comment in HTML
			s.pos = closeAngle(b, p+1)
		default: // a '<' in text
			s.pos = p + 1
		}
	}
}

// lexTag reads the tag whose name starts at b[i], just past "<" or "</", as the tokenizer's
// readTag does, and returns the index just past its '>', or -1 when b ends first (the
// tokenizer then ends with an error). It hands each attribute with a non-empty name to a,
// unless a is nil; end tags have attributes too, which matters because a quoted '>' does
// not end a tag.
func lexTag(b []byte, i int, a *attrs) int {
	n := len(b)
	for i++; i < n; i++ { // the name; its first letter is read
		if c := b[i]; isSpace(c) {
			i++
			break
		} else if c == '/' || c == '>' {
			break
		}
	}
	for i = skipSpaces(b, i); ; i = skipSpaces(b, i) {
		if i >= n {
			return -1
		}
		if b[i] == '>' {
			return i + 1
		}
		ks := i
		for ; i < n; i++ {
			c := b[i]
			if c == '=' && i == ks {
				continue // a name may start with '='
			}
			if isSpace(c) || c == '/' || c == '>' || c == '=' {
				break
			}
		}
		ke := i
		vs, ve := i, i
		if i = skipSpaces(b, i); i >= n {
			return -1
		}
		switch b[i] {
		case '/': // no value; the slash is read
			i++
		case '=':
			if i = skipSpaces(b, i+1); i >= n {
				return -1
			}
			switch q := b[i]; q {
			case '>': // an empty value
			case '"', '\'':
				end := bytes.IndexByte(b[i+1:], q)
				if end < 0 {
					return -1
				}
				vs, ve = i+1, i+1+end
				i = ve + 1
			default:
				vs = i
				for i < n && !isSpace(b[i]) && b[i] != '>' {
					i++
				}
				if i >= n {
					return -1
				}
				ve = i
				if isSpace(b[i]) {
					i++
				}
			}
		}
		if a != nil && ke > ks {
			a.setRaw(b[ks:ke], b[vs:ve])
		}
	}
}

// skipSpaces returns the index of the first byte at or after i that is not HTML whitespace.
func skipSpaces(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// closeAngle returns the index just past the first '>' at or after i, or len(b).
func closeAngle(b []byte, i int) int {
	if j := bytes.IndexByte(b[i:], '>'); j >= 0 {
		return i + j + 1
	}
	return len(b)
}

// commentEnd returns the index just past the comment whose text starts at i (after "<!--"):
// past "-->", "--!>", or the '>' of "<!-->" and "<!--->", as the tokenizer's readComment
// ends it; len(b) when it runs to the end.
func commentEnd(b []byte, i int) int {
	dashes, beginning := 0, true
	for ; i < len(b); i++ {
		switch b[i] {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				return i + 1
			}
		case '!':
			if dashes >= 2 {
				if i++; i >= len(b) {
					return len(b)
				}
				if b[i] == '>' {
					return i + 1
				}
				if b[i] == '-' {
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
	return len(b)
}

// rawTextName returns the lower-case name of the element whose start tag, from its name on,
// is tag when the tokenizer reads that element's content as raw text, or "".
func rawTextName(tag []byte) string {
	n := 0
	for n < len(tag) && !isSpace(tag[n]) && tag[n] != '/' && tag[n] != '>' {
		n++
	}
	for _, name := range [...]string{"iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp"} {
		if n == len(name) && asciiEqualFold(tag[:n], name) {
			return name
		}
	}
	return ""
}

// asciiEqualFold reports whether b is s, ignoring the case of ASCII letters only, as the
// tokenizer does.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// rawTextEnd returns where the raw text of element name that starts at i ends: at the '<' of
// "</name" followed by whitespace, '/' or '>', or at len(b).
func rawTextEnd(b []byte, i int, name string) int {
	for {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			return len(b)
		}
		p := i + j
		if p+1 >= len(b) {
			return len(b)
		}
		if b[p+1] != '/' {
			i = p + 1
			continue
		}
		next, ok := endTagAt(b, p+2, name)
		if ok {
			return p
		}
		if next >= len(b) {
			return len(b)
		}
		i = next
	}
}

// endTagAt reports whether b at i, just past "</", holds name (ASCII case folded) followed by
// whitespace, '/' or '>'. When it does not, next is where reading goes on: the byte that
// did not match, or len(b).
func endTagAt(b []byte, i int, name string) (next int, ok bool) {
	for k := 0; k < len(name); k, i = k+1, i+1 {
		if i >= len(b) {
			return len(b), false
		}
		if c := b[i]; c != name[k] && c != name[k]-('a'-'A') {
			return i, false
		}
	}
	if i >= len(b) {
		return len(b), false
	}
	if c := b[i]; isSpace(c) || c == '/' || c == '>' {
		return i, true
	}
	return i, false
}
