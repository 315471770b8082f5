package dbload

import (
	"context"
	"time"
)

// The database counts a statement when it ends, and a statement may end after its answer has
// reached the site and the site's answer has reached webload: when the run ends, the last
// statements of each of the site's connections may not be counted yet (seen with MariaDB's
// performance_schema, one statement short per connection). So the reading after the run is
// taken again, settlePause apart, until two in a row count the same calls, at most settleReads
// times: on a database that other clients keep busy it never settles, and the last reading is
// kept.
const (
	settlePause = 100 * time.Millisecond
	settleReads = 5
)

// settledStatements is src's reading after the run once its counts have settled.
func settledStatements(ctx context.Context, src StatementSource) (StatementSnapshot, error) {
	last, err := src.Statements(ctx)
	if err != nil {
		return last, err
	}
	for range settleReads - 1 {
		select {
		case <-ctx.Done():
			return last, nil
		case <-time.After(settlePause):
		}
		next, err := src.Statements(ctx)
		if err != nil {
			return last, nil // the reading before this one stands
		}
		settled := next.calls() == last.calls()
		last = next
		if settled {
			break
		}
	}
	return last, nil
}

// calls are the calls of every statement in the snapshot.
func (s StatementSnapshot) calls() int64 {
	var n int64
	for _, c := range s.byID {
		n += c.calls
	}
	return n
}
