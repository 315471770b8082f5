package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/webload/webload/stats"
)

// Gate is one pass/fail condition on a run, parsed from an --assert expression.
type Gate struct {
	// Expr is the expression as written; reports name the gate by it.
	Expr string
	// URL is "" for a gate on the whole run; otherwise the url: selector, a path such as
	// /checkout (with or without its query) or an absolute URL.
	URL string
	// Metric is the canonical metric name, whichever alias was written.
	Metric string
	// Op is one of < <= > >= == !=.
	Op string
	// Value is the limit in the metric's base unit: seconds for times, percent for
	// availability and error_rate, plain numbers otherwise.
	Value float64
}

// CheckGates evaluates every gate against a report, in order. The == and != gates compare
// exactly, with no tolerance: they are meant for counts, which are whole numbers and exact in a
// float64; a measured time or rate will seldom equal a limit to the last bit.
func CheckGates(rep *stats.Report, gates []Gate) []stats.Verdict {
	results := make([]stats.Verdict, len(gates))
	for i, g := range gates {
		results[i] = checkGate(rep, g)
	}
	return results
}

// checkGate also copes with gates built by hand rather than by ParseGate, so that a bad one fails
// with a reason instead of passing silently or panicking.
func checkGate(rep *stats.Report, g Gate) stats.Verdict {
	res := stats.Verdict{Check: g.Label(), Measured: math.NaN()}
	m, ok := stats.LookupFigure(g.Metric)
	if ok {
		res.Figure = m.Name
	}
	switch {
	case rep == nil:
		return res.Fail("no report to check")
	case !ok:
		return res.Fail(fmt.Sprintf("unknown metric %q", g.Metric))
	case !validGateOp(g.Op):
		return res.Fail(fmt.Sprintf("unknown operator %q", g.Op))
	case g.URL == "" && !stats.PerRun(m):
		return res.Fail(m.Name + " is kept only per URL")
	case g.URL != "" && !stats.PerURL(m):
		return res.Fail(m.Name + " is not kept per URL")
	}
	if g.URL != "" {
		return checkURLGate(rep, g, m, res)
	}
	v, ok := m.Run(rep)
	if !ok {
		return res.Fail(m.Name + " was not measured in this run")
	}
	res.Measured = v
	res.Passed = gateHolds(g.Op, res.Measured, g.Value)
	res.Text = fmt.Sprintf("%s = %s: %s", m.Name, describe(m, g.Op, res.Measured, g.Value), gateVerdict(res.Passed))
	return res
}

// checkURLGate requires the gate of every URL the selector matches, since one selector often
// names both the GET and the POST of a page, and reports the worst so the line shows what failed.
func checkURLGate(rep *stats.Report, g Gate, m stats.Figure, res stats.Verdict) stats.Verdict {
	worst, matches, selected := -1, 0, 0
	res.Passed = true
	for i := range rep.URLs {
		u := &rep.URLs[i]
		if !gateSelects(g.URL, u.URL) {
			continue
		}
		selected++
		v, ok := m.URL(u)
		if !ok {
			continue // not measured for this URL: nothing to hold to the gate
		}
		matches++
		res.Passed = res.Passed && gateHolds(g.Op, v, g.Value)
		if worst < 0 || gateWorse(g.Op, v, res.Measured, g.Value) {
			worst, res.Measured = i, v
		}
	}
	switch {
	case selected == 0:
		return res.Fail("no URL in the run matches " + g.URL)
	case matches == 0:
		return res.Fail(fmt.Sprintf("%s was not measured for %s in this run", m.Name, g.URL))
	}
	u := &rep.URLs[worst]
	where := strings.TrimSpace(u.Method + " " + u.URL)
	if matches > 1 {
		where += fmt.Sprintf(" (worst of %d matching URLs)", matches)
	}
	res.Text = fmt.Sprintf("%s of %s = %s: %s", m.Name, where, describe(m, g.Op, res.Measured, g.Value), gateVerdict(res.Passed))
	return res
}

