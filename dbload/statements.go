package dbload

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"
)

// DefaultStatementsTop is how many statements a run keeps by default, the most time-consuming;
// the rest are summed as one.
const DefaultStatementsTop = 50

// maxStatementText bounds a statement's text, in bytes: PostgreSQL keeps a query's whole text,
// and the section must stay small whatever the site sends. MySQL's digests stop at 1024.
const maxStatementText = 2048

// Where the statements come from, as Statements.Source names it.
const (
	StatementsPg    = "pg_stat_statements"
	StatementsMySQL = "performance_schema.events_statements_summary_by_digest"
)

// ErrNoStatements says a database keeps no statement summaries that can be read; the error
// wrapping it says what is missing and how to turn it on.
var ErrNoStatements = errors.New("no statement summaries")

// StatementSource is a Source that also reads the database's statement summaries. It is
// called by the same goroutine as Sample, never at the same time.
type StatementSource interface {
	// Statements reads every statement's counts so far. An error wrapping ErrNoStatements
	// says the database keeps none that this account can read, and why.
	Statements(ctx context.Context) (StatementSnapshot, error)
}

// StatementSnapshot is one reading of a database's statement summaries: the counts since the
// server started or its summaries were reset, by statement id.
type StatementSnapshot struct {
	// Source is StatementsPg or StatementsMySQL.
	Source string
	// Blocks is set when the counts include PostgreSQL's shared blocks.
	Blocks bool
	byID   map[string]stmtCounts
}

// stmtCounts are one statement's cumulative counts.
type stmtCounts struct {
	text              string
	calls, rows       int64
	total             time.Duration
	blksHit, blksRead int64
	// fastest and slowest are the quickest and the slowest call kept, when the database keeps
	// them (timed set): since it started or its summaries were reset, not since a reading.
	fastest, slowest time.Duration
	timed            bool
}

// add folds another row of the same statement in (PostgreSQL keeps one per user and
// database, MySQL one per schema).
func (c *stmtCounts) add(o stmtCounts) {
	if c.text == "" {
		c.text = o.text
	}
	c.calls += o.calls
	c.rows += o.rows
	c.total += o.total
	c.blksHit += o.blksHit
	c.blksRead += o.blksRead
	if o.timed && o.calls > 0 { // a row that never ran has no fastest call
		if !c.timed || o.fastest < c.fastest {
			c.fastest = o.fastest
		}
		c.slowest = max(c.slowest, o.slowest)
		c.timed = true
	}
}

// Statements is what the database's statements did during a run: the JSON's
// "database.statements". The counts are the differences between the summaries read before and
// after the run. The top statements by total time are listed; the rest are summed in Other,
// so that Calls and Total are every statement's.
type Statements struct {
	// Source is StatementsPg or StatementsMySQL.
	Source string `json:"source"`
	// Unavailable says why no statement was read, and how to have them; nothing else is set.
	Unavailable string `json:"unavailable,omitempty"`
	// Top is how many statements a run keeps at most.
	Top int `json:"top"`
	// Digests counts the distinct statements that ran; for a series, the most that one run saw
	// (the statements summed in Other cannot be told apart across runs).
	Digests int `json:"digests"`
	// Calls, Total and Rows are over every statement, Other's included.
	Calls int64         `json:"calls"`
	Total time.Duration `json:"total_ns"`
	Rows  int64         `json:"rows"`
	// Restarted is set when a statement's counts went back during the run (the summaries were
	// reset, or the statement evicted to make room for others): its figures count from then.
	Restarted bool `json:"restarted,omitempty"`
	// Transactions is what the figures per transaction are over: the run's transactions
	// (every request that got a response, as for queries per transaction); 0 before they are
	// known.
	Transactions int64 `json:"transactions,omitempty"`
	// SlowThreshold is the time over which a call counts as slow (--db-slow); 0 when no
	// statement was judged. SlowStatements counts the statements with a slow call (listed or
	// not) and SlowCalls their slow calls, at least (Statement.SlowCalls).
	SlowThreshold  time.Duration `json:"slow_threshold_ns,omitempty"`
	SlowStatements int           `json:"slow_statements,omitempty"`
	SlowCalls      int64         `json:"slow_calls,omitempty"`
	// List holds the Top statements that took the most time, most first, then up to Top slow
	// statements that are not among them, most slow calls first: a statement that is slow
	// but seldom run stays in sight.
	List []Statement `json:"list"`
	// Other sums the statements not listed; OtherDigests counts them (for a series: in the
	// run that had most).
	Other        Statement `json:"other"`
	OtherDigests int       `json:"other_digests"`
}

