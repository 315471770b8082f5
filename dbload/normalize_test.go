package dbload

import (
	"testing"
)

// The same statement as MariaDB's digest and as PostgreSQL's pg_stat_statements show it (the
// texts of the pairs are theirs, from MariaDB 10.11 and PostgreSQL 15) normalises to one form.
func TestNormalizeStatementMatchesDialects(t *testing.T) {
	for _, tc := range []struct {
		name, mysql, pg, want string
	}{
		{"quotes, case and spacing", "SELECT `v` FROM `page` WHERE ID = ?", `SELECT "v" FROM page WHERE id = $1`,
			"select v from page where id = ?"},
		{"qualified names", "SELECT `p` . `page_title` FROM `page` `p`", `SELECT p.page_title FROM page p`,
			"select p . page_title from page p"},
		{"an IN list", "SELECT * FROM `t` WHERE ID IN (...) AND `v` = ?", `SELECT * FROM t WHERE id IN ($1,$2,$3) AND v = $4`,
			"select * from t where id in ( ? ) and v = ?"},
		{"an array for the list", "SELECT * FROM `t` WHERE ID IN (...)", `SELECT * FROM t WHERE id = ANY($1)`,
			"select * from t where id in ( ? )"},
		{"VALUES rows", "INSERT INTO `t` VALUES (...) /* , ... */", `INSERT INTO t VALUES ($1,$2),($3,$4)`,
			"insert into t values ( ? )"},
		{"LIMIT offset, count", "SELECT * FROM `t` LIMIT ?, ...", `SELECT * FROM t LIMIT $1 OFFSET $2`,
			"select * from t limit ? offset ?"},
		{"LIMIT with OFFSET", "SELECT `v` FROM `t` WHERE ID = - ? LIMIT ? OFFSET ?", `SELECT "v" FROM t WHERE id = $1 OFFSET $3 LIMIT $2`,
			"select v from t where id = ? limit ? offset ?"},
		{"FETCH FIRST", "SELECT `v` FROM `t` LIMIT ?", `SELECT "v" FROM t FETCH FIRST $1 ROWS ONLY`,
			"select v from t limit ?"},
		{"OFFSET ROWS FETCH NEXT", "SELECT `v` FROM `t` LIMIT ? OFFSET ?", `SELECT v FROM t OFFSET $1 ROWS FETCH NEXT $2 ROWS ONLY`,
			"select v from t limit ? offset ?"},
		{"a cast of a value", "SELECT * FROM `t` WHERE ID = ?", `SELECT * FROM t WHERE id = $1::int`,
			"select * from t where id = ?"},
		// PostgreSQL's one-byte type must be quoted: "char".
		{"a cast to a quoted type", "SELECT * FROM `t` WHERE `c` = ?", `SELECT * FROM t WHERE c = $1::"char"`,
			"select * from t where c = ?"},
		{"not equal", "SELECT ? FROM `t` WHERE `a` != ?", `SELECT $1 FROM t WHERE a <> $2`,
			"select ? from t where a <> ?"},
		{"a comment and a semicolon", "SELECT /* page */ `v` FROM `t`;", "SELECT v -- page\n FROM t",
			"select v from t"},
		{"subtraction stays", "SELECT `a` - ? FROM `t`", `SELECT a - $1 FROM t`, "select a - ? from t"},
		{"MySQL's optimizer words", "SELECT STRAIGHT_JOIN `a` FROM `p` STRAIGHT_JOIN `r` ON ( `p` . `id` = `r` . `p` )",
			`SELECT a FROM p JOIN r ON (p.id = r.p)`, "select a from p join r on ( p . id = r . p )"},
		{"DISTINCTROW", "SELECT DISTINCTROW SQL_NO_CACHE `job_cmd` FROM `job`", `SELECT DISTINCT job_cmd FROM job`,
			"select distinct job_cmd from job"},
		{"literals left in", "SELECT ? FROM `t` WHERE `v` = ?", `SELECT 1 FROM t WHERE v = 'x'`,
			"select ? from t where v = ?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			my, pg := NormalizeStatement(tc.mysql), NormalizeStatement(tc.pg)
			if my != tc.want || pg != tc.want {
				t.Errorf("MySQL %q\n  -> %q\nPostgreSQL %q\n  -> %q\nwant %q", tc.mysql, my, tc.pg, pg, tc.want)
			}
		})
	}
}

