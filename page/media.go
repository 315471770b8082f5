package page

import (
	"bytes"
	"strconv"
)

// mediaMatches reports whether a <source media> query list matches a screen ViewportWidth CSS
// pixels wide, as a browser tests a picture's sources. It evaluates what decides a picture's
// art direction, min-width and max-width in px, em or rem (16 px), and media types; any other
// condition is taken as true, so a source is skipped only when it surely does not apply.
func mediaMatches(list []byte) bool {
	list = trimSpace(list)
	if len(list) == 0 {
		return true
	}
	for q := range bytes.SplitSeq(bytes.ToLower(list), []byte(",")) {
		if queryMatches(q) {
			return true
		}
	}
	return false
}

// queryMatches evaluates one media query of a list, already in lower case.
func queryMatches(q []byte) bool {
	for len(q) > 0 {
		var tok []byte
		tok, q = nextToken(q)
		switch {
		case len(tok) == 0:
			return true
		case string(tok) == "print" || string(tok) == "speech":
			return false // never shown on a screen
		case string(tok) == "not":
			return true // would need the rest negated; not evaluated, so taken as true
		case tok[0] == '(':
			// A condition may hold spaces: read to its closing parenthesis.
			end := bytes.IndexByte(q, ')')
			cond := tok
			if !bytes.HasSuffix(tok, []byte(")")) && end >= 0 {
				cond = append(append(tok[:len(tok):len(tok)], ' '), q[:end+1]...)
				q = q[end+1:]
			}
			if !conditionHolds(cond) {
				return false
			}
		}
	}
	return true
}

// conditionHolds evaluates one "(feature: value)" of a media query.
func conditionHolds(cond []byte) bool {
	cond = bytes.Trim(cond, "() \t\n\f\r")
	name, value, ok := bytes.Cut(cond, []byte(":"))
	if !ok {
		return true
	}
	name = trimSpace(name)
	min := string(name) == "min-width"
	if !min && string(name) != "max-width" {
		return true
	}
	px, ok := cssPixels(trimSpace(value))
	if !ok {
		return true
	}
	if min {
		return ViewportWidth >= px
	}
	return ViewportWidth <= px
}

// cssPixels reads a length in px, em or rem (16 px each, the browsers' default font size).
func cssPixels(v []byte) (float64, bool) {
	scale := 1.0
	switch {
	case bytes.HasSuffix(v, []byte("px")):
		v = v[:len(v)-2]
	case bytes.HasSuffix(v, []byte("rem")):
		v, scale = v[:len(v)-3], 16
	case bytes.HasSuffix(v, []byte("em")):
		v, scale = v[:len(v)-2], 16
	default:
		return 0, false
	}
	n, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return 0, false
	}
	return n * scale, true
}
