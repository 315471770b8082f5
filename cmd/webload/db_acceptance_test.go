package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/internal/dbsite"
	"github.com/webload/webload/internal/dbtest"
	"github.com/webload/webload/internal/nodeexportertest"
	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/stats"
)

// dbServers start each kind of database the acceptance tests run against.
var dbServers = []struct {
	name  string
	start func(t *testing.T) *dbtest.Server
}{
	{"mariadb", func(t *testing.T) *dbtest.Server { return dbtest.MariaDB(t) }},
	{"postgres", func(t *testing.T) *dbtest.Server {
		return dbtest.Postgres(t, dbtest.PostgresOptions{StatStatements: true})
	}},
}

// startDBSite serves a dbsite on the server's database for the test's length.
func startDBSite(t *testing.T, opts dbsite.Options) *dbsite.Site {
	t.Helper()
	site, err := dbsite.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	return site
}

// noPassword fails the test if the database's password shows in any of outputs.
func noPassword(t *testing.T, what string, outputs ...string) {
	t.Helper()
	for _, o := range outputs {
		if strings.Contains(o, dbtest.Password) {
			t.Errorf("%s: the database password shows:\n%s", what, o)
		}
	}
}

// readFile returns a file's text, failing the test if it cannot be read.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dbRun runs webload with args (the target last) and returns its result, read back from -o,
// its text report and its HTML report; the database's password must show in none, nor on
// stderr.
func dbRun(t *testing.T, args ...string) (rep stats.Report, text, html string) {
	t.Helper()
	return dbRunEnv(t, nil, args...)
}

