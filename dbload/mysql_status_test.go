package dbload

import (
	"bufio"
	"strings"
	"testing"
)

// statusRows reads "Name value" lines, as SHOW GLOBAL STATUS prints them, into the map the
// reader builds.
func statusRows(text string) map[string]string {
	rows := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		name, value, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		rows[strings.ToLower(name)] = value
	}
	return rows
}

// Each server's status fills the figures it has, and only those.
func TestMySQLStatus(t *testing.T) {
	t.Parallel()
	const common = "Questions 1000\nThreads_connected 7\nSlow_queries 3\nInnodb_row_lock_waits 4\n" +
		"Created_tmp_disk_tables 5\nInnodb_buffer_pool_read_requests 900\nInnodb_buffer_pool_reads 9\n"
	all := HasSlowQueries | HasRowsRead | HasBuffer | HasLockWaits | HasTempDiskTables
	for _, tc := range []struct {
		name, status string
		has          Has
		rows, dead   int64
	}{
		{"mysql 5.1 to 8", common + "Innodb_rows_read 600\n", all, 600, 0},
		{"mariadb 10.6 on: Rows_read", common + "Rows_read 700\nInnodb_deadlocks 2\n", all | HasDeadlocks, 700, 2},
		{"percona: both rows counters", common + "Innodb_rows_read 600\nRows_read 700\nInnodb_deadlocks 2\n", all | HasDeadlocks, 600, 2},
		{"no innodb", "Questions 1000\nThreads_connected 7\nSlow_queries 3\nCreated_tmp_disk_tables 5\n", HasSlowQueries | HasTempDiskTables, 0, 0},
		{"a counter that is no number is left out", common + "Innodb_rows_read n/a\nInnodb_deadlocks -1\n", all &^ HasRowsRead, 0, 0},
		{"buffer reads without misses are left out", "Questions 1\nThreads_connected 1\nInnodb_buffer_pool_read_requests 900\n", 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := mysqlStatus(statusRows(tc.status))
			if err != nil {
				t.Fatalf("mysqlStatus: %v", err)
			}
			if s.Has != tc.has || s.RowsRead != tc.rows || s.Deadlocks != tc.dead {
				t.Errorf("has %b rows %d deadlocks %d, want %b %d %d", s.Has, s.RowsRead, s.Deadlocks, tc.has, tc.rows, tc.dead)
			}
			if s.Queries != 1000 && s.Queries != 1 || s.Kind != KindMySQL || s.QueriesSource != "Questions" {
				t.Errorf("queries %d kind %q source %q", s.Queries, s.Kind, s.QueriesSource)
			}
		})
	}
}

// Without the statement count or the connections there is no reading.
func TestMySQLStatusRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, status, says string }{
		{"no questions", "Threads_connected 1\n", "no questions"},
		{"no connections", "Questions 1\n", "no threads_connected"},
		{"questions no number", "Questions lots\nThreads_connected 1\n", `questions is "lots"`},
		{"negative", "Questions -5\nThreads_connected 1\n", "not a count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := mysqlStatus(statusRows(tc.status))
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %v, want one saying %q", err, tc.says)
			}
		})
	}
}

// Any status a server (or something posing as one) sends gives a reading or an error, never a
// panic, a negative count, or a figure marked read that was not in it.
func FuzzMySQLStatus(f *testing.F) {
	f.Add("Questions 1000\nThreads_connected 7\nInnodb_rows_read 600\nInnodb_deadlocks 2\n")
	f.Add("Questions 1\nThreads_connected 1\nRows_read 9223372036854775807\n")
	f.Add("Questions 99999999999999999999\nThreads_connected x\n")
	f.Fuzz(func(t *testing.T, text string) {
		rows := statusRows(text)
		s, err := mysqlStatus(rows)
		if err != nil {
			return
		}
		for _, v := range []int64{s.Queries, s.Connections, s.SlowQueries, s.RowsRead, s.BufferReads, s.BufferMisses, s.LockWaits, s.Deadlocks, s.TempDiskTables} {
			if v < 0 {
				t.Fatalf("negative count in %+v", s)
			}
		}
		for _, c := range mysqlCounters {
			present := false
			for _, name := range c.names {
				_, ok := rows[name]
				present = present || ok
			}
			if s.Has&c.has != 0 && !present {
				t.Fatalf("%v marked read without %v in the status", c.has, c.names)
			}
		}
	})
}
