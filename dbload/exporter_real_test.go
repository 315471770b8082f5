package dbload

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/webload/webload/internal/dbtest"
	"github.com/webload/webload/internal/nodeexportertest"
)

var captureExporters = flag.Bool("capture-exporters", false, "rewrite testdata/exporter/*.prom from the real exporters")

// activity lists a server's sessions other than the one asking, for a test that finds more
// connections than it expects.
var activity = map[string]string{
	"postgres": "SELECT pid, backend_type, datname, application_name, state, left(regexp_replace(query, '\\s+', ' ', 'g'), 80) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname IS NOT NULL",
	"mysql":    "SELECT id, user, db, command, time, left(info, 80) FROM information_schema.processlist WHERE id <> CONNECTION_ID()",
}

// openExporter opens the reader of an exporter's metrics URL.
func openExporter(t *testing.T, url string) Source {
	t.Helper()
	target, err := ParseTarget(url)
	if err != nil {
		t.Fatalf("ParseTarget(%q): %v", url, err)
	}
	src, err := Open(target)
	if err != nil {
		t.Fatalf("Open(%q): %v", url, err)
	}
	t.Cleanup(func() { _ = src.Close() })
	return src
}

func readOnce(t *testing.T, src Source) Sample {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	s, err := src.Sample(ctx)
	if err != nil {
		t.Fatalf("Sample: %v", err)
	}
	return s
}

