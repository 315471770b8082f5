package urls

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/webload/webload/check"
)

// checkDirective starts a line that gives the next URL a response check. To siege it is a
// comment, like weightDirective. Only $(NAME) references are expanded in it (see
// expandCheck): a regular expression's $, ${...} and \$ are its own.
const checkDirective = "#@check"

// errDanglingCheck reports checks after the last URL line, which would check nothing.
var errDanglingCheck = errors.New(checkDirective + " applies to no URL: it must stand before a URL line")

// parseCheck reads the check of a directive line as it is in the file (raw), whose trimmed
// form line starts with the directive, with its $(NAME) references expanded. A problem's
// column counts from the start of raw, so editors jump to it.
func (p *parser) parseCheck(raw, line string) (check.Expr, error) {
	src := line[len(checkDirective):]
	expanded, err := expandCheck(src, p.vars, p.getenv, p.isPerUser)
	var ce *check.Error
	if errors.As(err, &ce) {
		return check.Expr{}, &check.Error{Col: directiveCol(raw, checkDirective, ce.Col), Msg: ce.Msg}
	}
	e, err := check.Parse(expanded)
	if errors.As(err, &ce) {
		msg := ce.Msg
		if expanded != src {
			msg += " (in the check with its variables expanded)"
		}
		return check.Expr{}, &check.Error{Col: directiveCol(raw, checkDirective, ce.Col), Msg: msg}
	}
	return e, err
}

// expandCheck replaces each $(NAME) of a check with the value of the file's variable NAME, or
// else the environment's. A value stands for itself: inside a regular expression (a string
// after ~ or !~) its special characters are quoted, and inside any string its quotes and
// backslashes are escaped. Nothing else is a reference: a check's regular expressions use $,
// ${n} and \$ as their own, and $(NAME) matches nothing in one (NAME is no line end).
//
// A per-user variable (a --data column, a value set by #@extract) is refused, as an undefined
// one is: a check is compiled once for every user of the run, and such a reference, kept as
// written, would silently never match.
func expandCheck(s string, vars map[string]string, getenv func(string) (string, bool), perUser func(string) bool) (string, error) {
	if !strings.Contains(s, "$(") {
		return s, nil
	}
	var b strings.Builder
	inString, regex := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && c == '\\' && i+1 < len(s):
			b.WriteByte(c)
			b.WriteByte(s[i+1])
			i++
			continue
		case c == '"':
			if !inString {
				before := strings.TrimRight(b.String(), " \t")
				regex = strings.HasSuffix(before, "~")
			}
			inString = !inString
		case c == '$' && strings.HasPrefix(s[i:], "$("):
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 || !isName(s[i+2:i+2+end]) {
				break
			}
			name := s[i+2 : i+2+end]
			v, err := checkVariable(name, vars, getenv, perUser)
			if err != nil {
				return "", &check.Error{Col: i + 1, Msg: err.Error()}
			}
			if inString {
				if regex {
					v = regexp.QuoteMeta(v)
				}
				v = escapeQuoted(v)
			}
			b.WriteString(v)
			i += 2 + end
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}

// checkVariable is the value of a variable a check names.
func checkVariable(name string, vars map[string]string, getenv func(string) (string, bool), perUser func(string) bool) (string, error) {
	if perUser != nil && perUser(name) {
		return "", fmt.Errorf("$(%s) is a per-user variable (a --data column, or set by #@extract), which a check cannot use: checks are compiled once for all users; check for what every user's answer has", name)
	}
	if v, ok := vars[name]; ok {
		return v, nil
	}
	if getenv != nil {
		if v, ok := getenv(name); ok {
			return v, nil
		}
	}
	return "", fmt.Errorf("%v %s (set it in the environment or on a line %s=VALUE above this one)", ErrUndefinedVariable, name, name)
}

// escapeQuoted writes v so that a check's double-quoted string reads it back as it is: its
// quotes escaped, and its backslashes doubled where the string would read them as an escape
// (before a quote, a backslash or the string's end); others stay, as a regular expression's
// \. does.
func escapeQuoted(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\' && (i+1 == len(v) || v[i+1] == '\\' || v[i+1] == '"'):
			b.WriteString(`\\`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
