package dbload

import (
	"slices"
	"strings"
)

// NormalizeStatement is the form of a statement's text that the same statement has on MySQL
// (MariaDB, Percona) and on PostgreSQL, so that a comparison of two stacks can match them:
// the database's own digest ("SELECT `v` FROM `t` WHERE `id` IN (...) LIMIT ?, ...") and
// PostgreSQL's normalised query ("SELECT v FROM t WHERE id IN ($1, $2) LIMIT $3 OFFSET $4")
// both read "select v from t where id in ( ? ) limit ? offset ?". It takes every literal and
// placeholder to ?, a list of them (and a list of such lists: VALUES rows) to one, identifier
// quotes off, keywords and identifiers to lower case, LIMIT's forms (LIMIT o, n; OFFSET o
// FETCH FIRST n ROWS ONLY) to LIMIT n OFFSET o, = ANY(?) to IN (?), != to <>, a cast of a
// value (?::int) to the value, MySQL's DISTINCTROW and STRAIGHT_JOIN to DISTINCT and JOIN and
// its optimizer's words after SELECT (SQL_NO_CACHE…) out, comments and spacing to one space
// between tokens. What it
// cannot make alike (functions of one dialect, schema-qualified names on one side) stays
// apart: such statements show on one side only.
//
// The form is a fixed point: normalising it again changes nothing. One pass's rewrites can
// make a form that another rewrite applies to ("OFFSET ? ROW ::x" loses its ROW only after the
// cast before it was kept), so passes repeat until the text stays as it is.
func NormalizeStatement(text string) string {
	n := normalizeOnce(text)
	for range maxNormalizePasses {
		again := normalizeOnce(n)
		if again == n {
			break
		}
		n = again
	}
	return n
}

// maxNormalizePasses bounds the passes after the first: each pass only takes words away or
// rewrites them into forms no rule rewrites again, so a few passes settle any text.
const maxNormalizePasses = 4

// normalizeOnce is one pass of NormalizeStatement's rewrites over text.
func normalizeOnce(text string) string {
	toks := tokenizeSQL(text, false)
	words := make([]string, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		raw := text[t.start:t.end]
		switch t.kind {
		case sqlString, sqlNumber, sqlParam:
			// A sign before a value is part of it: MySQL's digest writes -1 as "- ?".
			for n := len(words); n > 0 && words[n-1] == "-" && (n == 1 || !isOperand(words[n-2])); n-- {
				words = words[:n-1]
			}
			words = append(words, "?")
		case sqlQuoted:
			words = append(words, identifier(unquote(raw)))
		case sqlWord:
			w := strings.ToLower(raw)
			if n := len(words); n > 0 && mysqlSelectHints[w] && (words[n-1] == "select" || words[n-1] == "distinct") {
				continue // an optimizer's hint: the statement is the same
			}
			switch w {
			case "straight_join":
				w = "join"
			case "distinctrow":
				w = "distinct"
			}
			words = append(words, w)
		default:
			switch {
			case raw == "!=":
				raw = "<>"
			case raw == "::" && i+1 < len(toks) && (toks[i+1].kind == sqlWord || toks[i+1].kind == sqlQuoted) && len(words) > 0 && words[len(words)-1] == "?":
				i++ // ?::int is ?, and ?::"char" too
				continue
			}
			words = append(words, raw)
		}
	}
	for len(words) > 0 && words[len(words)-1] == ";" {
		words = words[:len(words)-1]
	}
	words = collapseLists(words)
	words = anyToIn(words)
	words = limitForm(words)
	return strings.Join(words, " ")
}

// mysqlSelectHints are MySQL's words after SELECT that steer its optimizer or cache and leave
// the statement what it is.
var mysqlSelectHints = map[string]bool{"straight_join": true, "high_priority": true, "sql_no_cache": true,
	"sql_cache": true, "sql_small_result": true, "sql_big_result": true, "sql_buffer_result": true}

// isOperand tells whether w ends an operand, so that a - after it subtracts rather than signs.
func isOperand(w string) bool {
	if w == "?" || w == ")" || w == "]" {
		return true
	}
	switch w {
	case "select", "where", "and", "or", "not", "when", "then", "else", "return", "set", "values",
		"in", "by", "limit", "offset", "between", "is", "like", "case", "on", "having", "as":
		return false
	}
	r := w[0]
	return r == '_' || r == '"' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80
}

// unquote takes the quotes off an identifier, a doubled quote inside being one.
func unquote(q string) string {
	if len(q) < 2 || q[len(q)-1] != q[0] {
		return q[1:]
	}
	return strings.ReplaceAll(q[1:len(q)-1], q[:1]+q[:1], q[:1])
}

