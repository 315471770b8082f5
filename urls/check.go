package urls

import (
	"errors"

	"github.com/webload/webload/check"
)

// checkDirective starts a line that gives the next URL a response check. To siege it is a
// comment, like weightDirective. The expression is not expanded: a regular expression's $
// is its own.
const checkDirective = "#@check"

// errDanglingCheck reports checks after the last URL line, which would check nothing.
var errDanglingCheck = errors.New(checkDirective + " applies to no URL: it must stand before a URL line")

// parseCheck reads the check of a directive line as it is in the file (raw), whose trimmed
// form line starts with the directive. A problem's column counts from the start of raw, so
// editors jump to it.
func parseCheck(raw, line string) (check.Expr, error) {
	e, err := check.Parse(line[len(checkDirective):])
	var ce *check.Error
	if errors.As(err, &ce) {
		return check.Expr{}, &check.Error{Col: directiveCol(raw, checkDirective, ce.Col), Msg: ce.Msg}
	}
	return e, err
}
