package dbload

import "time"

// combineStatements is the statements of runs made one after another (a --repeat series):
// every statement's counts add up, the top ones are chosen again from the sums, and Other is
// the series' totals less the statements listed, so that Calls and Total stay exact. A
// statement that a run counted among its others (not in its top) is short of those calls:
// it is marked LowerBound, and its missing share is in Other. nil when no run read
// statements; Unavailable when some run could not (a sum over some runs would pass for all).
func combineStatements(runs []Summary) *Statements {
	read, asked := 0, 0
	for i := range runs {
		if st := runs[i].Statements; st != nil {
			asked++
			if st.Unavailable == "" {
				read++
			}
		}
	}
	switch {
	case asked == 0:
		return nil
	case read < len(runs):
		return unavailableIn(runs)
	}
	out := &Statements{Source: runs[0].Statements.Source}
	type sum struct {
		st   Statement
		runs map[int]bool
		max  maxes
	}
	slowCalls, slowStatements := int64(0), 0
	byID := map[string]*sum{}
	var order []string
	for i := range runs {
		st := runs[i].Statements
		out.Top = max(out.Top, st.Top)
		out.Digests = max(out.Digests, st.Digests)
		out.Calls += st.Calls
		out.Total += st.Total
		out.Rows += st.Rows
		out.Restarted = out.Restarted || st.Restarted
		out.SlowThreshold = max(out.SlowThreshold, st.SlowThreshold)
		slowCalls += st.SlowCalls
		slowStatements = max(slowStatements, st.SlowStatements)
		for _, s := range st.List {
			acc, ok := byID[s.ID]
			if !ok {
				acc = &sum{st: Statement{ID: s.ID, Text: s.Text, Masked: s.Masked, SlowExact: true}, runs: map[int]bool{}}
				byID[s.ID] = acc
				order = append(order, s.ID)
			}
			acc.runs[i] = true
			acc.st.Calls += s.Calls
			acc.st.Total += s.Total
			acc.st.Rows += s.Rows
			acc.st.LowerBound = acc.st.LowerBound || s.LowerBound
			acc.st.SharedBlocksHit = addCount(acc.st.SharedBlocksHit, s.SharedBlocksHit, len(acc.runs) == 1)
			acc.st.SharedBlocksRead = addCount(acc.st.SharedBlocksRead, s.SharedBlocksRead, len(acc.runs) == 1)
			acc.st.SlowCalls += s.SlowCalls
			acc.st.SlowExact = acc.st.SlowExact && s.SlowExact
			acc.max.add(s)
		}
	}
	all := make([]Statement, 0, len(order))
	for _, id := range order {
		acc := byID[id]
		for i := range runs {
			if !acc.runs[i] && runs[i].Statements.OtherDigests > 0 {
				acc.st.LowerBound = true // this run's calls of it, if any, are in its Other
			}
		}
		acc.st.SlowExact = acc.st.SlowExact && !acc.st.LowerBound
		acc.st.Max, acc.st.MaxFromBefore = acc.max.result()
		all = append(all, acc.st)
	}
	out.Digests = max(out.Digests, len(all))
	calls, total, rows := out.Calls, out.Total, out.Rows
	out.keepTop(all)
	// The totals are the runs', not the listed statements': the others of each run are in.
	out.Other.Calls = calls - (out.Calls - out.Other.Calls)
	out.Other.Total = total - (out.Total - out.Other.Total)
	out.Other.Rows = rows - (out.Rows - out.Other.Rows)
	out.Other.Mean = mean(out.Other.Total, out.Other.Calls)
	out.Other.SlowCalls = max(0, slowCalls-(out.SlowCalls-out.Other.SlowCalls))
	out.Calls, out.Total, out.Rows = calls, total, rows
	// Each run counted its slow statements, listed or not; those of the runs' others cannot
	// be told apart across runs, so the series has at least as many as its listed ones and as
	// the run that had most.
	out.SlowCalls, out.SlowStatements = slowCalls, max(slowStatements, out.SlowStatements)
	out.OtherDigests = max(0, out.Digests-len(out.List))
	return out
}

// unavailableIn is the statements of a series some of whose runs read none.
func unavailableIn(runs []Summary) *Statements {
	out := &Statements{Unavailable: "not read in every run of the series"}
	for i := range runs {
		if st := runs[i].Statements; st != nil && st.Unavailable != "" {
			out.Unavailable = st.Unavailable
			break
		}
	}
	return out
}

// addCount adds v to sum, sum starting from v on the first run; absent once a run lacks it.
func addCount(sum, v *int64, first bool) *int64 {
	switch {
	case v == nil:
		return nil
	case first:
		c := *v
		return &c
	case sum == nil:
		return nil
	}
	c := *sum + *v
	return &c
}

// maxes gathers a statement's slowest calls over the runs of a series.
type maxes struct {
	own, before time.Duration // the most of the runs' own maxima, and of those that may be older
	any         bool
}

func (m *maxes) add(s Statement) {
	if s.Max == nil {
		return
	}
	m.any = true
	if s.MaxFromBefore {
		m.before = max(m.before, *s.Max)
	} else {
		m.own = max(m.own, *s.Max)
	}
}

// result is the series' slowest call: the runs' own when none of the older ones is above it
// (those runs' slowest took at most theirs), else the older one, which may be from before.
func (m *maxes) result() (*time.Duration, bool) {
	if !m.any {
		return nil, false
	}
	if m.before > m.own {
		v := m.before
		return &v, true
	}
	v := m.own
	return &v, false
}
