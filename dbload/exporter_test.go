package dbload

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"

	"github.com/webload/webload/internal/exposition"
)

// The pages captured from the real exporters by TestExporterRealDatabases -capture-exporters.
const (
	mariadbPage  = "mysqld_exporter-0.14-mariadb-10.11.prom"
	postgresPage = "postgres_exporter-0.11-postgresql-15.prom"
)

func exporterPage(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "exporter", name))
	if err != nil {
		t.Fatalf("reading fixture: %v", err)
	}
	return string(b)
}

// setMetric gives every series of family name the value v, as a server with those counts
// would have published.
func setMetric(page, name, v string) string {
	re := regexp.MustCompile(`(?m)^(` + regexp.QuoteMeta(name) + `(\{[^}]*\})?) \S+$`)
	return re.ReplaceAllString(page, "${1} "+v)
}

// dropMetric removes family name, as an exporter or server that does not publish it.
func dropMetric(page, name string) string {
	re := regexp.MustCompile(`(?m)^(# (HELP|TYPE) )?` + regexp.QuoteMeta(name) + `[ {].*\n`)
	return re.ReplaceAllString(page, "")
}

// mysql8Page is what mysqld_exporter 0.14 publishes of a MySQL 8 server, trimmed to the
// families read: InnoDB's rows read come as innodb_row_ops_total, and there is no
// Innodb_deadlocks.
const mysql8Page = `# TYPE mysql_up gauge
mysql_up 1
mysql_global_status_questions 5000
mysql_global_status_threads_connected 12
mysql_global_status_slow_queries 2
# TYPE mysql_global_status_innodb_row_ops_total untyped
mysql_global_status_innodb_row_ops_total{operation="deleted"} 1
mysql_global_status_innodb_row_ops_total{operation="read"} 777
mysql_global_status_innodb_row_ops_total{operation="updated"} 3
mysql_global_status_innodb_buffer_pool_read_requests 10000
mysql_global_status_innodb_buffer_pool_reads 100
mysql_global_status_innodb_row_lock_waits 4
mysql_global_status_created_tmp_disk_tables 6
mysql_version_info{innodb_version="8.0.36",version="8.0.36",version_comment="MySQL Community Server - GPL"} 1
mysqld_exporter_build_info{version="0.14.0"} 1
mysql_exporter_scrapes_total 10
`

// postgresOldPage is an older postgres_exporter's page, with neither pg_static nor the
// collectors' own connection, in front of PostgreSQL 9.6.
const postgresOldPage = `pg_up 1
pg_settings_server_version_num{server="db:5432"} 90624
pg_stat_database_xact_commit{datid="1",datname="shop",server="db:5432"} 300
pg_stat_database_xact_commit{datid="2",datname="postgres",server="db:5432"} 20
pg_stat_database_xact_rollback{datid="1",datname="shop",server="db:5432"} 5
pg_stat_database_xact_rollback{datid="2",datname="postgres",server="db:5432"} 0
pg_stat_database_numbackends{datid="1",datname="shop",server="db:5432"} 7
pg_stat_database_numbackends{datid="2",datname="postgres",server="db:5432"} 1
`

