package dbload

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// Open checks the DSN and does not connect: a database that is down costs failed readings.
func TestOpenPostgres(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, dsn string
		err       bool
	}{
		{"nobody listening", "postgres://u:pw-secret@127.0.0.1:1/db?sslmode=disable", false},
		{"socket folder", "postgres:///db?host=/nonexistent&user=u&password=pw-secret", false},
		{"unknown sslmode", "postgres://u:pw-secret@127.0.0.1:1/db?sslmode=bogus", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A DSN the reader refuses is refused at start, by ParseTarget.
			target, err := ParseTarget(tc.dsn)
			var src Source
			if err == nil {
				src, err = Open(target)
			}
			if (err != nil) != tc.err {
				t.Fatalf("error %v, want one: %v", err, tc.err)
			}
			if err != nil && strings.Contains(err.Error(), "pw-secret") {
				t.Errorf("error shows the password: %v", err)
			}
			if src != nil {
				_ = src.Close()
			}
		})
	}
}

func TestPgMajorVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"15.5 (Debian 15.5-0+deb12u1)", 15},
		{"9.6.24", 9},
		{"17beta1", 17},
		{"16devel", 16},
		{"", 0},
		{"PostgreSQL 15", 0},
		{"99999999999999999999", 999999},
	} {
		if got := pgMajorVersion(tc.in); got != tc.want {
			t.Errorf("pgMajorVersion(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestPgCounters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		row  string
		want pgCounters
		err  bool
	}{
		{name: "every column", row: "1\t2\t3\t4\t5\t6\t7\t8\t9\t10",
			want: pgCounters{xacts: 1, rowsRead: 2, bufferReads: 3, bufferMisses: 4, deadlocks: 5, tempBytes: 6,
				connections: 7, lockWaits: 8, calls: 9, sessions: 10}},
		{name: "with the flush's empty column", row: "1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t",
			want: pgCounters{xacts: 1, rowsRead: 2, bufferReads: 3, bufferMisses: 4, deadlocks: 5, tempBytes: 6,
				connections: 7, lockWaits: 8, calls: 9, sessions: 10}},
		{name: "a column short", row: "1\t2\t3\t4\t5\t6\t7\t8\t9", err: true},
		{name: "negative", row: "1\t2\t3\t4\t5\t6\t7\t-8\t9\t10", err: true},
		{name: "a database without tables", row: "1\t-1\t3\t4\t5\t6\t7\t8\t9\t10",
			want: pgCounters{xacts: 1, rowsRead: -1, bufferReads: 3, bufferMisses: 4, deadlocks: 5, tempBytes: 6,
				connections: 7, lockWaits: 8, calls: 9, sessions: 10}},
		{name: "rows read below -1", row: "1\t-2\t3\t4\t5\t6\t7\t8\t9\t10", err: true},
		{name: "NULL", row: "1\t2\t3\t4\t5\t6\t7\t8\t\t10", err: true},
		{name: "numeric beyond bigint", row: "99999999999999999999\t2\t3\t4\t5\t6\t7\t8\t9\t10", err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parsePgCounters(pgRow(tc.row))
			if (err != nil) != tc.err || got != tc.want {
				t.Errorf("got %+v, %v; want %+v, error %v", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestPgProbe(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		row   [][]byte
		major int
		want  pgProbe
		err   bool
		// why is what the reason for no statements must say.
		why string
	}{
		{"statements tracked", [][]byte{[]byte("public"), []byte("top"), []byte("t"), nil}, 15,
			pgProbe{stmts: "public.pg_stat_statements", flush: true}, false, ""},
		{"all statements, quoted schema", [][]byte{[]byte(`"Odd Schema"`), []byte("all"), []byte("f"), nil}, 16,
			pgProbe{stmts: `"Odd Schema".pg_stat_statements`}, false, ""},
		{"tracking nothing", [][]byte{[]byte("public"), []byte("none"), []byte("t"), nil}, 15, pgProbe{flush: true}, false,
			"pg_stat_statements.track is none"},
		{"extension without its library", [][]byte{[]byte("public"), nil, []byte("t"), nil}, 15, pgProbe{flush: true}, false,
			"add it to shared_preload_libraries"},
		{"no extension", [][]byte{nil, []byte("top"), []byte("t"), nil}, 15, pgProbe{flush: true}, false,
			"run CREATE EXTENSION pg_stat_statements"},
		{"before 15", [][]byte{[]byte("public"), []byte("top")}, 13, pgProbe{stmts: "public.pg_stat_statements"}, false, ""},
		{"columns missing", [][]byte{[]byte("public"), []byte("top")}, 15, pgProbe{}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parsePgProbe(tc.row, tc.major)
			if tc.why == "" && got.why != "" || !strings.Contains(got.why, tc.why) {
				t.Errorf("why %q, want it to say %q", got.why, tc.why)
			}
			got.why = ""
			if (err != nil) != tc.err || got != tc.want {
				t.Errorf("got %+v, %v; want %+v, error %v", got, err, tc.want, tc.err)
			}
		})
	}
}

// The reading asks for pg_stat_statements, sessions and the flush only where they exist, and
// always returns the columns parsePgCounters reads.
func TestPgSampleSQL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		major       int
		stmts       string
		flush       bool
		has, hasNot []string
	}{
		{15, "public.pg_stat_statements", true,
			[]string{"FROM public.pg_stat_statements", "sum(sessions)", "pg_stat_force_next_flush()"}, nil},
		{14, "", false, []string{"sum(sessions)"}, []string{"pg_stat_statements", "pg_stat_force_next_flush"}},
		{13, "", false, nil, []string{"sessions", "pg_stat_statements", "pg_stat_force_next_flush"}},
	} {
		sql := pgSampleSQL(tc.major, tc.stmts, tc.flush)
		for _, s := range tc.has {
			if !strings.Contains(sql, s) {
				t.Errorf("PostgreSQL %d: %q lacks %q", tc.major, sql, s)
			}
		}
		for _, s := range tc.hasNot {
			if strings.Contains(sql, s) {
				t.Errorf("PostgreSQL %d: %q has %q", tc.major, sql, s)
			}
		}
		if cols := strings.Count(sql[:strings.Index(sql, "\nFROM pg_stat_database")], ",\n") + 1; cols != pgCountersColumns+pgBoolInt(tc.flush) {
			t.Errorf("PostgreSQL %d: %d columns, want %d", tc.major, cols, pgCountersColumns+pgBoolInt(tc.flush))
		}
	}
}

func pgBoolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FuzzPgCounters: any row either parses into the counts its columns hold or is refused.
func FuzzPgCounters(f *testing.F) {
	f.Add("1\t2\t3\t4\t5\t6\t7\t8\t9\t10")
	f.Add("0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t")
	f.Fuzz(func(t *testing.T, raw string) {
		row := pgRow(raw)
		c, err := parsePgCounters(row)
		if err != nil {
			return
		}
		got := []int64{c.xacts, c.rowsRead, c.bufferReads, c.bufferMisses, c.deadlocks, c.tempBytes,
			c.connections, c.lockWaits, c.calls, c.sessions}
		for i, n := range got {
			want, perr := strconv.ParseInt(string(row[i]), 10, 64)
			if perr != nil || n != want || n < 0 {
				t.Fatalf("column %d %q read as %d", i, row[i], n)
			}
		}
	})
}

// FuzzPgMajorVersion: the major release is the number a version starts with, or 0.
func FuzzPgMajorVersion(f *testing.F) {
	f.Add("15.5 (Debian 15.5-0+deb12u1)")
	f.Add("17beta1")
	f.Fuzz(func(t *testing.T, v string) {
		n := pgMajorVersion(v)
		if n < 0 || n > 999999 {
			t.Fatalf("pgMajorVersion(%q) = %d", v, n)
		}
		if n > 0 && !strings.HasPrefix(strings.TrimLeft(v, "0"), strconv.Itoa(n)) {
			t.Fatalf("pgMajorVersion(%q) = %d, not its leading number", v, n)
		}
	})
}

// pgRow makes a row of text columns from tab-separated text.
func pgRow(s string) [][]byte {
	return bytes.Split([]byte(s), []byte("\t"))
}