// dbRunEnv is dbRun in the environment env.
func dbRunEnv(t *testing.T, env map[string]string, args ...string) (rep stats.Report, text, html string) {
	t.Helper()
	dir := t.TempDir()
	out, page := filepath.Join(dir, "run.json"), filepath.Join(dir, "run.html")
	args = append([]string{"--interval", "200ms", "-o", out, "--html", page}, args...)
	stdout, stderr, code := webload(t, env, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	html = readFile(t, page)
	noPassword(t, "the run", stdout, stderr, readFile(t, out), html)
	rep, err := stats.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	return rep, stdout, html
}

// wantQueries checks one database's entry: read without failure, and the statements sent
// counted exactly, per transaction too.
func wantQueries(t *testing.T, d *dbload.Summary, kind string, sent, transactions int64) {
	t.Helper()
	if d == nil {
		t.Fatal("no database in the result")
	}
	if d.Kind != kind || d.Failures != 0 || d.Samples < 2 {
		t.Errorf("database %s, %d readings, %d failed (%s), want %s", d.Kind, d.Samples, d.Failures, d.FirstError, kind)
	}
	if d.Queries == nil || *d.Queries != sent {
		t.Errorf("%s: queries %v (%s), want the %d sent", kind, d.Queries, d.QueriesSource, sent)
	}
	want := float64(sent) / float64(transactions)
	if q := d.QueriesPerTransaction; q == nil || *q != want {
		t.Errorf("%s: queries per transaction %v, want %g", kind, q, want)
	}
}

// A run with --db against each real database counts exactly the statements the site's pages
// sent, 100 pages of K statements, and reports them per transaction, in the JSON and in the
// text's Database block; with both databases in one run, each has its own entry, in --db
// order. The password shows in no output.
func TestDBQueriesPerRun(t *testing.T) {
	t.Parallel()
	type stack struct {
		srv     *dbtest.Server
		site    *dbsite.Site
		perItem int64
	}
	var stacks []stack
	for i, db := range dbServers {
		srv := db.start(t)
		perItem := 2 + i // 2 on MariaDB, 3 on PostgreSQL: each count is the database's own
		stacks = append(stacks, stack{srv, startDBSite(t, dbsite.Options{DSN: srv.DSN, PerItem: perItem}), int64(perItem)})
	}
	for _, s := range stacks {
		t.Run(s.srv.Kind, func(t *testing.T) {
			before := s.site.Statements()
			rep, text, html := dbRun(t, "-c", "4", "-r", "25", "--db", s.srv.DSN, s.site.URL()+"/item?id=3")
			if sent := s.site.Statements() - before; sent != 100*s.perItem {
				t.Fatalf("the site ran %d statements, want %d", sent, 100*s.perItem)
			}
			wantQueries(t, rep.Database, s.srv.Kind, 100*s.perItem, 100)
			for _, want := range []string{"Database:", "DB queries:", "queries per transaction", s.srv.Kind} {
				if !strings.Contains(text, want) {
					t.Errorf("the text report has no %q:\n%s", want, text)
				}
			}
			// The HTML report's timeline carries the queries/s beside the request rate.
			if !strings.Contains(html, `"queries":`) {
				t.Errorf("the HTML report's timeline has no queries")
			}
		})
	}
	t.Run("both in one run", func(t *testing.T) {
		// Each user goes down the list in turn: 20 pages of each site.
		list := filepath.Join(t.TempDir(), "urls.txt")
		var lines string
		args := []string{"-c", "2", "-r", "20", "-f", list}
		for _, s := range stacks {
			lines += s.site.URL() + "/item?id=1\n"
			args = append(args, "--db", s.srv.DSN)
		}
		if err := os.WriteFile(list, []byte(lines), 0o644); err != nil {
			t.Fatal(err)
		}
		rep, text, _ := dbRun(t, args...)
		dbs := rep.Databases
		if rep.Database != nil || len(dbs) != len(stacks) {
			t.Fatalf("database %v and %d databases, want %d databases", rep.Database, len(dbs), len(stacks))
		}
		for i, s := range stacks {
			wantQueries(t, &dbs[i], s.srv.Kind, 20*s.perItem, 40)
			if title := fmt.Sprintf("Database %d of %d:", i+1, len(stacks)); !strings.Contains(text, title) {
				t.Errorf("the text report has no %q:\n%s", title, text)
			}
		}
	})
}

// A --db nobody answers at warns once, on stderr, before the run, with the password hidden
// (once for a --repeat series too); the run succeeds and its JSON keeps the database's entry
// with the failed readings and why. --show-config shows the DSN with its password hidden too.
func TestDBDeadDSNWarns(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	addr := closedAddr(t)
	tests := []struct {
		name, dsn string
		repeat    int
	}{
		{"mysql", "mysql://webload:" + dbtest.Password + "@" + addr + "/", 1},
		{"mysql, a series of two runs", "mysql://webload:" + dbtest.Password + "@" + addr + "/", 2},
		{"postgres", "postgres://webload:" + dbtest.Password + "@" + addr + "/webload?sslmode=disable", 1},
		// Trying TLS and then plain, pgx's error has a line per try.
		{"postgres, TLS preferred", "postgres://webload:" + dbtest.Password + "@" + addr + "/webload", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "run.json")
			stdout, stderr, code := webload(t, nil, "-c", "2", "-r", "5", "--repeat", strconv.Itoa(tc.repeat), "--repeat-pause", "0",
				"--db", tc.dsn, "-o", out, site.URL+"/page")
			if code != 0 {
				t.Fatalf("exit %d, want 0\n%s%s", code, stdout, stderr)
			}
			shown := strings.Replace(tc.dsn, dbtest.Password, "xxxxx", 1)
			warning := "webload: warning: --db " + shown + ": no reading ("
			var lines []string
			for _, l := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(l, warning) && strings.HasSuffix(l, "); the run goes on without its figures") {
					lines = append(lines, l)
				}
			}
			if n := strings.Count(stderr, "webload: warning:"); n != 1 || len(lines) != 1 {
				t.Errorf("want one warning, in one line, %q…; got %d:\n%s", warning, n, stderr)
			}
			noPassword(t, "the run", stdout, stderr, readFile(t, out))
			rep, err := stats.ReadJSON(out)
			if err != nil {
				t.Fatal(err)
			}
			if want := int64(10 * tc.repeat); rep.Transactions != want {
				t.Errorf("%d transactions, want %d", rep.Transactions, want)
			}
			d := rep.Database
			if d == nil {
				t.Fatalf("no database in the JSON:\n%s", readFile(t, out))
			}
			if d.Source != shown || d.Samples != 0 || d.Failures < 2*tc.repeat || d.FirstError == "" || d.Queries != nil {
				t.Errorf("database %+v, want %s with failed readings and no figures", *d, shown)
			}
			stdout, stderr, code = webload(t, nil, "--config", "--db", tc.dsn, site.URL+"/page")
			if code != 0 || !strings.Contains(stdout, "db:") || !strings.Contains(stdout, shown) {
				t.Errorf("--config: exit %d, want the line db: %s\n%s%s", code, shown, stdout, stderr)
			}
			noPassword(t, "--config", stdout, stderr)
		})
	}
}

