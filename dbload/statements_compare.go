package dbload

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"
)

// StatementsSide is one run's statements as a comparison takes them: every database the run
// read, pooled (a page that runs statements on two databases costs the site both), over the
// run's transactions.
type StatementsSide struct {
	Label        string
	Databases    []Summary
	Transactions int64
}

// StatementsComparison is a candidate run's statements beside the baseline's, per transaction:
// `webload compare`'s Statements section. Statements are matched by NormalizeStatement, so
// that MySQL's digest of a statement meets PostgreSQL's text of it.
type StatementsComparison struct {
	Base  string `json:"base"`
	Label string `json:"label"`
	// BaseSource and Source name where each side's statements come from (StatementsPg,
	// StatementsMySQL; several joined by "+" when a side read several kinds of database).
	BaseSource string `json:"base_source"`
	Source     string `json:"source"`
	// BaseTime and Time are every statement's time per transaction, BaseCalls and Calls their
	// calls per transaction; Change is Time less BaseTime.
	BaseTime  time.Duration `json:"base_time_per_transaction_ns"`
	Time      time.Duration `json:"time_per_transaction_ns"`
	Change    time.Duration `json:"change_ns"`
	BaseCalls float64       `json:"base_calls_per_transaction"`
	Calls     float64       `json:"calls_per_transaction"`
	// Statements are the statements of either side's top, the biggest change in time per
	// transaction first (either way), then the ones of the side's others ("(other)").
	Statements []StatementChange `json:"statements"`
	// BaseOthers and Others count the statements each side summed in its other, which
	// cannot be matched: one of them may be the other side's listed statement.
	BaseOthers int `json:"base_others"`
	Others     int `json:"others"`
	// BaseSlowThreshold and SlowThreshold are each side's --db-slow (0: not judged, as in
	// results saved before it).
	BaseSlowThreshold time.Duration `json:"base_slow_threshold_ns,omitempty"`
	SlowThreshold     time.Duration `json:"slow_threshold_ns,omitempty"`
}

// OtherKey is the key of the statements each side summed in its other.
const OtherKey = "(other statements)"

// Where a compared statement ran.
const (
	OnBoth      = "both"
	OnBase      = "base"      // only in the baseline's statements
	OnCandidate = "candidate" // only in the candidate's
)

// StatementChange is one statement on both sides, per transaction of each.
type StatementChange struct {
	// Key is the normalised text both sides matched on; BaseText and Text each side's own.
	Key      string `json:"key"`
	BaseText string `json:"base_text,omitempty"`
	Text     string `json:"text,omitempty"`
	// On is OnBoth, OnBase or OnCandidate. MaybeOther is set for a statement of one side
	// when the other summed some of its statements in its other: it may be among them.
	On         string `json:"on"`
	MaybeOther bool   `json:"maybe_other,omitempty"`
	// The calls and time per transaction on each side (0 where it did not run).
	BaseCalls float64       `json:"base_calls_per_transaction"`
	Calls     float64       `json:"calls_per_transaction"`
	BaseTime  time.Duration `json:"base_time_per_transaction_ns"`
	Time      time.Duration `json:"time_per_transaction_ns"`
	// Change is Time less BaseTime: its part in the change of database time per transaction.
	Change time.Duration `json:"change_ns"`
	// LowerBound is set when either side's figures are a series' lower bound.
	LowerBound bool `json:"lower_bound,omitempty"`
	// Prefix is set when the two sides were matched on the start of the statement: MySQL
	// had cut its digest's text, and only this statement of the other side starts so.
	Prefix bool `json:"matched_by_prefix,omitempty"`
	// BaseSlow and Slow are its slow calls on each side (Statement.SlowCalls), BaseMax and Max
	// its slowest call there; SlowOn says where it had a slow call: OnBoth, OnBase,
	// OnCandidate, or "" (nowhere).
	BaseSlow SlowSide `json:"base_slow"`
	Slow     SlowSide `json:"slow"`
	SlowOn   string   `json:"slow_on,omitempty"`
}

// pooled is one side's statements by normalised text.
type pooled struct {
	source string
	byKey  map[string]*pooledStmt
	calls  int64
	total  time.Duration
	others int
	read   bool
	// slowAt is the slow threshold of the side's databases (their most, should they differ).
	slowAt time.Duration
}

type pooledStmt struct {
	text       string
	calls      int64
	total      time.Duration
	lowerBound bool
	// cut is set when the text may be the start of the statement only: MySQL cuts a digest's
	// text at max_digest_length (1024 bytes by default).
	cut bool
	// prefix is set once the statement was matched with the other side's on its start.
	prefix bool
	slow   SlowSide
}

// mysqlDigestCut is how long a MySQL digest's text is, in bytes, when it may have been cut:
// MariaDB 10.11 cut MediaWiki's longest statements at 1003 to 1023 bytes.
const mysqlDigestCut = 960