// Statement is one statement's work during a run.
type Statement struct {
	// ID is the database's digest of the statement: MySQL's DIGEST, PostgreSQL's queryid.
	ID string `json:"id"`
	// Text is the database's own normalised text (values replaced), any literal left in it
	// masked (Masked set).
	Text   string `json:"text"`
	Masked bool   `json:"masked,omitempty"`
	// Calls counts its executions; Total is their time and Mean Total per call.
	Calls int64         `json:"calls"`
	Total time.Duration `json:"total_ns"`
	Mean  time.Duration `json:"mean_ns"`
	// Rows counts the rows it returned or changed.
	Rows int64 `json:"rows"`
	// SharedBlocksHit and SharedBlocksRead are PostgreSQL's shared buffer blocks found in the
	// cache and read from storage; absent on MySQL.
	SharedBlocksHit  *int64 `json:"shared_blks_hit,omitempty"`
	SharedBlocksRead *int64 `json:"shared_blks_read,omitempty"`
	// CallsPerTransaction and TimePerTransaction are Calls and Total over the run's
	// transactions (PerTransaction).
	CallsPerTransaction *float64       `json:"calls_per_transaction,omitempty"`
	TimePerTransaction  *time.Duration `json:"time_per_transaction_ns,omitempty"`
	// LowerBound is set, in a series, when some run counted this statement among its others:
	// its figures are that much short, which Other holds.
	LowerBound bool `json:"lower_bound,omitempty"`
	// Max is the slowest call the database kept of the statement, when it keeps one. The
	// database keeps it since it started or its summaries were reset, not per run:
	// MaxFromBefore is set when it may be older than the run (it did not rise during the run),
	// and the run's slowest call then took at most Max.
	Max           *time.Duration `json:"max_ns,omitempty"`
	MaxFromBefore bool           `json:"max_from_before,omitempty"`
	// SlowCalls counts the calls that took longer than Statements.SlowThreshold, at least:
	// the databases keep a statement's total, fastest and slowest times, not each call's, so
	// the count is bounded from them (slowBounds); SlowExact is set when the bounds meet.
	SlowCalls int64 `json:"slow_calls,omitempty"`
	SlowExact bool  `json:"slow_exact,omitempty"`
}

// diffStatements is what ran between two snapshots of the same database, top statements by
// total time first, the reader's own statements left out; a call over slow (> 0) is slow.
func diffStatements(before, after StatementSnapshot, top int, slow time.Duration) *Statements {
	s := &Statements{Source: after.Source, Top: top, SlowThreshold: max(0, slow)}
	var all []Statement
	for id, a := range after.byID {
		b, seen := before.byID[id]
		d := stmtCounts{text: a.text, calls: a.calls - b.calls, rows: a.rows - b.rows, total: a.total - b.total,
			blksHit: a.blksHit - b.blksHit, blksRead: a.blksRead - b.blksRead}
		// The slowest call is the run's own when the statement is new, or its slowest rose.
		ownMax := !seen || !b.timed || a.slowest > b.slowest
		if seen && (d.calls < 0 || d.rows < 0 || d.total < 0 || d.blksHit < 0 || d.blksRead < 0) {
			// Counted again from zero during the run: what the after reading holds ran since.
			d, s.Restarted, ownMax = a, true, true
		}
		if d.calls <= 0 || ownStatement(a.text) {
			continue
		}
		st := Statement{ID: id, Calls: d.calls, Total: d.total, Rows: d.rows}
		st.Text, st.Masked = statementText(a.text, after.Source == StatementsMySQL)
		if after.Blocks {
			st.SharedBlocksHit, st.SharedBlocksRead = &d.blksHit, &d.blksRead
		}
		if a.timed {
			slowest := a.slowest
			st.Max, st.MaxFromBefore = &slowest, !ownMax
		}
		if s.SlowThreshold > 0 {
			b := slowBounds{calls: d.calls, total: d.total, fastest: a.fastest, slowest: a.slowest, timed: a.timed, ownMax: ownMax}
			st.SlowCalls, st.SlowExact = b.count(s.SlowThreshold)
		}
		all = append(all, st)
	}
	s.Digests = len(all)
	s.keepTop(all)
	return s
}