// Two stacks on the same database, the old one's item page in two statements, the new one's
// in the N+1 shape of lazy loading (1+5): compare shows both Q/T side by side, and a limit on
// q/t's regression breaks, naming it.
func TestDBCompareTwoStacks(t *testing.T) {
	t.Parallel()
	srv := dbtest.MariaDB(t)
	dir := t.TempDir()
	run := func(label string, opts dbsite.Options) string {
		t.Helper()
		opts.DSN = srv.DSN
		site, err := dbsite.Start(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		defer site.Close()
		out := filepath.Join(dir, label+".json")
		stdout, stderr, code := webload(t, nil, "-q", "-c", "4", "-r", "25", "--label", label,
			"--db", srv.DSN, "-o", out, site.URL()+"/item?id=2")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", label, code, stdout, stderr)
		}
		noPassword(t, label, stdout, stderr, readFile(t, out))
		return out
	}
	old := run("old", dbsite.Options{PerItem: 2})
	nw := run("new", dbsite.Options{NPlusOne: true, Parts: 5})

	stdout, stderr, code := webload(t, nil, "compare", old, nw)
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s%s", code, stdout, stderr)
	}
	noPassword(t, "compare", stdout, stderr)
	var header, oldRow, newRow string
	for _, line := range strings.Split(stdout, "\n") {
		switch f := strings.Fields(line); {
		case strings.Contains(line, "Q/T"):
			header = line
		case len(f) > 0 && f[0] == "old" && oldRow == "":
			oldRow = line
		case len(f) > 0 && f[0] == "new" && newRow == "": // the table's, not the content's
			newRow = line
		}
	}
	if header == "" || !strings.Contains(header, "QPS") || !strings.Contains(header, "Slow") {
		t.Fatalf("no QPS, Q/T and Slow columns:\n%s", stdout)
	}
	// Q/T comes before Slow, the last column: the old row ends "2.00  0", the new one's is
	// three times as many, +200%.
	if !regexp.MustCompile(`\s2\.00\s+0$`).MatchString(strings.TrimSpace(oldRow)) {
		t.Errorf("old row %q: want Q/T 2.00 and Slow 0 at its end", oldRow)
	}
	if !strings.Contains(newRow, " 6.00 +200.0%") {
		t.Errorf("new row %q: want Q/T 6.00 +200.0%%", newRow)
	}

	stdout, stderr, code = webload(t, nil, "compare", "--max-regression", "q/t=10%", old, nw)
	if code != 1 || !strings.Contains(stdout+stderr, "new Q/T 6.00 vs 2.00 (+200.0%, allowed 10.0% worse): FAILED") {
		t.Errorf("--max-regression q/t=10%%: exit %d, want 1 naming q/t\n%s%s", code, stdout, stderr)
	}
}

