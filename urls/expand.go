package urls

import (
	"fmt"
	"strings"
)

// lookupFunc resolves a variable name; it is a parameter so that file
// parsing (file variables, then environment) and command-line parsing
// (environment only) share one expander.
type lookupFunc func(name string) (string, bool)

// expand replaces $(NAME), ${NAME} and $NAME with their values and \$ with a
// literal '$'. A '$' that starts no reference is kept, because '$' is a legal
// URL byte and users write it in query strings. Results are not expanded
// again, so values cannot inject further references.
func expand(s string, lookup lookupFunc) (string, error) {
	if !strings.ContainsRune(s, '$') {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		var next byte
		if i+1 < len(s) {
			next = s[i+1]
		}
		switch {
		case c == '\\' && next == '$':
			b.WriteByte('$')
			i += 2
		case c == '$' && (next == '(' || next == '{'):
			closer := byte(')')
			if next == '{' {
				closer = '}'
			}
			end := strings.IndexByte(s[i+2:], closer)
			if end < 0 {
				return "", fmt.Errorf("unterminated %q: missing %q", s[i:i+2], string(closer))
			}
			name := s[i+2 : i+2+end]
			if !isName(name) {
				return "", fmt.Errorf("invalid variable name %q", name)
			}
			v, err := resolve(name, lookup)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i += 2 + end + 1
		case c == '$' && isNameByte(next):
			// The longest run of name bytes is the name, so "$HOST:8080"
			// reads HOST and keeps ":8080" (siege would not stop at ':').
			j := i + 1
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			v, err := resolve(s[i+1:j], lookup)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// resolve turns a missing variable into an error because an empty
// substitution usually yields a URL that is wrong in a way that is hard to
// trace back to a typo.
func resolve(name string, lookup lookupFunc) (string, error) {
	if lookup != nil {
		if v, ok := lookup(name); ok {
			return v, nil
		}
	}
	return "", fmt.Errorf("%w %s", ErrUndefinedVariable, name)
}

// isName reports whether s is a non-empty run of variable name bytes; only
// such names can be defined in a file, so anything else is a typo.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// isNameByte is the byte class siege accepts in variable names.
func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