// statementText is the text a result keeps of a statement: bounded, literals masked.
func statementText(text string, mysql bool) (string, bool) {
	text = strings.TrimSpace(text)
	if len(text) > maxStatementText {
		cut := maxStatementText
		for cut > 0 && text[cut]&0xC0 == 0x80 {
			cut-- // not inside a character
		}
		text = text[:cut] + "…"
	}
	return MaskLiterals(text, mysql)
}

// keepTop sets the totals from all, lists the top statements by total time and sums the
// rest in Other.
func (s *Statements) keepTop(all []Statement) {
	slices.SortFunc(all, func(a, b Statement) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Calls, a.Calls); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	s.Calls, s.Total, s.Rows = 0, 0, 0
	s.SlowStatements, s.SlowCalls = 0, 0
	for i := range all {
		all[i].Mean = mean(all[i].Total, all[i].Calls)
		s.Calls += all[i].Calls
		s.Total += all[i].Total
		s.Rows += all[i].Rows
		if all[i].SlowCalls > 0 {
			s.SlowStatements++
			s.SlowCalls += all[i].SlowCalls
		}
	}
	n := min(len(all), max(0, s.Top))
	slow, rest := slowest(all[n:], s.Top)
	s.List = append(all[:n:n], slow...)
	s.Other = Statement{}
	for _, st := range rest {
		s.Other.Calls += st.Calls
		s.Other.Total += st.Total
		s.Other.Rows += st.Rows
		s.Other.SlowCalls += st.SlowCalls
	}
	s.Other.Mean = mean(s.Other.Total, s.Other.Calls)
	s.OtherDigests = len(rest)
}

func mean(total time.Duration, calls int64) time.Duration {
	if calls <= 0 {
		return 0
	}
	return total / time.Duration(calls)
}

// ownStatement tells whether a statement is one a reader sends (of this package or another
// monitor's): they read the statistics views, which a site does not. The readings are not
// the site's work; left in, each reading would add its own statements to the run's.
func ownStatement(text string) bool {
	n := NormalizeStatement(text)
	for _, mark := range []string{"pg_stat_statements", "pg_stat_database", "pg_stat_force_next_flush",
		"performance_schema", "show global status", "innodb_metrics", "version_comment"} {
		if strings.Contains(n, mark) {
			return true
		}
	}
	return false
}

// clone is a copy that shares nothing with s.
func (s *Statements) clone() *Statements {
	if s == nil {
		return nil
	}
	c := *s
	c.List = slices.Clone(s.List)
	return &c
}

// perTransaction sets each statement's figures per transaction, or takes them off with no
// transactions.
func (s *Statements) perTransaction(transactions int64) {
	s.Transactions = max(0, transactions)
	set := func(st *Statement) {
		st.CallsPerTransaction, st.TimePerTransaction = nil, nil
		if transactions <= 0 {
			return
		}
		c := float64(st.Calls) / float64(transactions)
		t := st.Total / time.Duration(transactions)
		st.CallsPerTransaction, st.TimePerTransaction = &c, &t
	}
	for i := range s.List {
		set(&s.List[i])
	}
	set(&s.Other)
}
