package urls

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Template is a text with references to per-user variables: the columns of a --data file and
// the values #@extract lines take from responses. Each user has its own values, so the text is
// filled at request time, not when the file is read. The other variables of a line (the file's
// own NAME=VALUE lines, the environment) are expanded when it is read, as before.
//
// A Template is built once and then only read, so users share it.
type Template struct {
	src   string
	parts []templatePart
	names []string // each name once, in the order of first use
}

// templatePart is literal text, or a reference when name is set.
type templatePart struct {
	text string
	name string
}

// Values is one user's variables at request time.
type Values interface {
	// Value returns the variable's value; ok is false while it has none (an extraction that
	// failed or has not run yet).
	Value(name string) (v string, ok bool)
}

// ErrUnset reports a per-user variable with no value when a request needs it; it is always
// wrapped in an *UnsetError.
var ErrUnset = errors.New("variable has no value")

// UnsetError names the variable a request needed and its user did not have.
type UnsetError struct {
	Name string
}

// Error says which variable it was and why it can be missing, without any value.
func (e *UnsetError) Error() string {
	return fmt.Sprintf("$(%s) has no value for this user: the response it is taken from failed its #@extract or has not been requested yet", e.Name)
}

// Unwrap makes errors.Is(err, ErrUnset) true.
func (e *UnsetError) Unwrap() error { return ErrUnset }

// CompileTemplate finds in s the references $(NAME) to names for which perUser is true (the
// form Parse leaves them in) and returns the template, or nil when s has none: a text without
// per-user references is sent as it is, at no cost per request.
func CompileTemplate(s string, perUser func(name string) bool) *Template {
	if perUser == nil || !strings.Contains(s, "$(") {
		return nil
	}
	t := &Template{src: s}
	lit := 0 // start of the literal text not yet in parts
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], "$(")
		if j < 0 {
			break
		}
		start := i + j
		end := strings.IndexByte(s[start+2:], ')')
		if end < 0 {
			break
		}
		name := s[start+2 : start+2+end]
		if !isName(name) || !perUser(name) {
			i = start + 2
			continue
		}
		if start > lit {
			t.parts = append(t.parts, templatePart{text: s[lit:start]})
		}
		t.parts = append(t.parts, templatePart{name: name})
		if !slices.Contains(t.names, name) {
			t.names = append(t.names, name)
		}
		i = start + 2 + end + 1
		lit = i
	}
	if len(t.names) == 0 {
		return nil
	}
	if lit < len(s) {
		t.parts = append(t.parts, templatePart{text: s[lit:]})
	}
	return t
}

// String is the text as written, with its references: what reports show.
func (t *Template) String() string { return t.src }

// Names lists the variables the template refers to, each once, in the order of first use.
func (t *Template) Names() []string { return t.names }

// Append appends the template filled with vals to dst, each value escaped for where it goes
// (see EscapeValue). A variable without a value is an *UnsetError, and so is nothing sent.
func (t *Template) Append(dst []byte, vals Values, in Place) ([]byte, error) {
	for _, p := range t.parts {
		if p.name == "" {
			dst = append(dst, p.text...)
			continue
		}
		v, ok := vals.Value(p.name)
		if !ok {
			return dst, &UnsetError{Name: p.name}
		}
		v, err := EscapeValue(v, in)
		if err != nil {
			return dst, fmt.Errorf("$(%s): %w", p.name, err)
		}
		dst = append(dst, v...)
	}
	return dst, nil
}
