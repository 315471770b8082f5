package page

// nextSrcsetURL returns the URL of the first image candidate in a srcset value and the rest of
// the value after that candidate. ok is false when no candidate is left.
//
// It follows the HTML "parse a srcset attribute" steps: candidates are separated by commas, a
// URL runs to the next whitespace (so it may contain commas), commas ending a URL separate it
// from the next candidate, and descriptors ("1.5x", "480w", or anything with parentheses) run
// to a comma outside parentheses. Descriptors are skipped, not validated: a browser fetches one
// candidate anyway, and a load test wants them all.
func nextSrcsetURL(s []byte) (u, rest []byte, ok bool) {
	i := 0
	for i < len(s) && (isSpace(s[i]) || s[i] == ',') {
		i++
	}
	if i == len(s) {
		return nil, nil, false
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
		return u[:n], s[i:], true
	}
	return u, s[skipDescriptors(s, i):], true
}

// skipDescriptors returns the index just past the descriptors that start at i: past the comma
// that ends them, or len(s).
func skipDescriptors(s []byte, i int) int {
	inParens := false
	for ; i < len(s); i++ {
		switch b := s[i]; {
		case inParens:
			inParens = b != ')'
		case b == '(':
			inParens = true
		case b == ',':
			return i + 1
		}
	}
	return i
}
