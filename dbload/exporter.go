package dbload

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/webload/webload/internal/exposition"
)

// ErrNoDatabaseMetrics is the error of a reading from a page that has neither mysqld_exporter's
// nor postgres_exporter's metrics. The CLI tries the database reader on every --server-metrics
// page, most of which are node exporters': there, this error means "not a database", not a
// failure.
var ErrNoDatabaseMetrics = errors.New("no mysqld_exporter or postgres_exporter metrics on the page")

// exporterScrapeTimeout bounds one scrape: a hung exporter costs one failed reading, never a
// stuck monitor.
const exporterScrapeTimeout = 5 * time.Second

// exporterSource reads a database through a Prometheus exporter in front of it, for sites
// whose database the load machine cannot reach. The page says which kind it is.
type exporterSource struct {
	target Target
	client *http.Client
}

func newExporter(t Target) (Source, error) {
	return &exporterSource{target: t, client: &http.Client{Timeout: exporterScrapeTimeout}}, nil
}

// Sample scrapes the exporter once; the exporter reads the database while it answers.
func (s *exporterSource) Sample(ctx context.Context) (Sample, error) {
	fams, err := exposition.Fetch(ctx, s.client, s.target.URL.String())
	if err != nil {
		return Sample{}, fmt.Errorf("scraping %s: %w", s.target, err)
	}
	at := time.Now()
	smp, err := sampleFromExposition(fams)
	if err != nil {
		return Sample{}, fmt.Errorf("scraping %s: %w", s.target, err)
	}
	smp.At = at
	return smp, nil
}

// Close releases the idle connection to the exporter.
func (s *exporterSource) Close() error {
	s.client.CloseIdleConnections()
	return nil
}

// sampleFromExposition builds a Sample from an exporter's page, whose families decide the kind:
// mysql_up or Questions for mysqld_exporter, pg_up or xact_commit for postgres_exporter.
func sampleFromExposition(fams exposition.Families) (Sample, error) {
	switch {
	case fams[metricMySQLUp] != nil || fams[metricMySQLQuestions] != nil:
		return mysqldExporterSample(fams)
	case fams[metricPgUp] != nil || fams[metricPgXactCommit] != nil:
		return postgresExporterSample(fams)
	}
	return Sample{}, ErrNoDatabaseMetrics
}

// The mysqld_exporter metrics a Sample is read from (0.14 names SHOW GLOBAL STATUS's
// counters mysql_global_status_<lower-case name>).
const (
	metricMySQLUp          = "mysql_up"
	metricMySQLQuestions   = "mysql_global_status_questions"
	metricMySQLThreads     = "mysql_global_status_threads_connected"
	metricMySQLScrapes     = "mysql_exporter_scrapes_total"
	metricMySQLCollectors  = "mysql_exporter_collector_duration_seconds"
	metricMySQLExporter    = "mysqld_exporter_build_info"
	metricMySQLVersionInfo = "mysql_version_info"
)

// mysqldExporterSample maps mysqld_exporter's page. Questions and Threads_connected are
// required; the rest are read when the server and exporter publish them.
func mysqldExporterSample(f exposition.Families) (Sample, error) {
	if up, ok := metricSum(f, metricMySQLUp, nil); ok && up == 0 {
		return Sample{}, errors.New("mysqld_exporter cannot read the database (mysql_up is 0)")
	}
	need, err := metricNeed(f, metricMySQLQuestions, metricMySQLThreads)
	if err != nil {
		return Sample{}, err
	}
	questions, threads := need[0], need[1]
	s := Sample{
		Kind:          KindMySQL,
		Version:       metricLabel(f, metricMySQLVersionInfo, "version"),
		QueriesSource: metricMySQLQuestions,
		Queries:       questions,
		// The exporter reads through a connection of its own, open while it answers.
		Connections: max(0, threads-1),
	}
	if per := mysqldExporterStatements(f); per > 0 {
		if scrapes, ok := metricSum(f, metricMySQLScrapes, nil); ok {
			s.Queries -= per * scrapes
			s.QueriesSource = fmt.Sprintf("%s-%d*%s", metricMySQLQuestions, per, metricMySQLScrapes)
		}
	}
	rowsRead, ok := metricSum(f, "mysql_global_status_innodb_row_ops_total", func(m *dto.Metric) bool {
		return exposition.Label(m, "operation") == "read"
	})
	for _, name := range []string{"mysql_global_status_innodb_rows_read", "mysql_global_status_rows_read"} {
		if !ok {
			// Older exporters keep InnoDB's own counter; MariaDB 10.11 publishes only
			// Rows_read, rows read by every engine.
			rowsRead, ok = metricSum(f, name, nil)
		}
	}
	sampleSet(&s, HasRowsRead, &s.RowsRead, rowsRead, ok)
	sampleSetMetric(&s, f, HasSlowQueries, &s.SlowQueries, "mysql_global_status_slow_queries")
	sampleSetMetric(&s, f, HasLockWaits, &s.LockWaits, "mysql_global_status_innodb_row_lock_waits")
	sampleSetMetric(&s, f, HasDeadlocks, &s.Deadlocks, "mysql_global_status_innodb_deadlocks")
	sampleSetMetric(&s, f, HasTempDiskTables, &s.TempDiskTables, "mysql_global_status_created_tmp_disk_tables")
	requests, okRequests := metricSum(f, "mysql_global_status_innodb_buffer_pool_read_requests", nil)
	misses, okMisses := metricSum(f, "mysql_global_status_innodb_buffer_pool_reads", nil)
	if okRequests && okMisses {
		s.BufferReads, s.BufferMisses = requests, misses
		s.Has |= HasBuffer
	}
	return s, nil
}

