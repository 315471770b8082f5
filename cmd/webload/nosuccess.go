package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// noSuccessError says a run ended as planned without one successful request (a status below
// 400, or 401/407, siege's rule): nothing listens on the port, the server answers only 5xx or
// 404, every request timed out. Its figures measure the mistake, not the site, so it exits 1
// like a failed gate, gates or not, and says so on stderr even under -q.
type noSuccessError struct {
	requests int64
	outcomes string // what the requests got instead: "3 refused, 2 answered 503"
}

func (e noSuccessError) Error() string {
	return fmt.Sprintf("no request succeeded (%d %s: %s)", e.requests, plural(e.requests, "request"), e.outcomes)
}

// noSuccess is a noSuccessError when the run made requests and none succeeded, else nil.
func noSuccess(rep *stats.Report) error {
	requests := rep.Transactions + rep.FailedTransactions
	if requests == 0 || rep.SuccessfulTransactions > 0 {
		return nil
	}
	var parts []string
	for _, k := range loader.ErrKinds() {
		if n := rep.Errors[k.String()]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	codes := make([]string, 0, len(rep.StatusCodes))
	for code := range rep.StatusCodes {
		codes = append(codes, code)
	}
	slices.SortFunc(codes, func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x - y
	})
	for _, code := range codes {
		// Answers that failed a check are counted as "check" above.
		if n := rep.StatusCodes[code] - rep.CheckStatusCodes[code]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d answered %s", n, code))
		}
	}
	return noSuccessError{requests: requests, outcomes: strings.Join(parts, ", ")}
}

// plural is the noun for n of them: "1 request", "2 requests".
func plural(n int64, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}