// label names the gate as its author wrote it, for its verdict. A gate built by hand gets a written form that
// ParseGate reads back to the same gate.
func (g Gate) Label() string {
	if s := strings.TrimSpace(g.Expr); s != "" {
		return s
	}
	s := g.Metric + g.Op + strconv.FormatFloat(g.Value, 'f', -1, 64)
	if m, ok := stats.LookupFigure(g.Metric); ok && m.Kind == stats.FigureTime {
		s += "s"
	}
	if g.URL != "" {
		s = "url:" + g.URL + " " + s
	}
	return s
}

func gateVerdict(passed bool) string {
	if passed {
		return "ok"
	}
	return "FAILED"
}

// gateSelects reports whether a url: selector names an absolute URL: written whole, as its path
// and query, or as its bare path, since people copy whichever form is at hand.
func gateSelects(selector, abs string) bool {
	if selector == abs {
		return true
	}
	uri := stats.RequestURI(abs)
	path, _, _ := strings.Cut(uri, "?")
	return selector == uri || selector == path
}

// gateHolds compares exactly; see CheckGates.
func gateHolds(op string, measured, limit float64) bool {
	switch op {
	case "<":
		return measured < limit
	case "<=":
		return measured <= limit
	case ">":
		return measured > limit
	case ">=":
		return measured >= limit
	case "==":
		return measured == limit
	case "!=":
		return measured != limit
	}
	return false
}

// gateWorse reports whether a lies further than b on the failing side of the gate: for an upper
// bound the larger, for a lower bound the smaller, for == the further from the limit and for !=
// the nearer to it.
func gateWorse(op string, a, b, limit float64) bool {
	switch op {
	case "<", "<=":
		return a > b
	case ">", ">=":
		return a < b
	case "==":
		return math.Abs(a-limit) > math.Abs(b-limit)
	case "!=":
		return math.Abs(a-limit) < math.Abs(b-limit)
	}
	return false
}

// describe shows the measured value and the limit in one unit, chosen by the measured value, so
// the two read side by side. When rounding would make a failing value look equal to its limit,
// the measured value gets the digits that tell them apart.
func describe(m stats.Figure, op string, measured, limit float64) string {
	scale, prec, unit := stats.Display(m, measured)
	got := strconv.FormatFloat(measured*scale, 'f', prec, 64)
	want := gateNumber(limit * scale)
	if measured != limit && gateSameNumber(got, want) {
		got = gateNumber(measured * scale)
		if gateSameNumber(got, want) {
			got = strconv.FormatFloat(measured*scale, 'f', -1, 64)
		}
	}
	return fmt.Sprintf("%s%s, allowed %s %s%s", got, unit, op, want, unit)
}

// gateNumber writes a limit as people write limits: 800, not 800.000 or 800.0000000000001 (the
// float noise of scaling seconds to ms).
func gateNumber(v float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 9, 64), 64)
	if err != nil {
		r = v
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

func gateSameNumber(a, b string) bool {
	x, errX := strconv.ParseFloat(a, 64)
	y, errY := strconv.ParseFloat(b, 64)
	return errX == nil && errY == nil && x == y
}

// Samples counts the measurements g's verdict on rep rests on: the transactions for a latency
// figure, the transactions and failed transactions for the others; for a url: gate, the
// fewest of any URL it selects, since it must hold for each. 0 when it selects none.
func (g Gate) Samples(rep *stats.Report) int64 {
	f, ok := stats.LookupFigure(g.Metric)
	if !ok || rep == nil {
		return 0
	}
	if g.URL == "" {
		if f.Latency {
			return rep.Transactions
		}
		return rep.Transactions + rep.FailedTransactions
	}
	fewest := int64(-1)
	for i := range rep.URLs {
		u := &rep.URLs[i]
		if !gateSelects(g.URL, u.URL) {
			continue
		}
		n := u.Hits
		if !f.Latency {
			n += u.Failures
		}
		if fewest < 0 || n < fewest {
			fewest = n
		}
	}
	return max(fewest, 0)
}