// mysqldExporterStatements is how many Questions one scrape of the exporter adds, for the
// exporter builds and collector sets where that was measured and found fixed; 0 elsewhere, and
// then the count includes the exporter's own statements.
//
// mysqld_exporter 0.14.0 with its default collectors, in front of MariaDB 10.11 without the
// query_response_time plugin, sends 8 statements on a new connection at every scrape (SET
// lock_wait_timeout, SELECT @@version, SHOW ALL SLAVES STATUS, SHOW GLOBAL STATUS, SHOW GLOBAL
// VARIABLES, two information_schema SELECTs, SELECT @@query_response_time_stats) and closes it:
// 9 Questions, whoever asked for the scrape. Subtracting 9 per scrape the exporter counted
// (mysql_exporter_scrapes_total) removes Prometheus's scrapes of the same exporter too. The
// collectors run side by side, so SHOW GLOBAL STATUS is the 3rd to 8th statement of its scrape,
// and the previous scrape's goodbye may not be counted yet when it runs: a difference between
// two readings is the site's statements give or take 6.
func mysqldExporterStatements(f exposition.Families) int64 {
	if metricLabel(f, metricMySQLExporter, "version") != "0.14.0" ||
		!strings.Contains(metricLabel(f, metricMySQLVersionInfo, "version"), "MariaDB") {
		return 0
	}
	var collectors []string
	for _, m := range f[metricMySQLCollectors].GetMetric() {
		collectors = append(collectors, exposition.Label(m, "collector"))
	}
	slices.Sort(collectors)
	if strings.Join(collectors, ",") != "collect.global_status,collect.global_variables,"+
		"collect.info_schema.innodb_cmp,collect.info_schema.innodb_cmpmem,"+
		"collect.info_schema.query_response_time,collect.slave_status,connection" {
		return 0
	}
	return 9
}

// The postgres_exporter metrics a Sample is read from; pg_stat_database's are one series per
// database, summed.
const (
	metricPgUp           = "pg_up"
	metricPgXactCommit   = "pg_stat_database_xact_commit"
	metricPgXactRollback = "pg_stat_database_xact_rollback"
	metricPgBackends     = "pg_stat_database_numbackends"
	metricPgCalls        = "pg_stat_statements_calls"
)

// postgresExporterSample maps postgres_exporter's page. Transactions and backends are
// required. pg_locks_count counts locks held as well as awaited, so lock waits are left out.
//
// The count includes the exporter's own transactions: postgres_exporter 0.11.1 runs about 12
// at every scrape, whoever asked for it, in front of PostgreSQL 15 with four databases (more
// databases, more queries), and PostgreSQL publishes a session's counts up to 10 s after they
// happen. That number is neither fixed nor visible when it lands, so it is not subtracted: a
// run read every 5 s through the exporter counts about 2.4 transactions a second that are not
// the site's, plus those of Prometheus's own scrapes.
func postgresExporterSample(f exposition.Families) (Sample, error) {
	if up, ok := metricSum(f, metricPgUp, nil); ok && up == 0 {
		return Sample{}, errors.New("postgres_exporter cannot read the database (pg_up is 0)")
	}
	if n := metricServers(f, metricPgXactCommit); n > 1 {
		return Sample{}, fmt.Errorf("postgres_exporter reads %d servers; one database per exporter URL, please", n)
	}
	need, err := metricNeed(f, metricPgXactCommit, metricPgXactRollback, metricPgBackends)
	if err != nil {
		return Sample{}, err
	}
	commits, rollbacks, backends := need[0], need[1], need[2]
	s := Sample{
		Kind:          KindPostgres,
		Version:       postgresExporterVersion(f),
		QueriesSource: metricPgXactCommit + "+" + metricPgXactRollback,
		Queries:       commits + rollbacks,
		Connections:   max(0, backends-postgresExporterConnections(f)),
	}
	// A queries.yaml that publishes pg_stat_statements gives statements, not transactions.
	if calls, ok := metricSum(f, metricPgCalls, nil); ok {
		s.Queries, s.QueriesSource = calls, metricPgCalls
	}
	returned, okReturned := metricSum(f, "pg_stat_database_tup_returned", nil)
	fetched, okFetched := metricSum(f, "pg_stat_database_tup_fetched", nil)
	sampleSet(&s, HasRowsRead, &s.RowsRead, returned+fetched, okReturned && okFetched)
	hit, okHit := metricSum(f, "pg_stat_database_blks_hit", nil)
	read, okRead := metricSum(f, "pg_stat_database_blks_read", nil)
	if okHit && okRead {
		s.BufferReads, s.BufferMisses = hit+read, read
		s.Has |= HasBuffer
	}
	sampleSetMetric(&s, f, HasDeadlocks, &s.Deadlocks, "pg_stat_database_deadlocks")
	sampleSetMetric(&s, f, HasTempBytes, &s.TempBytes, "pg_stat_database_temp_bytes")
	return s, nil
}

