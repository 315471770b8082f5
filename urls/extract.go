package urls

import (
	"errors"
	"strings"

	"github.com/webload/webload/extract"
)

// extractDirective starts a line that takes a value out of the next URL's response. To siege
// it is a comment, like checkDirective. The rule is not expanded: its regular expression's $
// is its own.
const extractDirective = "#@extract"

// errDanglingExtract reports rules after the last URL line, which would read no response.
var errDanglingExtract = errors.New(extractDirective + " applies to no URL: it must stand before a URL line")

// directiveCol turns a column of the text after a directive into one of the raw line, so
// editors jump to the problem.
func directiveCol(raw, directive string, col int) int {
	lead := len(raw) - len(strings.TrimLeft(raw, blanks))
	return lead + len(directive) + col
}

// parseExtract reads the rule of a directive line as it is in the file (raw), whose trimmed
// form line starts with the directive.
func parseExtract(raw, line string) (extract.Rule, error) {
	r, err := extract.Parse(line[len(extractDirective):])
	var ee *extract.Error
	if errors.As(err, &ee) {
		return extract.Rule{}, &extract.Error{Col: directiveCol(raw, extractDirective, ee.Col), Msg: ee.Msg}
	}
	return r, err
}