// pool gathers a side's statements; read is false when no database of it read any.
func pool(dbs []Summary) pooled {
	p := pooled{byKey: map[string]*pooledStmt{}}
	for i := range dbs {
		st := dbs[i].Statements
		if st == nil || st.Unavailable != "" {
			continue
		}
		p.read = true
		if !strings.Contains("+"+p.source+"+", "+"+st.Source+"+") {
			p.source = strings.TrimPrefix(p.source+"+"+st.Source, "+")
		}
		p.calls += st.Calls
		p.total += st.Total
		p.others += st.OtherDigests
		p.slowAt = max(p.slowAt, st.SlowThreshold)
		for _, s := range st.List {
			k := NormalizeStatement(s.Text)
			ps := p.byKey[k]
			if ps == nil {
				ps = &pooledStmt{text: s.Text, cut: st.Source == StatementsMySQL && len(s.Text) >= mysqlDigestCut, slow: SlowSide{Exact: true}}
				p.byKey[k] = ps
			}
			ps.slow.add(s)
			ps.calls += s.Calls
			ps.total += s.Total
			ps.lowerBound = ps.lowerBound || s.LowerBound
		}
	}
	return p
}

// CompareStatements lines up a candidate's statements against the baseline's, per
// transaction of each run. ok is false when either side read no statements or had no
// transactions: there is nothing to put side by side.
func CompareStatements(base, cand StatementsSide) (StatementsComparison, bool) {
	b, c := pool(base.Databases), pool(cand.Databases)
	if !b.read || !c.read || base.Transactions <= 0 || cand.Transactions <= 0 {
		return StatementsComparison{}, false
	}
	btx, ctx := float64(base.Transactions), float64(cand.Transactions)
	perTx := func(d time.Duration, tx float64) time.Duration { return time.Duration(math.Round(float64(d) / tx)) }
	out := StatementsComparison{
		Base: base.Label, Label: cand.Label, BaseSource: b.source, Source: c.source,
		BaseTime: perTx(b.total, btx), Time: perTx(c.total, ctx),
		BaseCalls: float64(b.calls) / btx, Calls: float64(c.calls) / ctx,
		BaseOthers: b.others, Others: c.others, BaseSlowThreshold: b.slowAt, SlowThreshold: c.slowAt,
	}
	out.Change = out.Time - out.BaseTime
	matchCut(b, c)
	matchCut(c, b)
	keys := make([]string, 0, len(b.byKey)+len(c.byKey))
	for k := range b.byKey {
		keys = append(keys, k)
	}
	for k := range c.byKey {
		if b.byKey[k] == nil {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		ch := StatementChange{Key: k, On: OnBoth}
		if s := b.byKey[k]; s != nil {
			ch.BaseText, ch.BaseCalls, ch.BaseTime = s.text, float64(s.calls)/btx, perTx(s.total, btx)
			ch.LowerBound = s.lowerBound
			ch.BaseSlow = s.slow
		} else {
			ch.On, ch.MaybeOther = OnCandidate, b.others > 0
		}
		if s := c.byKey[k]; s != nil {
			ch.Text, ch.Calls, ch.Time = s.text, float64(s.calls)/ctx, perTx(s.total, ctx)
			ch.LowerBound = ch.LowerBound || s.lowerBound
			ch.Prefix = s.prefix
			ch.Slow = s.slow
		} else {
			ch.On, ch.MaybeOther = OnBase, c.others > 0
		}
		ch.Change = ch.Time - ch.BaseTime
		ch.SlowOn = slowOn(ch.BaseSlow, ch.Slow)
		out.Statements = append(out.Statements, ch)
	}
	// The others of each side, as one statement each: their time is in the totals.
	bOther, cOther := b.total, c.total
	bCalls, cCalls := b.calls, c.calls
	for _, s := range b.byKey {
		bOther -= s.total
		bCalls -= s.calls
	}
	for _, s := range c.byKey {
		cOther -= s.total
		cCalls -= s.calls
	}
	if b.others > 0 || c.others > 0 {
		ch := StatementChange{Key: OtherKey, On: OnBoth, BaseTime: perTx(bOther, btx), Time: perTx(cOther, ctx),
			BaseCalls: float64(bCalls) / btx, Calls: float64(cCalls) / ctx}
		ch.Change = ch.Time - ch.BaseTime
		out.Statements = append(out.Statements, ch)
	}
	slices.SortFunc(out.Statements, func(x, y StatementChange) int {
		if c := cmp.Compare(abs(y.Change), abs(x.Change)); c != 0 {
			return c
		}
		return cmp.Compare(x.Key, y.Key)
	})
	return out, true
}

// matchCut matches each statement of a whose text MySQL may have cut, and that b has not, with
// the one statement of b, not in a, that starts with it (its last word left out: the cut may
// fall inside it); b's statement is then keyed as a's. Two or more such statements of b are
// left apart: which one it was cannot be told.
func matchCut(a, b pooled) {
	for k, s := range a.byKey {
		if !s.cut || b.byKey[k] != nil {
			continue
		}
		start := k
		if i := strings.LastIndexByte(k, ' '); i > 0 {
			start = k[:i]
		}
		found := ""
		for bk := range b.byKey {
			if a.byKey[bk] == nil && strings.HasPrefix(bk, start) {
				if found != "" {
					found = ""
					break
				}
				found = bk
			}
		}
		if found == "" {
			continue
		}
		m := b.byKey[found]
		delete(b.byKey, found)
		m.prefix, s.prefix = true, true
		b.byKey[k] = m
	}
}

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// Contributors are the statements whose change in time per transaction went the way of the
// whole change, the biggest first, at most n: what made the database slower (or faster) per
// transaction.
func (c *StatementsComparison) Contributors(n int) []StatementChange {
	var out []StatementChange
	for _, s := range c.Statements {
		if len(out) == n {
			break
		}
		if s.Change != 0 && (s.Change > 0) == (c.Change > 0) {
			out = append(out, s)
		}
	}
	return out
}