// postgresExporterConnections is how many connections the exporter keeps to the database: one
// for its own queries, and from 0.10 on one more for its collectors (bgwriter, database), whose
// pg_scrape_collector_success says they run.
func postgresExporterConnections(f exposition.Families) int64 {
	if f["pg_scrape_collector_success"] != nil {
		return 2
	}
	return 1
}

// postgresExporterVersion reads pg_static's version ("PostgreSQL 15.5 (Debian 15.5-0+deb12u1)
// on x86_64-pc-linux-gnu, compiled by ...") down to what SHOW server_version says, or falls
// back to its short_version or to pg_settings_server_version_num.
func postgresExporterVersion(f exposition.Families) string {
	if v := metricLabel(f, "pg_static", "version"); v != "" {
		v = strings.TrimPrefix(v, "PostgreSQL ")
		v, _, _ = strings.Cut(v, " on ")
		return v
	}
	if v := metricLabel(f, "pg_static", "short_version"); v != "" {
		return v
	}
	n, ok := metricSum(f, "pg_settings_server_version_num", nil)
	switch {
	case !ok || n <= 0:
		return ""
	case n < 100000: // 9.6.24 is 90624
		return fmt.Sprintf("%d.%d.%d", n/10000, n/100%100, n%100)
	default: // 15.5 is 150005
		return fmt.Sprintf("%d.%d", n/10000, n%10000)
	}
}

// metricSum adds up the values of family name over the series keep accepts (all when keep is
// nil). ok is false when the family is absent, has no such series, or holds a value that is
// not a finite scalar: a figure read from it would be made up.
func metricSum(f exposition.Families, name string, keep func(*dto.Metric) bool) (sum int64, ok bool) {
	var total float64
	for _, m := range f[name].GetMetric() {
		if keep != nil && !keep(m) {
			continue
		}
		v, scalar := exposition.Value(m)
		if !scalar || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1<<62 {
			return 0, false
		}
		total += v
		ok = true
	}
	if !ok || math.Abs(total) > 1<<62 {
		return 0, false
	}
	return int64(math.Round(total)), true
}

// metricNeed is metricSum of each of the families without which there is no Sample, in the
// order named.
func metricNeed(f exposition.Families, names ...string) ([]int64, error) {
	vals := make([]int64, len(names))
	for i, name := range names {
		v, ok := metricSum(f, name, nil)
		if !ok {
			return nil, fmt.Errorf("metric %s missing from exposition, or not a number", name)
		}
		vals[i] = v
	}
	return vals, nil
}

// metricLabel is the value of label on the first series of family name, or "".
func metricLabel(f exposition.Families, name, label string) string {
	if ms := f[name].GetMetric(); len(ms) > 0 {
		return exposition.Label(ms[0], label)
	}
	return ""
}

// metricServers counts the servers a postgres_exporter family covers (its "server" label).
func metricServers(f exposition.Families, name string) int {
	servers := map[string]bool{}
	for _, m := range f[name].GetMetric() {
		servers[exposition.Label(m, "server")] = true
	}
	return len(servers)
}

// sampleSet stores an optional figure and marks it read, or leaves it absent.
func sampleSet(s *Sample, has Has, dst *int64, v int64, ok bool) {
	if ok {
		*dst = v
		s.Has |= has
	}
}

// sampleSetMetric stores the family name as an optional figure.
func sampleSetMetric(s *Sample, f exposition.Families, has Has, dst *int64, name string) {
	v, ok := metricSum(f, name, nil)
	sampleSet(s, has, dst, v, ok)
}