func TestExporterMapping(t *testing.T) {
	t.Parallel()
	mariadb := exporterPage(t, mariadbPage)
	postgres := exporterPage(t, postgresPage)
	mysqlHas := HasSlowQueries | HasRowsRead | HasBuffer | HasLockWaits | HasDeadlocks | HasTempDiskTables
	pgHas := HasRowsRead | HasBuffer | HasDeadlocks | HasTempBytes
	const pgSource = "pg_stat_database_xact_commit+pg_stat_database_xact_rollback"
	tests := []struct {
		name    string
		page    string
		want    Sample
		wantErr string
		noDB    bool
	}{
		{
			// 244 Questions less 9 for each of the exporter's 4 scrapes; Threads_connected
			// less the exporter's own.
			name: "mariadb as captured", page: mariadb,
			want: Sample{Kind: KindMySQL, Version: "10.11.19-MariaDB-0+deb12u1",
				QueriesSource: "mysql_global_status_questions-9*mysql_exporter_scrapes_total", Queries: 208,
				Has: mysqlHas, RowsRead: 9, BufferReads: 914, BufferMisses: 165},
		},
		{
			name: "mariadb under load",
			page: setMetric(setMetric(setMetric(setMetric(setMetric(mariadb,
				"mysql_global_status_slow_queries", "7"),
				"mysql_global_status_innodb_deadlocks", "3"),
				"mysql_global_status_innodb_row_lock_waits", "5"),
				"mysql_global_status_created_tmp_disk_tables", "11"),
				"mysql_global_status_threads_connected", "4"),
			want: Sample{Kind: KindMySQL, Version: "10.11.19-MariaDB-0+deb12u1",
				QueriesSource: "mysql_global_status_questions-9*mysql_exporter_scrapes_total", Queries: 208,
				Has: mysqlHas, SlowQueries: 7, RowsRead: 9, BufferReads: 914, BufferMisses: 165,
				LockWaits: 5, Deadlocks: 3, TempDiskTables: 11, Connections: 3},
		},
		{
			// An exporter build whose statements per scrape were never measured: its own
			// statements stay in the count.
			name: "mariadb behind another exporter build",
			page: strings.Replace(mariadb, `version="0.14.0"`, `version="0.15.1"`, 1),
			want: Sample{Kind: KindMySQL, Version: "10.11.19-MariaDB-0+deb12u1",
				QueriesSource: "mysql_global_status_questions", Queries: 244,
				Has: mysqlHas, RowsRead: 9, BufferReads: 914, BufferMisses: 165},
		},
		{
			name: "mariadb with a collector turned off",
			page: dropMetric(mariadb, "mysql_exporter_collector_duration_seconds{collector=\"collect.slave_status\"}"),
			want: Sample{Kind: KindMySQL, Version: "10.11.19-MariaDB-0+deb12u1",
				QueriesSource: "mysql_global_status_questions", Queries: 244,
				Has: mysqlHas, RowsRead: 9, BufferReads: 914, BufferMisses: 165},
		},
		{
			name: "mysql 8",
			page: mysql8Page,
			want: Sample{Kind: KindMySQL, Version: "8.0.36", QueriesSource: "mysql_global_status_questions",
				Queries: 5000, Has: HasSlowQueries | HasRowsRead | HasBuffer | HasLockWaits | HasTempDiskTables,
				SlowQueries: 2, RowsRead: 777, BufferReads: 10000, BufferMisses: 100, LockWaits: 4,
				TempDiskTables: 6, Connections: 11},
		},
		{
			name: "mysql without optional counters",
			page: "mysql_global_status_questions 10\nmysql_global_status_threads_connected 1\n",
			want: Sample{Kind: KindMySQL, QueriesSource: "mysql_global_status_questions", Queries: 10},
		},
		{
			name: "mysqld_exporter that cannot reach the server", page: "# TYPE mysql_up gauge\nmysql_up 0\n",
			wantErr: "mysql_up is 0",
		},
		{
			name: "mysql without questions", page: dropMetric(mariadb, "mysql_global_status_questions"),
			wantErr: "mysql_global_status_questions missing",
		},
		{
			name: "mysql without threads", page: dropMetric(mariadb, "mysql_global_status_threads_connected"),
			wantErr: "mysql_global_status_threads_connected missing",
		},
		{
			name: "questions not a number", page: setMetric(mariadb, "mysql_global_status_questions", "NaN"),
			wantErr: "mysql_global_status_questions missing from exposition, or not a number",
		},
		{
			// Four databases summed; numbackends less the exporter's two connections.
			name: "postgres as captured", page: postgres,
			want: Sample{Kind: KindPostgres, Version: "15.18 (Debian 15.18-0+deb12u1)",
				QueriesSource: pgSource, Queries: 1085, Has: pgHas, RowsRead: 72984 + 26457,
				BufferReads: 88778 + 1182, BufferMisses: 1182},
		},
		{
			name: "postgres under load",
			page: setMetric(setMetric(setMetric(setMetric(postgres,
				"pg_stat_database_xact_rollback", "2"),
				"pg_stat_database_deadlocks", "1"),
				"pg_stat_database_temp_bytes", "4096"),
				"pg_stat_database_numbackends", "3"),
			// five series (four databases and the shared row) of each
			want: Sample{Kind: KindPostgres, Version: "15.18 (Debian 15.18-0+deb12u1)",
				QueriesSource: pgSource, Queries: 1085 + 10, Has: pgHas, RowsRead: 72984 + 26457,
				BufferReads: 88778 + 1182, BufferMisses: 1182, Deadlocks: 5, TempBytes: 5 * 4096,
				Connections: 15 - 2},
		},
		{
			name: "postgres with pg_stat_statements from a queries.yaml",
			page: postgres + "pg_stat_statements_calls{datname=\"webload\",queryid=\"1\",rolname=\"web\"} 40\n" +
				"pg_stat_statements_calls{datname=\"webload\",queryid=\"2\",rolname=\"web\"} 2\n",
			want: Sample{Kind: KindPostgres, Version: "15.18 (Debian 15.18-0+deb12u1)",
				QueriesSource: "pg_stat_statements_calls", Queries: 42, Has: pgHas, RowsRead: 72984 + 26457,
				BufferReads: 88778 + 1182, BufferMisses: 1182},
		},
		{
			name: "postgres 9.6 behind an older exporter", page: postgresOldPage,
			want: Sample{Kind: KindPostgres, Version: "9.6.24", QueriesSource: pgSource, Queries: 325,
				Connections: 7},
		},
		{
			name: "postgres version from short_version",
			page: strings.Replace(postgres, `version="PostgreSQL 15.18`, `other="PostgreSQL 15.18`, 1),
			want: Sample{Kind: KindPostgres, Version: "15.18.0", QueriesSource: pgSource, Queries: 1085,
				Has: pgHas, RowsRead: 72984 + 26457, BufferReads: 88778 + 1182, BufferMisses: 1182},
		},
		{
			name: "postgres_exporter that cannot reach the server", page: "pg_up 0\n",
			wantErr: "pg_up is 0",
		},
		{
			name:    "postgres_exporter of two servers",
			page:    postgresOldPage + strings.ReplaceAll(postgresOldPage[strings.Index(postgresOldPage, "pg_stat"):], "db:5432", "db2:5432"),
			wantErr: "reads 2 servers",
		},
		{
			name: "postgres without rollbacks", page: dropMetric(postgres, "pg_stat_database_xact_rollback"),
			wantErr: "pg_stat_database_xact_rollback missing",
		},
		{
			name: "node exporter",
			page: "# TYPE node_load1 gauge\nnode_load1 0.5\nnode_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 10\n",
			noDB: true,
		},
		{name: "empty page", page: "", noDB: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fams, err := exposition.Decode([]byte(tc.page), expfmt.NewFormat(expfmt.TypeTextPlain))
			if err != nil {
				t.Fatalf("decoding the page: %v", err)
			}
			got, err := sampleFromExposition(fams)
			switch {
			case tc.noDB:
				if !errors.Is(err, ErrNoDatabaseMetrics) {
					t.Fatalf("error %v, want ErrNoDatabaseMetrics", err)
				}
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || errors.Is(err, ErrNoDatabaseMetrics) {
					t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
				}
			case err != nil:
				t.Fatalf("sampleFromExposition: %v", err)
			case got != tc.want:
				t.Errorf("Sample =\n %+v\nwant\n %+v", got, tc.want)
			}
		})
	}
}

