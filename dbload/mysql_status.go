package dbload

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// mysqlCounter maps SHOW GLOBAL STATUS variables (lower case: servers have spelled some
// differently over the versions) to the Sample field they fill and the flag that marks it
// read. The first of names that the server has is taken.
type mysqlCounter struct {
	names []string
	has   Has
	field func(*Sample) *int64
}

// mysqlCounters are the status variables a reading takes. All exist since MySQL 5.1 but
// Innodb_deadlocks, which only MariaDB and Percona Server have, and Innodb_rows_read, which
// MariaDB dropped in 10.6: its Rows_read (rows read by every storage engine, temporary
// tables left out) stands in.
var mysqlCounters = [...]mysqlCounter{
	{[]string{"slow_queries"}, HasSlowQueries, func(s *Sample) *int64 { return &s.SlowQueries }},
	{[]string{"innodb_rows_read", "rows_read"}, HasRowsRead, func(s *Sample) *int64 { return &s.RowsRead }},
	{[]string{"innodb_row_lock_waits"}, HasLockWaits, func(s *Sample) *int64 { return &s.LockWaits }},
	{[]string{"innodb_deadlocks"}, HasDeadlocks, func(s *Sample) *int64 { return &s.Deadlocks }},
	{[]string{"created_tmp_disk_tables"}, HasTempDiskTables, func(s *Sample) *int64 { return &s.TempDiskTables }},
}

// mysqlStatus fills a Sample from SHOW GLOBAL STATUS rows (name to value). Questions and
// Threads_connected are required: without them there is no reading. An optional counter
// that is missing or not a whole number is left out, its Has flag off. The counts are the
// server's: the caller takes its own statements and connection off.
func mysqlStatus(status map[string]string) (Sample, error) {
	s := Sample{Kind: KindMySQL, QueriesSource: "Questions"}
	var err error
	if s.Queries, err = mysqlValue(status, "questions"); err != nil {
		return Sample{}, err
	}
	if s.Connections, err = mysqlValue(status, "threads_connected"); err != nil {
		return Sample{}, err
	}
	for _, c := range mysqlCounters {
		for _, name := range c.names {
			if v, err := mysqlValue(status, name); err == nil {
				*c.field(&s) = v
				s.Has |= c.has
				break
			}
		}
	}
	reads, errReads := mysqlValue(status, "innodb_buffer_pool_read_requests")
	misses, errMisses := mysqlValue(status, "innodb_buffer_pool_reads")
	if errReads == nil && errMisses == nil {
		s.BufferReads, s.BufferMisses = reads, misses
		s.Has |= HasBuffer
	}
	return s, nil
}

// mysqlPlain are the status variables a reading takes besides mysqlCounters (Uptime tells a
// restart).
var mysqlPlain = []string{"questions", "threads_connected", "innodb_buffer_pool_read_requests", "innodb_buffer_pool_reads", "uptime"}

// mysqlWanted says whether mysqlStatus reads the status variable name, and under which key
// (lower case); the other rows, some five hundred, are dropped without a copy.
func mysqlWanted(name []byte) (string, bool) {
	for _, n := range mysqlPlain {
		if bytes.EqualFold(name, []byte(n)) {
			return n, true
		}
	}
	for _, c := range mysqlCounters {
		for _, n := range c.names {
			if bytes.EqualFold(name, []byte(n)) {
				return n, true
			}
		}
	}
	return "", false
}

// mysqlValue reads one counter: a whole number, never negative.
func mysqlValue(status map[string]string, name string) (int64, error) {
	raw, ok := status[name]
	if !ok {
		return 0, fmt.Errorf("the status has no %s", name)
	}
	v, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("the status %s is %q, not a count", name, raw)
	}
	return v, nil
}
