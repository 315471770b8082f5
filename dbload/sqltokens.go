package dbload

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// sqlKind is what a token of a statement's text is.
type sqlKind uint8

const (
	sqlWord   sqlKind = iota // a keyword or an identifier as written: SELECT, page_id, @@version
	sqlQuoted                // an identifier in quotes: `page`, "page"
	sqlString                // a string literal: 'x', E'x', X'1f', $$x$$ (and "x" in MySQL)
	sqlNumber                // a number literal: 12, 1.5e3, 0x1f
	sqlParam                 // a placeholder or what a digest put for a value: ?, $1, ...
	sqlSymbol                // an operator or punctuation: ( , = <> ::
)

// sqlToken is one token of a statement's text; start and end are its bytes in the text.
type sqlToken struct {
	kind       sqlKind
	start, end int
}

// sqlOperators are the operators of more than one character that the two dialects share or
// that a digest text holds; the longest is tried first.
var sqlOperators = []string{"->>", "<=>", "...", "<=", ">=", "<>", "!=", "::", "||", ":=", "->", "<<", ">>", "&&"}

// tokenizeSQL splits a statement's text into tokens, comments and spaces left out. It never
// fails: text it cannot read (an unterminated quote) ends as one token. dqString reads "x" as
// a string literal, as MySQL does without ANSI_QUOTES; otherwise it is an identifier.
func tokenizeSQL(s string, dqString bool) []sqlToken {
	var out []sqlToken
	i := 0
	for i < len(s) {
		c := s[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '-' && strings.HasPrefix(s[i:], "--"):
			i = lineEnd(s, i)
			continue
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			if end := strings.Index(s[i+2:], "*/"); end >= 0 {
				i += end + 4
			} else {
				i = len(s)
			}
			continue
		case c == '\'':
			i = quoteEnd(s, i, '\'', true)
			out = append(out, sqlToken{sqlString, start, i})
			continue
		case c == '"':
			i = quoteEnd(s, i, '"', dqString)
			kind := sqlQuoted
			if dqString {
				kind = sqlString
			}
			out = append(out, sqlToken{kind, start, i})
			continue
		case c == '`':
			i = quoteEnd(s, i, '`', false)
			out = append(out, sqlToken{sqlQuoted, start, i})
			continue
		case c == '?':
			out = append(out, sqlToken{sqlParam, i, i + 1})
			i++
			continue
		case c == '$':
			if j := digitsEnd(s, i+1); j > i+1 {
				out = append(out, sqlToken{sqlParam, i, j})
				i = j
				continue
			}
			if end, ok := dollarQuoteEnd(s, i); ok {
				out = append(out, sqlToken{sqlString, i, end})
				i = end
				continue
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			i = numberEnd(s, i)
			out = append(out, sqlToken{sqlNumber, start, i})
			continue
		case isWordStart(s, i):
			i = wordEnd(s, i)
			// E'..', X'..', B'..', N'..': a prefixed string literal.
			if i < len(s) && s[i] == '\'' && i-start == 1 && strings.ContainsRune("eExXbBnN", rune(s[start])) {
				i = quoteEnd(s, i, '\'', true)
				out = append(out, sqlToken{sqlString, start, i})
				continue
			}
			out = append(out, sqlToken{sqlWord, start, i})
			continue
		}
		if op := operatorAt(s, i); op != "" {
			kind := sqlSymbol
			if op == "..." {
				kind = sqlParam // a digest's "more values here"
			}
			out = append(out, sqlToken{kind, i, i + len(op)})
			i += len(op)
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		out = append(out, sqlToken{sqlSymbol, i, i + size})
		i += size
	}
	return out
}

func lineEnd(s string, i int) int {
	if end := strings.IndexByte(s[i:], '\n'); end >= 0 {
		return i + end + 1
	}
	return len(s)
}

// quoteEnd is where the quoted text starting at s[i] == q ends: after the closing quote, a
// doubled quote being one of the text; backslash escapes a character when backslash is set
// (MySQL's strings, PostgreSQL's E'x' ones). An unterminated quote runs to the end.
func quoteEnd(s string, i int, q byte, backslash bool) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if backslash {
				j++
			}
		case q:
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(s)
}

// dollarQuoteEnd reads PostgreSQL's $tag$...$tag$ starting at s[i]; ok is false when s[i] does
// not start one.
func dollarQuoteEnd(s string, i int) (int, bool) {
	j := i + 1
	for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || j > i+1 && s[j] >= '0' && s[j] <= '9') {
		j++
	}
	if j >= len(s) || s[j] != '$' {
		return 0, false
	}
	tag := s[i : j+1]
	if end := strings.Index(s[j+1:], tag); end >= 0 {
		return j + 1 + end + len(tag), true
	}
	return len(s), true
}

func digitsEnd(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// numberEnd reads 12, 1.5, .5, 1e-3, 0x1F, 0b101.
func numberEnd(s string, i int) int {
	if strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X") || strings.HasPrefix(s[i:], "0b") || strings.HasPrefix(s[i:], "0B") {
		j := i + 2
		for j < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
			j++
		}
		if j > i+2 {
			return j
		}
	}
	i = digitsEnd(s, i)
	if i < len(s) && s[i] == '.' {
		i = digitsEnd(s, i+1)
	}
	if i+1 < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if s[j] == '+' || s[j] == '-' {
			j++
		}
		if k := digitsEnd(s, j); k > j {
			i = k
		}
	}
	return i
}

// isWordStart tells whether a keyword or identifier starts at s[i]: a letter, _, or @ (MySQL's
// @var and @@system_var).
func isWordStart(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r == '_' || r == '@' || unicode.IsLetter(r)
}

func wordEnd(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != '_' && r != '$' && r != '@' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		i += size
	}
	return i
}

func operatorAt(s string, i int) string {
	for _, op := range sqlOperators {
		if strings.HasPrefix(s[i:], op) {
			return op
		}
	}
	return ""
}
