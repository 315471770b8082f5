package urls

import (
	"errors"
	"strings"

	"github.com/webload/webload/check"
)

// checkDirective starts a line that gives the next URL a response check. To siege it is a
// comment, like weightDirective. The expression is not expanded: a regular expression's $
// is its own.
const checkDirective = "#@check"

// errDanglingCheck reports checks after the last URL line, which would check nothing.
var errDanglingCheck = errors.New(checkDirective + " applies to no URL: it must stand before a URL line")

// isCheckDirective tells a trimmed line that is a check directive from a comment that only
// begins like one ("#@checks below").
func isCheckDirective(line string) bool {
	rest, ok := strings.CutPrefix(line, checkDirective)
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t')
}

// parseCheck reads the check of a directive line as it is in the file (raw), whose trimmed
// form line starts with the directive. A problem's column counts from the start of raw, so
// editors jump to it.
func parseCheck(raw, line string) (check.Expr, error) {
	e, err := check.Parse(line[len(checkDirective):])
	var ce *check.Error
	if errors.As(err, &ce) {
		lead := len(raw) - len(strings.TrimLeft(raw, blanks))
		return check.Expr{}, &check.Error{Col: lead + len(checkDirective) + ce.Col, Msg: ce.Msg}
	}
	return e, err
}
