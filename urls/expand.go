package urls

import (
	"fmt"
	"strings"
)

// Expander replaces $(NAME), ${NAME} and $NAME with the values of variables and \$ with a
// literal '$'. It is the one expander of webload's inputs: URL files, URL arguments and
// siegerc files.
//
// The zero value knows no variable. An Expander holds no state of its own, so it is as safe
// for concurrent use as its Lookup.
type Expander struct {
	// Lookup resolves a variable name; nil defines none. An undefined variable is an error
	// (an *UndefinedVariableError), because an empty substitution usually yields a URL that is
	// wrong in a way that is hard to trace back to a typo (siege substitutes "").
	Lookup func(name string) (string, bool)
	// AnyBracketedName lets $(NAME) and ${NAME} hold any bytes up to the closing bracket, the
	// empty name included, as siegerc keys need ("$(proxy-host)"). Without it a bracketed name
	// is a non-empty run of letters, digits and '_', the only names a URL file can define, so
	// anything else is reported as a typo ("invalid variable name").
	AnyBracketedName bool
}

// UndefinedVariableError is a reference to a variable that Expander.Lookup does not define.
// It matches ErrUndefinedVariable with errors.Is.
type UndefinedVariableError struct {
	Name string // the variable's name as written
}

// Error says which variable is missing.
func (e *UndefinedVariableError) Error() string {
	return fmt.Sprintf("%v %s", ErrUndefinedVariable, e.Name)
}

// Unwrap makes errors.Is(err, ErrUndefinedVariable) true.
func (e *UndefinedVariableError) Unwrap() error { return ErrUndefinedVariable }

// Expand returns s with every reference replaced. A bare $NAME takes the longest run of
// letters, digits and '_', so "$HOST:8080" reads HOST and keeps ":8080" (siege would not stop
// at ':'). A '$' that starts no reference is kept, because '$' is a legal URL byte and users
// write it in query strings. Values are not expanded again, so they cannot inject further
// references; and the caller chooses which text to expand, so a value never turns into syntax.
func (x Expander) Expand(s string) (string, error) {
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
		var name string
		switch {
		case c == '\\' && next == '$':
			b.WriteByte('$')
			i += 2
			continue
		case c == '$' && (next == '(' || next == '{'):
			closer := byte(')')
			if next == '{' {
				closer = '}'
			}
			end := strings.IndexByte(s[i+2:], closer)
			if end < 0 {
				return "", fmt.Errorf("unterminated %q: missing %q", s[i:i+2], string(closer))
			}
			name = s[i+2 : i+2+end]
			if !x.AnyBracketedName && !isName(name) {
				return "", fmt.Errorf("invalid variable name %q", name)
			}
			i += 2 + end + 1
		case c == '$' && isNameByte(next):
			j := i + 1
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			name, i = s[i+1:j], j
		default:
			b.WriteByte(c)
			i++
			continue
		}
		v, ok := "", false
		if x.Lookup != nil {
			v, ok = x.Lookup(name)
		}
		if !ok {
			return "", &UndefinedVariableError{Name: name}
		}
		b.WriteString(v)
	}
	return b.String(), nil
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