// Statements that differ stay apart.
func TestNormalizeStatementKeepsStatementsApart(t *testing.T) {
	for _, tc := range [][2]string{
		{"SELECT a FROM t", "SELECT b FROM t"},
		{"SELECT a FROM t WHERE x = ?", "SELECT a FROM t WHERE x > ?"},
		{"SELECT a FROM t LIMIT ?", "SELECT a FROM t LIMIT ? OFFSET ?"},
		{`SELECT "my col" FROM t`, `SELECT my col FROM t`},
		{"SELECT a - ? FROM t", "SELECT a ? FROM t"},
	} {
		if a, b := NormalizeStatement(tc[0]), NormalizeStatement(tc[1]); a == b {
			t.Errorf("%q and %q both normalise to %q", tc[0], tc[1], a)
		}
	}
}

func TestMaskLiterals(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		mysql    bool
		want     string
		masked   bool
	}{
		{"a digest", "SELECT `v` FROM `t` WHERE `id` = ?", true, "SELECT `v` FROM `t` WHERE `id` = ?", false},
		{"a normalised query", "SELECT v FROM t1 WHERE id = $1", false, "SELECT v FROM t1 WHERE id = $1", false},
		{"a utility statement", "SET search_path = 'public'", false, "SET search_path = ?", true},
		{"a password", "ALTER USER app PASSWORD 'it''s s3cret'", false, "ALTER USER app PASSWORD ?", true},
		{"an escape string", `SELECT E'a\'b', 42, 1.5e3`, false, "SELECT ?, ?, ?", true},
		{"a dollar-quoted body", "DO $f$ BEGIN RAISE 'x'; END $f$", false, "DO ?", true},
		{"MySQL's double quotes are a string", `SELECT "secret"`, true, "SELECT ?", true},
		{"PostgreSQL's are a name", `SELECT "col"`, false, `SELECT "col"`, false},
		{"an unterminated quote", "SELECT 'abc", false, "SELECT ?", true},
		// PostgreSQL reads 'C:\dir\' as a whole string (standard_conforming_strings), an older
		// setting or MySQL up to the next quote: the rest of such a text is masked whole.
		{"a backslash before a closing quote", `COPY t FROM 'C:\dir\' WITH (NULL 'hunter2')`, false, "COPY t FROM ?", true},
		{"MySQL's backslash before a closing quote", `SELECT 'a\' , 'hunter2'`, true, "SELECT ?", true},
		{"a comment's values", "SELECT v FROM t WHERE id = $1 /* user='bob', token='hunter2' */", false, "SELECT v FROM t WHERE id = $1 /* user=?, token=? */", true},
		{"a line comment's values", "SELECT v FROM t -- key='hunter2'\nWHERE id = $1", false, "SELECT v FROM t -- key=?\nWHERE id = $1", true},
		{"a comment without values", "SELECT v FROM t /* list */ WHERE id = $1", false, "SELECT v FROM t /* list */ WHERE id = $1", false},
		{"a name holding --, then a value", `SELECT "a--'" FROM t WHERE x = 'hunter2' AND "b`, false, `SELECT "a--'" FROM t WHERE x = ? AND "b`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, masked := MaskLiterals(tc.in, tc.mysql)
			if got != tc.want || masked != tc.masked {
				t.Errorf("MaskLiterals(%q) = %q, %v; want %q, %v", tc.in, got, masked, tc.want, tc.masked)
			}
		})
	}
}
