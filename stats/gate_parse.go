package stats

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// GateError says where an --assert expression went wrong, so the user can find the spot.
type GateError struct {
	// Expr is the expression as written.
	Expr string
	// Column counts runes from 1; it is one past the end when something is missing there.
	Column int
	Msg    string
}

// Error reads like: bad gate "p95<<800ms": at column 5: expected a number.
func (e *GateError) Error() string {
	return fmt.Sprintf("bad gate %q: at column %d: %s", e.Expr, e.Column, e.Msg)
}

// gateKind decides which units a limit takes and how values are shown.
type gateKind uint8

const (
	gateCount   gateKind = iota // whole numbers, no unit
	gateRate                    // plain numbers shown with 2 decimals, no unit
	gateTime                    // seconds, written with a unit
	gatePercent                 // percent, an optional %
)

// gateMetric is one metric a gate can test: on the whole run (run), per URL (url), or both.
type gateMetric struct {
	name string
	kind gateKind
	unit string // shown after values, with its leading space
	run  func(*Report) float64
	url  func(*URLStats) float64
}

// gateMetrics is read-only; its order is the order error messages list the metrics in.
var gateMetrics = []gateMetric{
	{name: "availability", kind: gatePercent,
		run: func(r *Report) float64 { return r.Availability },
		url: func(u *URLStats) float64 { return gateShare(u.Hits, u.Failures) }},
	{name: "error_rate", kind: gatePercent,
		run: func(r *Report) float64 { return gateShare(r.FailedTransactions, r.Transactions) },
		url: func(u *URLStats) float64 { return gateShare(u.Failures, u.Hits) }},
	{name: "transactions", kind: gateCount,
		run: func(r *Report) float64 { return float64(r.Transactions) },
		url: func(u *URLStats) float64 { return float64(u.Hits) }},
	{name: "successful", kind: gateCount,
		run: func(r *Report) float64 { return float64(r.SuccessfulTransactions) }},
	{name: "failed", kind: gateCount,
		run: func(r *Report) float64 { return float64(r.FailedTransactions) },
		url: func(u *URLStats) float64 { return float64(u.Failures) }},
	{name: "requests", kind: gateCount,
		run: func(r *Report) float64 { return float64(r.Requests) }},
	{name: "elapsed", kind: gateTime,
		run: func(r *Report) float64 { return r.ElapsedTime }},
	{name: "rtime", kind: gateTime,
		run: func(r *Report) float64 { return r.ResponseTime },
		url: func(u *URLStats) float64 { return u.Mean }},
	{name: "trate", kind: gateRate, unit: " trans/sec",
		run: func(r *Report) float64 { return r.TransactionRate }},
	{name: "throughput", kind: gateRate, unit: " MB/sec",
		run: func(r *Report) float64 { return r.Throughput }},
	{name: "concurrency", kind: gateRate,
		run: func(r *Report) float64 { return r.Concurrency }},
	{name: "longest", kind: gateTime,
		run: func(r *Report) float64 { return r.LongestTransaction }},
	{name: "shortest", kind: gateTime,
		run: func(r *Report) float64 { return r.ShortestTransaction }},
	{name: "p50", kind: gateTime,
		run: func(r *Report) float64 { return r.Percentiles.P50 },
		url: func(u *URLStats) float64 { return u.P50 }},
	{name: "p90", kind: gateTime,
		run: func(r *Report) float64 { return r.Percentiles.P90 }},
	{name: "p95", kind: gateTime,
		run: func(r *Report) float64 { return r.Percentiles.P95 },
		url: func(u *URLStats) float64 { return u.P95 }},
	{name: "p99", kind: gateTime,
		run: func(r *Report) float64 { return r.Percentiles.P99 },
		url: func(u *URLStats) float64 { return u.P99 }},
	{name: "p99.9", kind: gateTime,
		run: func(r *Report) float64 { return r.Percentiles.P999 }},
	{name: "max", kind: gateTime,
		run: func(r *Report) float64 { return r.Percentiles.Max },
		url: func(u *URLStats) float64 { return u.Max }},
	{name: "bytes", kind: gateCount, unit: " bytes",
		url: func(u *URLStats) float64 { return float64(u.Bytes) }},
}