// --server-metrics reads the database's figures from a mysqld_exporter page, which has no
// node figures: the result has the database and no server entry full of failed readings. A
// node exporter's page, which has no database figures, gives the server's load and no
// database.
func TestDBServerMetricsExporter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		page   func(t *testing.T) (url string, site *dbsite.Site)
		server bool
		kind   string
	}{
		{"mysqld_exporter", func(t *testing.T) (string, *dbsite.Site) {
			srv := dbtest.MariaDB(t)
			return dbtest.MySQLExporter(t, srv), startDBSite(t, dbsite.Options{DSN: srv.DSN, PerItem: 2})
		}, false, "mysql"},
		{"postgres_exporter", func(t *testing.T) (string, *dbsite.Site) {
			srv := dbtest.Postgres(t, dbtest.PostgresOptions{})
			return dbtest.PostgresExporter(t, srv), startDBSite(t, dbsite.Options{DSN: srv.DSN, PerItem: 2})
		}, false, "postgres"},
		{"node exporter", func(t *testing.T) (string, *dbsite.Site) {
			return nodeexportertest.Start(t), nil
		}, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			upstream, site := tc.page(t)
			// Count the page's scrapes on their way.
			var scrapes atomic.Int64
			u, err := url.Parse(upstream)
			if err != nil {
				t.Fatal(err)
			}
			proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				scrapes.Add(1)
				proxy.ServeHTTP(w, r)
			}))
			t.Cleanup(front.Close)
			page := front.URL + u.RequestURI()
			target := newCounter(t, 0, 200).URL + "/page"
			if site != nil {
				target = site.URL() + "/item?id=1"
			}
			out := filepath.Join(t.TempDir(), "run.json")
			stdout, stderr, code := webload(t, nil, "-q", "-c", "4", "-r", "25", "--interval", "200ms",
				"--server-metrics", page, "-o", out, target)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			if strings.Contains(stderr, "warning") {
				t.Errorf("a warning for an exporter's page:\n%s", stderr)
			}
			rep, err := stats.ReadJSON(out)
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Server != nil; got != tc.server {
				t.Errorf("server entry %+v, want one: %v", rep.Server, tc.server)
			}
			if rep.Server != nil && (rep.Server.Samples < 2 || rep.Server.Failures != 0) {
				t.Errorf("server %+v, want its readings all taken", *rep.Server)
			}
			d := rep.Database
			if tc.kind == "" {
				if d != nil || len(rep.Databases) > 0 {
					t.Errorf("a database from a node exporter's page: %+v", d)
				}
				// One look tells the page has no database's figures: it is not read for
				// them again, adding to the server's load.
				if want := int64(rep.Server.Samples+rep.Server.Failures) + 1; !scrapedAbout(scrapes.Load(), want) {
					t.Errorf("the page was scraped %d times, want %d: the server's readings and one look for a database",
						scrapes.Load(), want)
				}
				return
			}
			if d == nil || d.Kind != tc.kind || d.Samples < 2 || d.Failures != 0 || d.Queries == nil {
				t.Fatalf("database %+v, want %s read from the page", d, tc.kind)
			}
			// Without node figures on the page, the server's load is not read from it: one look
			// at start, then the database's readings alone.
			if want := int64(d.Samples+d.Failures) + 1; !scrapedAbout(scrapes.Load(), want) {
				t.Errorf("the page was scraped %d times, want %d: the database's readings and one look for the server's load",
					scrapes.Load(), want)
			}
			// The reader leaves out the exporter's statements by its count of scrapes, 9 each;
			// a scrape's goodbye may land after the reading (db-exporter's own tests allow 6),
			// and a scrape the run's end abandoned may have stopped short of its 9 while the
			// exporter counted it. PostgreSQL publishes a session's transactions up to a
			// second late, or later when idle: its exporter's count is only checked to be
			// there.
			slack := 6 + 9*(scrapes.Load()-int64(d.Samples+d.Failures)-1)
			if sent := site.Statements(); tc.kind == "mysql" && (*d.Queries < sent-slack || *d.Queries > sent+slack) {
				t.Errorf("%d queries, want the %d the site sent, give or take %d", *d.Queries, sent, slack)
			}
			t.Logf("%d queries from %s for the site's %d statements", *d.Queries, d.QueriesSource, site.Statements())
		})
	}
}

