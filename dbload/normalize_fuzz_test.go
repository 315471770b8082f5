package dbload

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// NormalizeStatement never panics, reads its own output the same again, and leaves no literal
// in it; MaskLiterals leaves no literal either.
func FuzzNormalizeStatement(f *testing.F) {
	for _, seed := range []string{
		"SELECT `v` FROM `t` WHERE ID IN (...) AND `v` = ? LIMIT ?, ...",
		`SELECT "v" FROM t WHERE id = $1::int OFFSET $2 ROWS FETCH FIRST $3 ROWS ONLY`,
		"INSERT INTO t VALUES ($1,$2),($3,$4) /* x */ -- y",
		`SET search_path = E'pub\'lic'; DO $f$ x $f$`,
		`SELECT "a""b", 'c''d', 0x1F, .5e-3, @@version, N'x'`,
		"SELECT - - ? , ( ? , ( ? ) ) ::",
		"`unterminated",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		n := NormalizeStatement(text)
		if again := NormalizeStatement(n); again != n {
			t.Errorf("NormalizeStatement(%q) = %q, but that normalises to %q", text, n, again)
		}
		for _, tok := range tokenizeSQL(n, false) {
			if tok.kind == sqlString || tok.kind == sqlNumber {
				t.Errorf("NormalizeStatement(%q) = %q keeps a literal %q", text, n, n[tok.start:tok.end])
			}
		}
		for _, mysql := range []bool{false, true} {
			m, _ := MaskLiterals(text, mysql)
			for _, tok := range tokenizeSQL(m, mysql) {
				if tok.kind == sqlString || tok.kind == sqlNumber {
					t.Errorf("MaskLiterals(%q, %v) = %q keeps a literal %q", text, mysql, m, m[tok.start:tok.end])
				}
			}
			for _, body := range commentBodies(m, mysql) {
				for _, tok := range tokenizeSQL(body, mysql) {
					if tok.kind == sqlString || tok.kind == sqlNumber {
						t.Errorf("MaskLiterals(%q, %v) = %q keeps a literal %q in a comment", text, mysql, m, body[tok.start:tok.end])
					}
				}
			}
		}
	})
}

// commentBodies are the texts of the comments between text's tokens, and of those inside them.
func commentBodies(text string, mysql bool) []string {
	var out []string
	last := 0
	gaps := []string{}
	for _, tok := range tokenizeSQL(text, mysql) {
		gaps = append(gaps, text[last:tok.start])
		last = tok.end
	}
	gaps = append(gaps, text[last:])
	for _, gap := range gaps {
		for {
			i, j := strings.Index(gap, "/*"), strings.Index(gap, "--")
			if i < 0 && j < 0 {
				break
			}
			open, end := "/*", "*/"
			if i < 0 || j >= 0 && j < i {
				i, open, end = j, "--", "\n"
			}
			body := gap[i+len(open):]
			k := strings.Index(body, end)
			if k < 0 {
				k = len(body)
			}
			out = append(out, body[:k])
			out = append(out, commentBodies(body[:k], mysql)...)
			gap = body[k:]
		}
	}
	return out
}
