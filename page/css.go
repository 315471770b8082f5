package page

import (
	"bytes"
	"unicode/utf8"
)

// cssScanner finds the URLs in CSS text that make a browser fetch something: every url(...),
// quoted or not, and in style sheets the string form of @import. It skips comments and strings
// so that a "url(" inside them is not taken for one, which a regular expression would get wrong.
// It is a small subset of the CSS Syntax tokenizer and, like it, reads each byte once.
type cssScanner struct {
	src []byte
	pos int
	// imports is whether @import rules count: true for <style> text, false for style attributes,
	// where an at-rule is not valid.
	imports bool
	// afterImport is set right after an "@import" keyword, where a string names the sheet.
	afterImport bool
}

// next returns the next URL. escaped reports that it contains CSS escapes (see cssUnescape).
// ok is false at the end of the text.
func (s *cssScanner) next() (u []byte, escaped, ok bool) {
	src := s.src
	for s.pos < len(src) {
		b := src[s.pos]
		switch {
		case b == '/' && s.pos+1 < len(src) && src[s.pos+1] == '*':
			// Comments may sit between @import and its string, so afterImport is kept.
			end := bytes.Index(src[s.pos+2:], []byte("*/"))
			if end < 0 {
				s.pos = len(src)
			} else {
				s.pos += 2 + end + 2
			}
		case isSpace(b):
			s.pos++
		case b == '"' || b == '\'':
			str, esc, next, good := readCSSString(src, s.pos)
			s.pos = next
			if s.afterImport && good {
				s.afterImport = false
				return str, esc, true
			}
			s.afterImport = false
		case b == '@':
			name, next := readCSSName(src, s.pos+1)
			s.pos = next
			s.afterImport = s.imports && bytes.EqualFold(name, []byte("import"))
		case isCSSName(b):
			name, next := readCSSName(src, s.pos)
			s.pos = max(next, s.pos+1) // a lone backslash before a newline reads as no name
			s.afterImport = false
			if next < len(src) && src[next] == '(' && bytes.EqualFold(name, []byte("url")) {
				str, esc, next, good := readCSSURL(src, next+1)
				s.pos = next
				if good {
					return str, esc, true
				}
			}
		default:
			s.pos++
			s.afterImport = false
		}
	}
	return nil, false, false
}

// isCSSName reports whether b can be part of a CSS identifier (or starts an escape in one).
// Digits are included so that "10px" is skipped as one word.
func isCSSName(b byte) bool {
	return isAlpha(b) || isDigit(b) || b == '-' || b == '_' || b == '\\' || b >= utf8.RuneSelf
}

// readCSSName returns the identifier starting at i (which may be empty) and the index after it.
func readCSSName(src []byte, i int) (name []byte, next int) {
	start := i
	for i < len(src) && isCSSName(src[i]) {
		if src[i] == '\\' {
			if i+1 < len(src) && src[i+1] == '\n' {
				break // not an escape: the name ends here
			}
			i++ // the escaped byte is part of the name whatever it is
		}
		i++
	}
	i = min(i, len(src)) // a backslash at the very end
	return src[start:i], i
}

// readCSSString reads the string whose opening quote is at src[i]. ok is false for a bad string
// (an unescaped newline), which CSS discards. The string may run to the end of the text.
func readCSSString(src []byte, i int) (str []byte, escaped bool, next int, ok bool) {
	quote := src[i]
	start := i + 1
	for j := start; j < len(src); j++ {
		switch src[j] {
		case quote:
			return src[start:j], escaped, j + 1, true
		case '\n', '\r', '\f':
			return nil, false, j, false
		case '\\':
			escaped = true
			j++ // skip the escaped byte, an escaped newline included
		}
	}
	return src[start:], escaped, len(src), true
}

// readCSSURL reads the argument of "url(" starting at src[i], just after the parenthesis, and
// returns the index after the closing parenthesis. ok is false for a bad URL (a quote,
// parenthesis or control byte inside an unquoted URL), which CSS discards.
func readCSSURL(src []byte, i int) (u []byte, escaped bool, next int, ok bool) {
	for i < len(src) && isSpace(src[i]) {
		i++
	}
	if i < len(src) && (src[i] == '"' || src[i] == '\'') {
		// url("...") is a function taking a string; the scanner goes on after the string.
		return readCSSString(src, i)
	}
	start := i
	for i < len(src) {
		switch b := src[i]; {
		case b == ')':
			return src[start:i], escaped, i + 1, true
		case isSpace(b):
			end := i
			for i < len(src) && isSpace(src[i]) {
				i++
			}
			if i == len(src) {
				return src[start:end], escaped, i, true
			}
			if src[i] == ')' {
				return src[start:end], escaped, i + 1, true
			}
			return nil, false, skipBadURL(src, i), false
		case b == '"' || b == '\'' || b == '(' || b < 0x20 || b == 0x7f:
			return nil, false, skipBadURL(src, i), false
		case b == '\\':
			if i+1 == len(src) || src[i+1] == '\n' {
				return nil, false, skipBadURL(src, i), false
			}
			escaped = true
			i += 2
		default:
			i++
		}
	}
	return src[start:], escaped, len(src), true
}

// skipBadURL returns the index after the ')' that ends a bad URL, or len(src).
func skipBadURL(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case ')':
			return i + 1
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return len(src)
}

// cssUnescape appends s to dst with CSS escapes decoded: a backslash and up to six hex digits
// (plus one whitespace) is a code point, a backslash and a newline is nothing, and a backslash
// and any other byte is that byte.
func cssUnescape(dst, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b != '\\' {
			dst = append(dst, b)
			continue
		}
		i++
		if i == len(s) {
			break
		}
		if !isHex(s[i]) {
			if s[i] != '\n' {
				dst = append(dst, s[i])
			}
			continue
		}
		var r rune
		n := 0
		for ; n < 6 && i < len(s) && isHex(s[i]); n++ {
			r = r<<4 | rune(hexValue(s[i]))
			i++
		}
		if i < len(s) && isSpace(s[i]) {
			if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		} else {
			i-- // the loop's i++ must not skip the byte after the digits
		}
		if r == 0 || r > utf8.MaxRune || (0xD800 <= r && r <= 0xDFFF) {
			r = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

func isHex(b byte) bool {
	lower := b | 0x20 // ASCII letters only differ in this bit
	return isDigit(b) || 'a' <= lower && lower <= 'f'
}

func hexValue(b byte) byte {
	if isDigit(b) {
		return b - '0'
	}
	return (b | 0x20) - 'a' + 10
}
