package page

import (
	"bytes"
	"strconv"
)

// ViewportWidth is the window width, in CSS pixels, of the browser whose choice among
// width-described srcset candidates ("480w") Resources makes. With the default sizes of 100vw a
// 1x display at this width wants the narrowest candidate at least this wide. 1280 is a common
// laptop window. The sizes attribute is not evaluated; <source media> is (see mediaMatches).
const ViewportWidth = 1280

// nextSrcsetURL returns the URL of the first image candidate in a srcset value, its descriptors
// and the rest of the value after that candidate. ok is false when no candidate is left.
//
// It follows the HTML "parse a srcset attribute" steps: candidates are separated by commas, a
// URL runs to the next whitespace (so it may contain commas), commas ending a URL separate it
// from the next candidate, and descriptors ("1.5x", "480w", or anything with parentheses) run
// to a comma outside parentheses.
func nextSrcsetURL(s []byte) (u, desc, rest []byte, ok bool) {
	i := 0
	for i < len(s) && (isSpace(s[i]) || s[i] == ',') {
		i++
	}
	if i == len(s) {
		return nil, nil, nil, false
	}
	start := i
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	u = s[start:i]
	if n := len(u); u[n-1] == ',' {
		// "a.png,b.png": trailing commas end the candidate and it has no descriptors.
		for n > 0 && u[n-1] == ',' {
			n--
		}
		return u[:n], nil, s[i:], true
	}
	end, next := skipDescriptors(s, i)
	return u, s[i:end], s[next:], true
}

// skipDescriptors returns where the descriptors that start at i end (at the comma that ends
// them, or len(s)) and the index just past that comma.
func skipDescriptors(s []byte, i int) (end, next int) {
	inParens := false
	for ; i < len(s); i++ {
		switch b := s[i]; {
		case inParens:
			inParens = b != ')'
		case b == '(':
			inParens = true
		case b == ',':
			return i, i + 1
		}
	}
	return i, i
}

// density returns the pixel density a 1x display at ViewportWidth gives a candidate with these
// descriptors: the x value, or the width over the viewport's (sizes taken as 100vw). width says
// whether it came from a w descriptor. Descriptors that do not parse count as 1x, the value of
// a candidate without any.
func density(desc []byte) (d float64, width bool) {
	d = 1
	for len(desc) > 0 {
		var tok []byte
		tok, desc = nextToken(desc)
		if len(tok) < 2 {
			continue
		}
		v, err := strconv.ParseFloat(string(tok[:len(tok)-1]), 64)
		if err != nil || !(v > 0) {
			continue
		}
		switch tok[len(tok)-1] {
		case 'x':
			d, width = v, false
		case 'w':
			d, width = v/ViewportWidth, true
		}
	}
	return d, width
}

// pickImage returns the URL a browser on a 1x display fetches for an image with these src and
// srcset values: among the candidates, the one of the smallest density at least 1, else the
// densest. src is a candidate of density 1 unless srcset uses width descriptors (then browsers
// ignore it) or already has a 1x candidate. It returns nil when there is nothing to fetch.
func pickImage(src, srcset []byte) []byte {
	var best []byte
	bestD, widths := 0.0, false
	for s := srcset; ; {
		u, desc, rest, ok := nextSrcsetURL(s)
		if !ok {
			break
		}
		s = rest
		d, w := density(desc)
		widths = widths || w
		if best == nil || better(d, bestD) {
			best, bestD = u, d
		}
	}
	if len(trimSpace(src)) > 0 && !widths && (best == nil || bestD != 1) {
		return src
	}
	if best == nil {
		return src
	}
	return best
}

// better reports whether a candidate of density d beats one of density than for a 1x display:
// at least 1 and smaller, or closer to 1 from below when neither reaches 1.
func better(d, than float64) bool {
	switch {
	case d >= 1 && than >= 1:
		return d < than
	case d >= 1:
		return true
	case than >= 1:
		return false
	}
	return d > than
}

// acceptedImageType reports whether a browser renders images of MIME type typ (a <source type>,
// parameters allowed); an empty type is accepted. The list is what current Chromium, Firefox
// and Safari all decode.
func acceptedImageType(typ []byte) bool {
	if i := bytes.IndexByte(typ, ';'); i >= 0 {
		typ = typ[:i]
	}
	typ = trimSpace(typ)
	if len(typ) == 0 {
		return true
	}
	for _, t := range [...]string{"image/avif", "image/webp", "image/png", "image/apng", "image/jpeg", "image/jpg",
		"image/gif", "image/svg+xml", "image/x-icon", "image/vnd.microsoft.icon", "image/bmp"} {
		if bytes.EqualFold(typ, []byte(t)) {
			return true
		}
	}
	return false
}