// identifier is an identifier as NormalizeStatement writes it: in lower case, bare when it
// reads as a word (so `Page` and "page" and page match), in double quotes otherwise (so that
// the normalised form reads the same when normalised again).
func identifier(name string) string {
	name = strings.ToLower(name)
	toks := tokenizeSQL(name, false)
	if len(toks) == 1 && toks[0].kind == sqlWord && toks[0].start == 0 && toks[0].end == len(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// collapseLists writes a parenthesised list of values as one, "( ? , ? , ? )" as "( ? )", and
// a list of such lists as one, "( ? ) , ( ? )" as "( ? )": a digest writes them so
// (MySQL's "(...) /* , ... */"), PostgreSQL's normalised text keeps each value.
func collapseLists(w []string) []string {
	out := w[:0:0]
	for i := 0; i < len(w); i++ {
		if w[i] == "(" {
			j := i + 1
			for j < len(w) && (w[j] == "?" || w[j] == ",") {
				j++
			}
			if j > i+1 && j < len(w) && w[j] == ")" && w[i+1] == "?" {
				if n := len(out); n >= 4 && out[n-1] == "," && out[n-2] == ")" && out[n-3] == "?" && out[n-4] == "(" {
					out = out[:n-1] // another row of the same VALUES
				} else {
					out = append(out, "(", "?", ")")
				}
				i = j
				continue
			}
		}
		out = append(out, w[i])
	}
	return out
}

// anyToIn writes PostgreSQL's "= any ( ? )" (an array of values) as "in ( ? )", MySQL's form.
func anyToIn(w []string) []string {
	for i := 0; i+4 < len(w); i++ {
		if w[i] == "=" && w[i+1] == "any" && w[i+2] == "(" && w[i+3] == "?" && w[i+4] == ")" {
			w = slices.Replace(w, i, i+2, "in")
		}
	}
	return w
}

// limitForm writes a row limit one way: "limit ? offset ?" for MySQL's "limit ? , ?" (offset
// first), PostgreSQL's "offset ? limit ?" and the standard's "offset ? rows fetch first ? rows
// only"; "limit ?" for "fetch first ? rows only".
func limitForm(w []string) []string {
	out := w[:0:0]
	for i := 0; i < len(w); i++ {
		switch {
		case match(w[i:], "limit", "?", ",", "?"):
			out = append(out, "limit", "?", "offset", "?")
			i += 3
		case match(w[i:], "offset", "?", "limit", "?"):
			out = append(out, "limit", "?", "offset", "?")
			i += 3
		case match(w[i:], "offset", "?") && fetchAt(w, i+2) > 0:
			n := fetchAt(w, i+2)
			out = append(out, "limit", "?", "offset", "?")
			i += 1 + n
		case match(w[i:], "offset", "?", "rows") || match(w[i:], "offset", "?", "row"):
			out = append(out, "offset", "?")
			i += 2
		case fetchAt(w, i) > 0:
			out = append(out, "limit", "?")
			i += fetchAt(w, i) - 1
		default:
			out = append(out, w[i])
		}
	}
	return out
}

// fetchAt is how many words "[rows] fetch first|next ? row|rows only" takes at w[i:], 0 when
// it is not there (the leading "rows" belongs to an OFFSET before it).
func fetchAt(w []string, i int) int {
	skip := 0
	if i < len(w) && (w[i] == "rows" || w[i] == "row") {
		skip = 1
	}
	r := w[min(i+skip, len(w)):]
	if len(r) >= 5 && r[0] == "fetch" && (r[1] == "first" || r[1] == "next") && r[2] == "?" &&
		(r[3] == "rows" || r[3] == "row") && r[4] == "only" {
		return skip + 5
	}
	return 0
}

// match tells whether w starts with want.
func match(w []string, want ...string) bool {
	return len(w) >= len(want) && slices.Equal(w[:len(want)], want)
}

// MaskLiterals replaces each string and number literal left in a statement's text with ?,
// and says whether there was one. A digest holds none (the database took them out), but
// PostgreSQL keeps the constants of utility statements (SET search_path = 'x', CREATE USER
// … PASSWORD '…') and the comments of any (where a tracing library writes quoted values), and
// a value is no statement's to report: it may be a secret. mysql reads "x" as a string, as
// MySQL does. A string whose end depends on whether a backslash escapes the quote (a setting of
// either database) is masked with all that follows it, since either reading may be the
// server's.
func MaskLiterals(text string, mysql bool) (string, bool) {
	toks := tokenizeSQL(text, mysql)
	var b strings.Builder
	last, masked := 0, false
	for _, t := range toks {
		// Only what lies between two tokens is space and comments: a "--" inside a quoted
		// name is no comment.
		masked = maskComments(&b, text[last:t.start], mysql) || masked
		if t.kind != sqlString && t.kind != sqlNumber {
			b.WriteString(text[t.start:t.end])
			last = t.end
			continue
		}
		b.WriteString("?")
		last, masked = t.end, true
		if t.kind == sqlString && backslashDecidesEnd(text, t) {
			return b.String(), true
		}
	}
	masked = maskComments(&b, text[last:], mysql) || masked
	if !masked {
		return text, false
	}
	return b.String(), true
}

// backslashDecidesEnd tells whether string token t ends elsewhere when a backslash does not
// escape its quote: 'C:\dir\' is whole in PostgreSQL, and in MySQL runs to the next quote.
func backslashDecidesEnd(text string, t sqlToken) bool {
	q := text[t.start]
	if q != '\'' && q != '"' {
		return false // E'..' and the like always take backslashes; $$..$$ never
	}
	return quoteEnd(text, t.start, q, false) != quoteEnd(text, t.start, q, true)
}

// maskComments writes gap, the spaces and comments between two tokens, to b with the literals
// inside its comments masked, and says whether it masked one.
func maskComments(b *strings.Builder, gap string, mysql bool) bool {
	masked := false
	for {
		i := strings.Index(gap, "/*")
		j := strings.Index(gap, "--")
		if i < 0 && j < 0 {
			b.WriteString(gap)
			return masked
		}
		open, close := "/*", "*/"
		if i < 0 || j >= 0 && j < i {
			i, open, close = j, "--", "\n"
		}
		body := gap[i+len(open):]
		end := strings.Index(body, close)
		if end < 0 {
			end = len(body)
		}
		m, ok := MaskLiterals(body[:end], mysql)
		b.WriteString(gap[:i+len(open)])
		b.WriteString(m)
		masked = masked || ok
		gap = body[end:]
	}
}