// gateAliases maps the other accepted names, siege's JSON keys and abbreviations among them, to
// canonical ones. Read-only.
var gateAliases = map[string]string{
	"trans":            "transactions",
	"hits":             "transactions",
	"ok":               "successful",
	"failures":         "failed",
	"etime":            "elapsed",
	"response_time":    "rtime",
	"mean":             "rtime",
	"transaction_rate": "trate",
	"conc":             "concurrency",
}

// gateTimeUnits are the units a time limit takes, as seconds per unit in a fraction: dividing by an
// exact 1000 gives 800ms the same float64 as 0.8s, where multiplying by 0.001 need not. µ comes
// as the micro sign and as the Greek letter, which look the same. Read-only.
var gateTimeUnits = map[string]struct{ num, den float64 }{
	"us": {1, 1e6}, "µs": {1, 1e6}, "μs": {1, 1e6},
	"ms": {1, 1e3},
	"s":  {1, 1},
	"m":  {60, 1},
}

// gateShare is part as a percent of part+rest, and 0 when both are 0, as siege's availability is.
func gateShare(part, rest int64) float64 {
	if part+rest == 0 {
		return 0
	}
	return float64(part) / float64(part+rest) * 100
}

// findGateMetric takes any accepted name, in any case.
func findGateMetric(name string) (gateMetric, bool) {
	name = strings.ToLower(name)
	if canon, ok := gateAliases[name]; ok {
		name = canon
	}
	for _, m := range gateMetrics {
		if m.name == name {
			return m, true
		}
	}
	return gateMetric{}, false
}

