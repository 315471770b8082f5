package dbload

import (
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
		}
	})
}
