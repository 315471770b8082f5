package dbload

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/dbtest"
)

// The counters read from a real MariaDB move by exactly what the test made the server do.
// The subtests run one after another: the counters are the whole server's.
func TestMySQLCounters(t *testing.T) {
	s := dbtest.MariaDB(t)
	src := openReader(t, s.DSN)
	db := siteDB(t, s.DSN)
	s.Exec(t, "USE webload; CREATE TABLE webload.scan (id INT PRIMARY KEY, v INT) ENGINE=InnoDB;"+
		"INSERT INTO webload.scan SELECT seq, seq FROM seq_1_to_500;"+
		"CREATE TABLE webload.pair (id INT PRIMARY KEY, v INT) ENGINE=InnoDB;"+
		"INSERT INTO webload.pair VALUES (1, 0), (2, 0);"+
		"CREATE TABLE webload.notes (body TEXT);"+
		"INSERT INTO webload.notes SELECT CONCAT('note ', seq % 7) FROM seq_1_to_50")

	// Each step starts on a server at rest: a connection an earlier step closed says goodbye
	// (COM_QUIT, which Questions counts) a moment after its Close returned.
	step := func(name string, f func(t *testing.T)) {
		t.Run(name, func(t *testing.T) {
			waitAtRest(t, src, db, 0)
			f(t)
		})
	}
	first := read(t, src)
	t.Run("reading", func(t *testing.T) {
		if first.Kind != KindMySQL || first.QueriesSource != "Questions" {
			t.Errorf("kind %q, queries source %q", first.Kind, first.QueriesSource)
		}
		// The comment is what tells Percona Server from MySQL.
		if want := s.Exec(t, "SELECT CONCAT(VERSION(), ' (', @@version_comment, ')')"); first.Version != want || !strings.Contains(want, "MariaDB") {
			t.Errorf("version %q, want %q", first.Version, want)
		}
		want := HasSlowQueries | HasRowsRead | HasBuffer | HasLockWaits | HasDeadlocks | HasTempDiskTables
		if first.Has != want {
			t.Errorf("Has %b, want %b", first.Has, want)
		}
	})

	step("queries exact, own statements left out", func(t *testing.T) {
		send(t, db, 1) // the site's connection is open before the first reading
		a := read(t, src)
		send(t, db, 137)
		b := read(t, src)
		c := read(t, src)
		d := read(t, src)
		send(t, db, 25)
		e := read(t, src)
		for _, tc := range []struct {
			name     string
			from, to Sample
			want     int64
		}{
			{"137 sent", a, b, 137},
			{"nothing sent", b, c, 0},
			{"nothing sent again", c, d, 0},
			{"25 sent", d, e, 25},
			{"over all readings", a, e, 162},
		} {
			if got := tc.to.Queries - tc.from.Queries; got != tc.want {
				t.Errorf("%s: queries went up by %d, want %d", tc.name, got, tc.want)
			}
		}
	})

	step("idle server: readings change no counter", func(t *testing.T) {
		a := read(t, src)
		b := read(t, src)
		for name, d := range map[string]int64{
			"queries":          b.Queries - a.Queries,
			"slow queries":     b.SlowQueries - a.SlowQueries,
			"rows read":        b.RowsRead - a.RowsRead,
			"temp disk tables": b.TempDiskTables - a.TempDiskTables,
			"connections":      b.Connections - a.Connections,
		} {
			if d != 0 {
				t.Errorf("%s changed by %d", name, d)
			}
		}
	})

	step("slow queries", func(t *testing.T) {
		c := conn(t, db)
		exec(t, c, "SET SESSION long_query_time = 0.05")
		a := read(t, src)
		exec(t, c, "SELECT SLEEP(0.1)", "SELECT SLEEP(0.1)", "SELECT 1")
		b := read(t, src)
		if got := b.SlowQueries - a.SlowQueries; got != 2 {
			t.Errorf("slow queries went up by %d, want 2", got)
		}
	})

	step("rows read and buffer reads on a table scan", func(t *testing.T) {
		a := read(t, src)
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM scan WHERE v > 0").Scan(&n); err != nil || n != 500 {
			t.Fatalf("scan: %d rows, %v", n, err)
		}
		b := read(t, src)
		if got := b.RowsRead - a.RowsRead; got != 500 {
			t.Errorf("rows read went up by %d, want 500", got)
		}
		if b.BufferReads <= a.BufferReads {
			t.Errorf("buffer reads %d then %d, want more", a.BufferReads, b.BufferReads)
		}
	})

	step("deadlock and lock wait", func(t *testing.T) {
		a := read(t, src)
		deadlocks := deadlock(t, db)
		b := read(t, src)
		if deadlocks != 1 {
			t.Fatalf("%d transactions lost to a deadlock, want 1", deadlocks)
		}
		if got := b.Deadlocks - a.Deadlocks; got != 1 {
			t.Errorf("deadlocks went up by %d, want 1", got)
		}
		if b.LockWaits <= a.LockWaits {
			t.Errorf("lock waits %d then %d, want more", a.LockWaits, b.LockWaits)
		}
	})

	step("deadlocks as MySQL keeps them, in INNODB_METRICS", func(t *testing.T) {
		// MariaDB keeps both: a reader made to take the metric must agree with the status.
		metric := openReader(t, s.DSN).(*mysqlSource)
		metric.deadlocks = deadlocksMetric
		a := read(t, metric)
		send(t, db, 137)
		if deadlock(t, db) != 1 {
			t.Fatal("no deadlock")
		}
		b, status := read(t, metric), read(t, src)
		if a.Has&HasDeadlocks == 0 || b.Deadlocks-a.Deadlocks != 1 || b.Deadlocks != status.Deadlocks {
			t.Errorf("metric deadlocks %d then %d (has %t), status %d", a.Deadlocks, b.Deadlocks, a.Has&HasDeadlocks != 0, status.Deadlocks)
		}
		// deadlock sends 10 statements of its own.
		if got := b.Queries - a.Queries; got != 137+10 {
			t.Errorf("queries went up by %d, want 147", got)
		}

		for _, tc := range []struct {
			name    string
			monitor string
			want    deadlockSource
		}{
			{"counter on: read from the metric", "innodb_monitor_enable", deadlocksMetric},
			{"counter off: absent", "innodb_monitor_disable", deadlocksNone},
		} {
			s.Exec(t, "SET GLOBAL "+tc.monitor+" = 'lock_deadlocks'")
			r := openReader(t, s.DSN).(*mysqlSource)
			var got Sample // a status without Innodb_deadlocks
			if err := r.addDeadlocks(context.Background(), &got); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if r.deadlocks != tc.want || (got.Has&HasDeadlocks != 0) != (tc.want == deadlocksMetric) {
				t.Errorf("%s: source %d, has deadlocks %t", tc.name, r.deadlocks, got.Has&HasDeadlocks != 0)
			}
		}
		s.Exec(t, "SET GLOBAL innodb_monitor_enable = 'lock_deadlocks'")
	})

	step("temporary table on disk", func(t *testing.T) {
		a := read(t, src)
		// A TEXT column in a GROUP BY keeps MariaDB's temporary table off the MEMORY engine.
		rows, err := db.Query("SELECT body, COUNT(*) FROM notes GROUP BY body")
		if err != nil {
			t.Fatalf("group by: %v", err)
		}
		_ = rows.Close()
		b := read(t, src)
		if got := b.TempDiskTables - a.TempDiskTables; got != 1 {
			t.Errorf("temporary disk tables went up by %d, want 1", got)
		}
	})

	step("connections are the site's, not the reader's", func(t *testing.T) {
		other := siteDB(t, s.DSN)
		a := read(t, src)
		for range 3 {
			if err := conn(t, other).PingContext(context.Background()); err != nil {
				t.Fatalf("ping: %v", err)
			}
		}
		b := read(t, src)
		if got := b.Connections - a.Connections; got != 3 {
			t.Errorf("connections went up by %d, want 3", got)
		}
	})

	step("connection killed: the next reading reconnects, counts stay exact", func(t *testing.T) {
		r := openReader(t, s.DSN).(*mysqlSource)
		var id int64
		if err := r.queryRow(context.Background(), "SELECT CONNECTION_ID()", &id); err != nil {
			t.Fatal(err)
		}
		s.Exec(t, fmt.Sprintf("KILL CONNECTION %d", id))
		_ = read(t, r) // reconnects
		// The mariadb client that sent the KILL says goodbye when it likes; src is open too.
		waitAtRest(t, r, db, 1)
		a := read(t, r)
		send(t, db, 137)
		b := read(t, r)
		var now int64
		if err := r.queryRow(context.Background(), "SELECT CONNECTION_ID()", &now); err != nil || now == id {
			t.Fatalf("connection %d, was %d (%v): want a new one", now, id, err)
		}
		if got := b.Queries - a.Queries; got != 137 {
			t.Errorf("queries went up by %d, want 137", got)
		}
	})

	step("other ways in", func(t *testing.T) {
		sock := s.Exec(t, "SELECT @@socket")
		port := strings.TrimPrefix(s.Addr, "127.0.0.1:")
		s.Exec(t, "CREATE USER 'watcher'@'127.0.0.1' IDENTIFIED BY 'w4tcher-pass'")
		for _, tc := range []struct{ name, dsn string }{
			{"unix socket", fmt.Sprintf("mysql://%s:%s@localhost/?socket=%s", dbtest.User, dbtest.Password, url.QueryEscape(sock))},
			{"password parameter, database, mariadb scheme", fmt.Sprintf("mariadb://%s@127.0.0.1:%s/%s?password=%s", dbtest.User, port, dbtest.Database, dbtest.Password)},
			// The test server has no certificate: preferred falls back to plain text.
			{"tls preferred", s.DSN + "?tls=preferred"},
			{"an account without privileges", "mysql://watcher:w4tcher-pass@127.0.0.1:" + port + "/"},
		} {
			r := read(t, openReader(t, tc.dsn))
			if !strings.Contains(r.Version, "MariaDB") || r.Has != first.Has {
				t.Errorf("%s: version %q, has %b, want %b", tc.name, r.Version, r.Has, first.Has)
			}
		}
	})

	step("monitor", func(t *testing.T) {
		target := mustTarget(t, s.DSN)
		src, err := Open(target)
		if err != nil {
			t.Fatal(err)
		}
		send(t, db, 1) // a site connection open before the run, as a site's pool is
		m := Start(context.Background(), src, target.String(), 20*time.Millisecond)
		send(t, db, 136)
		var n int // and a table scan, for the buffer pool
		if err := db.QueryRow("SELECT COUNT(*) FROM scan WHERE v > 0").Scan(&n); err != nil {
			t.Fatalf("scan: %v", err)
		}
		// Long enough for a reading or more during the run, so the series has a middle on most
		// machines; a busy one may take none, and the checks below hold either way.
		time.Sleep(80 * time.Millisecond)
		sum := m.Stop()
		if sum.Queries == nil || *sum.Queries != 137 {
			t.Fatalf("queries %v, want 137 (%+v)", sum.Queries, sum)
		}
		if sum.Kind != KindMySQL || !strings.Contains(sum.Version, "MariaDB") || sum.QueriesSource != "Questions" {
			t.Errorf("kind %q, version %q, source %q", sum.Kind, sum.Version, sum.QueriesSource)
		}
		if sum.QueriesPerSec <= 0 || sum.Failures != 0 || sum.Samples < 2 {
			t.Errorf("queries/s %v, %d readings, %d failed", sum.QueriesPerSec, sum.Samples, sum.Failures)
		}
		if strings.Contains(sum.Source, dbtest.Password) {
			t.Errorf("source %q shows the password", sum.Source)
		}
		if len(sum.Series) != sum.Samples-1 {
			t.Fatalf("%d points from %d readings, want one per interval", len(sum.Series), sum.Samples)
		}
		var total float64
		for _, p := range sum.Series {
			total += p.QueriesPerSec * p.Seconds
		}
		if math.Round(total) != 137 {
			t.Errorf("the series adds up to %v queries, want 137", total)
		}
		for _, f := range []*int64{sum.SlowQueries, sum.RowsRead, sum.LockWaits, sum.Deadlocks, sum.TempDiskTables} {
			if f == nil {
				t.Errorf("a MySQL figure is absent: %+v", sum)
			}
		}
		if sum.BufferHitRatio == nil || sum.TempBytes != nil {
			t.Errorf("buffer hit ratio %v, temp bytes %v", sum.BufferHitRatio, sum.TempBytes)
		}
	})
}

// One reading of a real MariaDB: SHOW GLOBAL STATUS's few hundred rows, parsed.
func BenchmarkMySQLSample(b *testing.B) {
	s := dbtest.MariaDB(b)
	src := openReader(b, s.DSN)
	ctx := context.Background()
	if _, err := src.Sample(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := src.Sample(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