// gateMetricNames lists the canonical names, of the metrics kept per URL when perURL is set.
func gateMetricNames(perURL bool) string {
	var names []string
	for _, m := range gateMetrics {
		if !perURL || m.url != nil {
			names = append(names, m.name)
		}
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func validGateOp(op string) bool {
	switch op {
	case "<", "<=", ">", ">=", "==", "!=":
		return true
	}
	return false
}

// ParseGate parses one --assert expression: [url:SELECTOR] METRIC OP NUMBER [UNIT], with
// optional whitespace between the parts. SELECTOR runs to the next whitespace and names URLs of
// the run by absolute URL, path and query, or path. Metric names and units ignore case; = means
// ==. Times need a unit (us, ms, s or m), since a bare 800 could mean ms or s; availability and
// error_rate take an optional %; other metrics no unit. Errors are *GateError.
func ParseGate(expr string) (Gate, error) {
	s := &gateScanner{expr: expr, col: 1}
	g := Gate{Expr: expr}
	s.skipSpace()
	if s.atEnd() {
		return Gate{}, s.errAt(1, "empty expression")
	}
	if len(expr)-s.pos >= 4 && strings.EqualFold(expr[s.pos:s.pos+4], "url:") {
		s.advance(4)
		col := s.col
		g.URL = s.take(func(r rune) bool { return !unicode.IsSpace(r) })
		if g.URL == "" {
			return Gate{}, s.errAt(col, "expected a URL or path after url:")
		}
		s.skipSpace()
		if s.atEnd() {
			return Gate{}, s.errAt(s.col, "expected a metric after url:"+g.URL)
		}
	}
	m, written, err := s.metric(g.URL != "")
	if err != nil {
		return Gate{}, err
	}
	g.Metric = m.name
	s.skipSpace()
	if g.Op = s.op(); g.Op == "" {
		return Gate{}, s.errAt(s.col, "expected an operator (<, <=, >, >=, == or !=) after "+written)
	}
	s.skipSpace()
	if g.Value, err = s.limit(m, written); err != nil {
		return Gate{}, err
	}
	s.skipSpace()
	if !s.atEnd() {
		return Gate{}, s.errAt(s.col, fmt.Sprintf("unexpected %q after the limit", strings.TrimSpace(expr[s.pos:])))
	}
	return g, nil
}

// gateScanner walks an expression keeping both the byte offset, to slice the text as written,
// and the rune column, which is what a person counts.
type gateScanner struct {
	expr string
	pos  int // byte offset
	col  int // rune column of pos, from 1
}

func (s *gateScanner) atEnd() bool { return s.pos >= len(s.expr) }

func (s *gateScanner) peek() rune {
	if s.atEnd() {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(s.expr[s.pos:])
	return r
}

// advance moves n runes on, stopping at the end.
func (s *gateScanner) advance(n int) {
	for ; n > 0 && !s.atEnd(); n-- {
		_, size := utf8.DecodeRuneInString(s.expr[s.pos:])
		s.pos += size
		s.col++
	}
}

func (s *gateScanner) skipSpace() { s.take(unicode.IsSpace) }

// take consumes the longest run of runes that ok accepts and returns it as written.
func (s *gateScanner) take(ok func(rune) bool) string {
	start := s.pos
	for !s.atEnd() && ok(s.peek()) {
		s.advance(1)
	}
	return s.expr[start:s.pos]
}

func (s *gateScanner) errAt(col int, msg string) error {
	return &GateError{Expr: s.expr, Column: col, Msg: msg}
}

// metric reads a metric name and checks that it exists where the gate applies. It returns the
// name as written too, for messages in the user's own words.
func (s *gateScanner) metric(perURL bool) (gateMetric, string, error) {
	col := s.col
	written := s.take(isGateMetricRune)
	if written == "" {
		return gateMetric{}, "", s.errAt(col, "expected a metric, such as p95 or availability")
	}
	m, ok := findGateMetric(written)
	switch {
	case !ok:
		return m, written, s.errAt(col, fmt.Sprintf("unknown metric %q (want %s)", written, gateMetricNames(false)))
	case perURL && m.url == nil:
		return m, written, s.errAt(col, fmt.Sprintf("%s is not kept per URL; use %s", written, gateMetricNames(true)))
	case !perURL && m.run == nil:
		return m, written, s.errAt(col, fmt.Sprintf("%s is kept only per URL; add a selector, as in url:/path %s>0", written, written))
	}
	return m, written, nil
}

func isGateMetricRune(r rune) bool {
	return r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.')
}

// op reads an operator, longest first; a lone = means ==, as people write it.
func (s *gateScanner) op() string {
	rest := s.expr[s.pos:]
	for _, op := range []string{"<=", ">=", "==", "!=", "<", ">", "="} {
		if strings.HasPrefix(rest, op) {
			s.advance(len(op))
			if op == "=" {
				return "=="
			}
			return op
		}
	}
	return ""
}

// limit reads the number and its unit and converts it to the metric's base unit.
func (s *gateScanner) limit(m gateMetric, written string) (float64, error) {
	col := s.col
	isNum := func(r rune) bool { return r == '.' || ('0' <= r && r <= '9') }
	if s.peek() == '-' && len(s.expr) > s.pos+1 && isNum(rune(s.expr[s.pos+1])) {
		return 0, s.errAt(col, fmt.Sprintf("negative limit: %s is never below 0", written))
	}
	num := s.take(isNum)
	if strings.Trim(num, ".") == "" {
		return 0, s.errAt(col, "expected a number")
	}
	if strings.Count(num, ".") > 1 {
		return 0, s.errAt(col, fmt.Sprintf("malformed number %q", num))
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, s.errAt(col, fmt.Sprintf("number %s is out of range", num))
	}
	end := s.col
	s.skipSpace()
	unitCol := s.col
	unit := s.take(func(r rune) bool { return unicode.IsLetter(r) || r == '%' })
	switch m.kind {
	case gateTime:
		if unit == "" {
			return 0, s.errAt(end, "expected a unit (us, ms, s or m) after the number")
		}
		u, ok := gateTimeUnits[strings.ToLower(unit)]
		if !ok {
			return 0, s.errAt(unitCol, fmt.Sprintf("unknown unit %q for %s (want us, ms, s or m)", unit, written))
		}
		v = v * u.num / u.den
	case gatePercent:
		if unit != "" && unit != "%" {
			return 0, s.errAt(unitCol, fmt.Sprintf("%s takes no unit but %%, got %q", written, unit))
		}
	default:
		if unit != "" {
			return 0, s.errAt(unitCol, fmt.Sprintf("%s takes no unit, got %q", written, unit))
		}
	}
	if math.IsInf(v, 0) {
		return 0, s.errAt(col, fmt.Sprintf("number %s is out of range", num))
	}
	return v, nil
}