// Ctrl-C stops a run whose database never answers, as it stops any other: the readings are
// bounded, so the partial report is written and the database's entry says what failed.
func TestDBSignalWithASilentDatabase(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	site := slowSite(t)
	out := filepath.Join(t.TempDir(), "partial.json")
	// A MySQL client waits for the server to speak first, and an HTTP server for the client:
	// a web server's port is a database that accepts and never answers.
	silent := strings.TrimPrefix(newCounter(t, 0, 200).URL, "http://")
	dsn := "mysql://webload:" + dbtest.Password + "@" + silent + "/"
	cmd := exec.Command(os.Args[0], "-c", "2", "-t", "1H", "--timeout", "5", "--db", dsn, "-o", out, site.url)
	stdout, stderr := startWebload(t, cmd)
	site.waitForHits(t, 4)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	wantPartialReport(t, cmd, out, 130, stdout, stderr)
	noPassword(t, "the run", stdout.String(), stderr.String(), readFile(t, out))
	rep, err := stats.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := rep.Database; d == nil || d.Samples != 0 || d.Failures < 2 || d.FirstError == "" {
		t.Errorf("database %+v, want the before and after readings failed", d)
	}
}

// scrapedAbout tells whether an exporter's page was scraped want times, or once more: a
// periodic reading in flight when the run ends is abandoned, neither a reading nor a failure,
// although its request reached the page.
func scrapedAbout(got, want int64) bool {
	return got == want || got == want+1
}

// --db takes an exporter's page as well as a DSN, for a database the load machine cannot reach:
// a mysqld_exporter page gives the database's figures, its own statements left out; a page
// without database metrics (a node exporter's) is a warning, and the run goes on.
func TestDBExporterAsDSN(t *testing.T) {
	t.Parallel()
	t.Run("mysqld_exporter", func(t *testing.T) {
		t.Parallel()
		srv := dbtest.MariaDB(t)
		page := dbtest.MySQLExporter(t, srv)
		site := startDBSite(t, dbsite.Options{DSN: srv.DSN, PerItem: 2})
		rep, text, _ := dbRun(t, "-c", "4", "-r", "25", "--db", page, site.URL()+"/item?id=3")
		d := rep.Database
		if d == nil || d.Kind != "mysql" || d.Samples < 2 || d.Failures != 0 || d.Queries == nil {
			t.Fatalf("database %+v, want MariaDB read from its exporter", d)
		}
		if !strings.HasPrefix(d.QueriesSource, "mysql_global_status_questions") || d.Source != page {
			t.Errorf("queries from %q, source %q, want the exporter's questions from %s", d.QueriesSource, d.Source, page)
		}
		// The exporter's own 9 statements a scrape are left out; a scrape's goodbye may land
		// after the reading, and a scrape the run's end abandoned may stop short of its 9.
		if sent := site.Statements(); *d.Queries < sent-15 || *d.Queries > sent+15 {
			t.Errorf("%d queries, want the %d the site sent, give or take 15", *d.Queries, sent)
		}
		if !strings.Contains(text, "DB queries:") {
			t.Errorf("no Database block:\n%s", text)
		}
	})
	t.Run("node exporter", func(t *testing.T) {
		t.Parallel()
		site := newCounter(t, 0, 200)
		page := nodeexportertest.Start(t)
		stdout, stderr, code := webload(t, nil, "-c", "1", "-r", "2", "--db", page, site.URL+"/")
		if code != 0 {
			t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
		}
		if !strings.Contains(stderr, "webload: warning: --db "+page+": no reading (") || !strings.Contains(stderr, "the run goes on") {
			t.Errorf("stderr does not warn of the page without database figures:\n%s", stderr)
		}
	})
}