// TestExporterScrape reads pages over HTTP: what a reading says of the page and of failures,
// and that an exporter URL's password reaches no error.
func TestExporterScrape(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-exporter"
	mariadb := exporterPage(t, mariadbPage)
	tests := []struct {
		name      string
		status    int
		body      string
		dead      bool // nothing listens at the URL
		wantErr   []string
		wantNoDB  bool
		wantKind  string
		wantCount int64
	}{
		{name: "mariadb page", body: mariadb, wantKind: KindMySQL, wantCount: 208},
		{name: "server error", status: http.StatusInternalServerError, body: mariadb,
			wantErr: []string{"500 Internal Server Error"}},
		{name: "wrong credentials", status: http.StatusUnauthorized, body: "Unauthorized\n",
			wantErr: []string{"401 Unauthorized"}},
		{name: "not an exposition", body: "<html><body>Welcome to nginx!</body></html>\n",
			wantErr: []string{"parsing exposition"}},
		{name: "node exporter", body: "node_load1 0.5\n", wantNoDB: true},
		{name: "nothing listening", dead: true, wantErr: []string{"connect"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A channel, not a variable: the handler runs on the server's goroutine.
			accept := make(chan string, 1)
			// httptest listens on 127.0.0.1.
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				select {
				case accept <- r.Header.Get("Accept"):
				default:
				}
				w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
				if tc.status != 0 {
					w.WriteHeader(tc.status)
				}
				_, _ = w.Write([]byte(tc.body))
			}))
			t.Cleanup(srv.Close)
			url := strings.Replace(srv.URL, "http://", "http://monitor:"+secret+"@", 1) + "/metrics"
			if tc.dead {
				srv.Close()
			}
			src := openExporter(t, url)
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			before := time.Now()
			got, err := src.Sample(ctx)
			if err != nil && strings.Contains(err.Error(), secret) {
				t.Errorf("error shows the password: %v", err)
			}
			switch {
			case tc.wantNoDB:
				if !errors.Is(err, ErrNoDatabaseMetrics) {
					t.Fatalf("error %v, want ErrNoDatabaseMetrics", err)
				}
			case tc.wantErr != nil:
				if err == nil {
					t.Fatal("Sample succeeded, want an error")
				}
				for _, want := range append(tc.wantErr, "scraping http://monitor:xxxxx@127.0.0.1:") {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not say %q", err, want)
					}
				}
			case err != nil:
				t.Fatalf("Sample: %v", err)
			default:
				if got.Kind != tc.wantKind || got.Queries != tc.wantCount {
					t.Errorf("kind %q, queries %d; want %q, %d", got.Kind, got.Queries, tc.wantKind, tc.wantCount)
				}
				if got.At.Before(before) || got.At.After(time.Now()) {
					t.Errorf("At = %v, want the time of the scrape", got.At)
				}
				if a := <-accept; !strings.HasPrefix(a, "text/plain") {
					t.Errorf("Accept = %q, want the text format", a)
				}
			}
		})
	}
}

