package urls

import (
	"fmt"
	"strings"
)

// directivePrefix starts every directive line (checkDirective, extractDirective,
// weightDirective). To siege such a line is a comment; to webload a line that starts with it
// and names no directive is an error, so that a misspelt one (#@chek, #@Check, "#@ check") is
// not read as a comment and its check or rule silently dropped.
const directivePrefix = "#@"

// directives are the known directives, in the order errors list them.
var directives = [...]string{checkDirective, extractDirective, weightDirective}

// isDirective tells whether a trimmed line is directive: its name followed by a blank or the
// end of the line. "#@checks" is not #@check (and is an unknown directive).
func isDirective(line, directive string) bool {
	rest, ok := strings.CutPrefix(line, directive)
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t')
}

// unknownDirective is the error of a trimmed line that starts with directivePrefix but is
// none of the directives. It quotes the line's first word only (the rest may be a secret
// header's value) and names the directive the line looks like a misspelling of, if any.
func unknownDirective(line string) error {
	word := line
	if i := strings.IndexAny(line, blanks); i >= 0 {
		word = line[:i]
	}
	if len(word) > 40 {
		word = word[:40] + "..."
	}
	msg := fmt.Sprintf("unknown directive %q: want %s, %s or %s", word, directives[0], directives[1], directives[2])
	if d := lookalike(line); d != "" {
		return fmt.Errorf("%s (did you mean %s?)", msg, d)
	}
	return fmt.Errorf("%s; a comment starts with \"# \"", msg)
}

// lookalike returns the directive whose name the text after a line's "#@" is closest to (its
// first word, or the next one when blanks follow the "#@"), in lower case and letters only,
// when that is within two edits of it; "" when none is.
func lookalike(line string) string {
	rest := strings.TrimLeft(line[len(directivePrefix):], blanks)
	if i := strings.IndexAny(rest, blanks); i >= 0 {
		rest = rest[:i]
	}
	var name []byte
	for i := 0; i < len(rest) && len(name) < 20; i++ {
		c := rest[i] | 0x20 // ASCII lower case; other bytes are left out below
		if c >= 'a' && c <= 'z' {
			name = append(name, c)
		}
	}
	if len(name) == 0 {
		return ""
	}
	for _, d := range directives {
		if editDistance(string(name), d[len(directivePrefix):]) <= 2 {
			return d
		}
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b: the insertions, deletions and
// substitutions of bytes that turn one into the other.
func editDistance(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