// readUntil reads until ok accepts a reading, and returns the last reading and how many it
// took. What it waits for (a client's goodbye, sessions that block until the test lets them
// go) comes in well under a second; the 90 s are a hang guard, after which it returns the
// last reading for the caller's check to fail on.
func readUntil(t *testing.T, src Source, ok func(Sample) bool) (Sample, int) {
	t.Helper()
	// On a machine busy with other work, PostgreSQL has been seen to take over 30 s.
	deadline := time.Now().Add(90 * time.Second)
	for n := 1; ; n++ {
		s := readOnce(t, src)
		if ok(s) || time.Now().After(deadline) {
			return s, n
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// capturePage saves the exporter's page as a fixture for the mapping tests, with -capture-exporters.
func capturePage(t *testing.T, url, name string) {
	t.Helper()
	if !*captureExporters {
		return
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Get(url)
	if err != nil {
		t.Fatalf("capturing %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("capturing %s: %v", url, err)
	}
	if strings.Contains(string(body), dbtest.Password) {
		t.Fatalf("the exporter's page holds the password; not saving it")
	}
	if err := os.WriteFile(filepath.Join("testdata", "exporter", name), body, 0o644); err != nil {
		t.Fatalf("saving %s: %v", name, err)
	}
}

// statements returns n statements that each count once, as the kind counts queries: a SELECT
// each for MySQL's Questions, a transaction each for PostgreSQL's xact_commit.
func statements(kind string, n int) string {
	one := "SELECT 1;"
	if kind == KindPostgres {
		one = "BEGIN; SELECT 1; COMMIT;"
	}
	return strings.Repeat(one, n)
}

// TestExporterRealDatabases reads MariaDB and PostgreSQL through Debian's mysqld_exporter and
// postgres_exporter, so that a change in what the exporters publish fails here.
func TestExporterRealDatabases(t *testing.T) {
	t.Parallel()
	const sent = 200
	tests := []struct {
		name     string
		start    func(t *testing.T) (*dbtest.Server, string)
		fixture  string
		version  string
		source   string
		has, not Has
		// hold takes a lock on a connection of the test's own and returns a statement that
		// waits for it, and the function that lets it go.
		hold func(t *testing.T, s *dbtest.Server) (wait string, release func())
		// client is what one run of the server's command-line client adds to the count
		// besides its statements (measured: MariaDB counts the client's COM_QUIT, PostgreSQL
		// the transaction of its connection's start).
		client int64
		// exporterMin and exporterMax bound what the exporter's own scrapes add to a
		// difference between two readings, plus perScrape for each scrape the test asked for
		// in between or just before; see the comments of the mappings.
		exporterMin, exporterMax, perScrape int64
		// monitor runs a Monitor over the exporter too, where the count is exact enough to
		// check a Summary (PostgreSQL's late counts would make it a race).
		monitor bool
	}{
		{
			name: "mariadb",
			start: func(t *testing.T) (*dbtest.Server, string) {
				s := dbtest.MariaDB(t)
				return s, dbtest.MySQLExporter(t, s)
			},
			fixture: "mysqld_exporter-0.14-mariadb-10.11.prom", version: "MariaDB",
			source: "mysql_global_status_questions-9*mysql_exporter_scrapes_total",
			hold:   mysqlHold,
			has:    HasSlowQueries | HasRowsRead | HasBuffer | HasLockWaits | HasDeadlocks | HasTempDiskTables,
			not:    HasTempBytes | HasLockWaitsNow,
			client: 1, exporterMin: -6, exporterMax: 6, monitor: true,
		},
		{
			name: "postgres",
			start: func(t *testing.T) (*dbtest.Server, string) {
				s := dbtest.Postgres(t, dbtest.PostgresOptions{})
				return s, dbtest.PostgresExporter(t, s)
			},
			fixture: "postgres_exporter-0.11-postgresql-15.prom", version: "(Debian",
			source: "pg_stat_database_xact_commit+pg_stat_database_xact_rollback",
			hold:   postgresHold,
			has:    HasRowsRead | HasBuffer | HasDeadlocks | HasTempBytes,
			not:    HasSlowQueries | HasLockWaits | HasLockWaitsNow | HasTempDiskTables,
			client: 1, exporterMin: 0, exporterMax: 0, perScrape: 13,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			server, url := tc.start(t)
			src := openExporter(t, url)

			// A client's connection can outlive its command by a moment, and PostgreSQL
			// publishes a session's counts as it ends: readings wait for both.
			before, reads := readUntil(t, src, func(s Sample) bool { return s.Connections == 0 })
			server.Exec(t, statements(server.Kind, sent))
			after, readsAfter := readUntil(t, src, func(s Sample) bool {
				return s.Queries-before.Queries >= sent && s.Connections == 0
			})
			// PostgreSQL publishes a session's counts up to 10 s late: the exporter's
			// transactions of the scrapes before the first reading can show up too.
			scrapes := int64(reads + readsAfter + 2)
			capturePage(t, url, tc.fixture)

			t.Logf("%s %s: queries %d -> %d (%d sent), connections %d", after.Kind, after.Version,
				before.Queries, after.Queries, sent, after.Connections)
			if after.Kind != server.Kind || !strings.Contains(after.Version, tc.version) {
				t.Errorf("kind %q version %q, want %q and a version with %q", after.Kind, after.Version, server.Kind, tc.version)
			}
			if after.QueriesSource != tc.source {
				t.Errorf("queries source %q, want %q", after.QueriesSource, tc.source)
			}
			extra := after.Queries - before.Queries - sent - tc.client
			if most := tc.exporterMax + tc.perScrape*scrapes; extra < tc.exporterMin || extra > most {
				t.Errorf("queries went from %d to %d: %d more than the %d sent, want %d to %d more",
					before.Queries, after.Queries, extra, sent+int(tc.client), tc.exporterMin, most)
			}
			if after.Has&tc.has != tc.has || after.Has&tc.not != 0 {
				t.Errorf("has %b, want %b and none of %b", after.Has, tc.has, tc.not)
			}
			if before.Connections != 0 || after.Connections != 0 {
				t.Errorf("connections %d and %d with no client connected, want 0 (the exporter's own left out); the server's sessions now:\n%s",
					before.Connections, after.Connections, server.Exec(t, activity[server.Kind]))
			}

			if tc.monitor {
				m := Start(t.Context(), openExporter(t, url), "exporter", 0)
				server.Exec(t, statements(server.Kind, sent))
				// The client's goodbye, which the count holds, can reach the server after the
				// client has exited: the last reading waits until its connection is gone.
				if rest, _ := readUntil(t, src, func(s Sample) bool { return s.Connections == 0 }); rest.Connections != 0 {
					t.Errorf("connections %d after the client exited, want 0", rest.Connections)
				}
				sum := m.Stop()
				if sum.Samples != 2 || sum.Kind != server.Kind || sum.Queries == nil {
					t.Fatalf("monitor summary %+v, want two readings of a %s with a query count", sum, server.Kind)
				}
				if extra := *sum.Queries - sent - tc.client; extra < tc.exporterMin || extra > tc.exporterMax {
					t.Errorf("monitor counted %d queries, want %d%+d to %d%+d", *sum.Queries, sent+tc.client,
						tc.exporterMin, sent+tc.client, tc.exporterMax)
				}
			}

			// Three clients held open by a lock the test's own connection holds, so that all
			// four are connected for as long as the reader needs to see them, however slowly
			// the clients start; the lock goes only once a reading has counted them.
			const held = 3
			lockWait, release := tc.hold(t, server)
			ended := server.Hold(t, held, lockWait)
			defer ended()
			defer release()
			if got, _ := readUntil(t, src, func(s Sample) bool { return s.Connections == held+1 }); got.Connections != held+1 {
				t.Errorf("connections never read %d while %d clients waited on the test's lock; last %d",
					held+1, held, got.Connections)
			}
		})
	}
}

// mysqlHold takes a named lock on a connection of the test's own, for dbtest's Hold to wait on;
// GET_LOCK's names are the whole server's, whichever database a session uses.
func mysqlHold(t *testing.T, s *dbtest.Server) (string, func()) {
	t.Helper()
	c := conn(t, siteDB(t, s.DSN))
	var got sql.NullInt64
	if err := c.QueryRowContext(t.Context(), "SELECT GET_LOCK('webload-hold', 0)").Scan(&got); err != nil || got.Int64 != 1 {
		t.Fatalf("taking the lock: %v, %v", got, err)
	}
	// The waiters' timeout outlasts any wait the test makes for them.
	return "SELECT GET_LOCK('webload-hold', 600)", func() {
		if _, err := c.ExecContext(context.Background(), "DO RELEASE_LOCK('webload-hold')"); err != nil {
			t.Errorf("releasing the lock: %v", err)
		}
	}
}

// postgresHold takes an advisory lock on a connection of the test's own, for dbtest's Hold to
// wait on. An advisory lock belongs to a database: the DSN's, where dbtest's psql runs too.
func postgresHold(t *testing.T, s *dbtest.Server) (string, func()) {
	t.Helper()
	c := pgConnect(t, s.DSN)
	const lock = "SELECT pg_advisory_lock(4242)"
	pgRun(t, c, pgx.QueryExecModeSimpleProtocol, lock)
	return lock, func() {
		if err := pgTry(c, "SELECT pg_advisory_unlock(4242)"); err != nil {
			t.Errorf("releasing the lock: %v", err)
		}
	}
}

// TestExporterNodePage reads a real node exporter's page: not a database, which the CLI must be
// able to tell from a failure.
func TestExporterNodePage(t *testing.T) {
	t.Parallel()
	src := openExporter(t, nodeexportertest.Start(t))
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	_, err := src.Sample(ctx)
	if !errors.Is(err, ErrNoDatabaseMetrics) {
		t.Fatalf("Sample of a node exporter: %v, want ErrNoDatabaseMetrics", err)
	}
}