// trimPage keeps the lines of a page whose family the mapping reads, comments and two series
// of each.
func trimPage(page string) string {
	var kept strings.Builder
	series := map[string]int{}
	for line := range strings.Lines(page) {
		name := strings.TrimPrefix(strings.TrimPrefix(line, "# HELP "), "# TYPE ")
		if family, _, _ := strings.Cut(name, "{"); !strings.HasPrefix(line, "#") {
			if series[family]++; series[family] > 2 {
				continue
			}
		}
		for _, prefix := range []string{"mysql_up", "mysql_version_info", "mysql_exporter_scrapes_total",
			"mysql_exporter_collector_duration_seconds", "mysqld_exporter_build_info",
			"mysql_global_status_questions", "mysql_global_status_threads_connected",
			"mysql_global_status_slow_queries", "mysql_global_status_rows_read",
			"mysql_global_status_innodb_row_lock_waits", "mysql_global_status_innodb_deadlocks",
			"mysql_global_status_innodb_buffer_pool_read", "mysql_global_status_created_tmp_disk_tables",
			"pg_up", "pg_static", "pg_settings_server_version_num", "pg_scrape_collector_success",
			"pg_stat_database_xact_", "pg_stat_database_numbackends", "pg_stat_database_tup_returned",
			"pg_stat_database_tup_fetched", "pg_stat_database_blks_", "pg_stat_database_deadlocks",
			"pg_stat_database_temp_bytes"} {
			if strings.HasPrefix(name, prefix) {
				kept.WriteString(line)
				break
			}
		}
	}
	return kept.String()
}

// FuzzExporterSample: no exposition text makes the mapping panic, and a reading it accepts is
// of a known kind with no negative connections.
func FuzzExporterSample(f *testing.F) {
	// The captured pages, trimmed to two series of each family the mapping reads: the
	// fuzzer minimizes every new input it finds interesting, which takes it minutes on a
	// whole page.
	for _, name := range []string{mariadbPage, postgresPage} {
		f.Add([]byte(trimPage(exporterPage(f, name))))
	}
	f.Add([]byte(mysql8Page))
	f.Add([]byte(postgresOldPage))
	f.Fuzz(func(t *testing.T, page []byte) {
		if len(page) > 64<<10 {
			return
		}
		fams, err := exposition.Decode(page, expfmt.NewFormat(expfmt.TypeTextPlain))
		if err != nil {
			return
		}
		s, err := sampleFromExposition(fams)
		if err != nil {
			return
		}
		if s.Kind != KindMySQL && s.Kind != KindPostgres {
			t.Errorf("kind %q", s.Kind)
		}
		if s.Connections < 0 {
			t.Errorf("connections %d", s.Connections)
		}
	})
}

// BenchmarkExporterSample decodes and maps a captured page, what every reading costs.
func BenchmarkExporterSample(b *testing.B) {
	for _, name := range []string{mariadbPage, postgresPage} {
		page := []byte(exporterPage(b, name))
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				fams, err := exposition.Decode(page, expfmt.NewFormat(expfmt.TypeTextPlain))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := sampleFromExposition(fams); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
