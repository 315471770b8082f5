package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/webload/webload/stats"
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

// gateTimeUnits are the units a time limit takes, as seconds per unit in a fraction: dividing by an
// exact 1000 gives 800ms the same float64 as 0.8s, where multiplying by 0.001 need not. µ comes
// as the micro sign and as the Greek letter, which look the same. Read-only.
var gateTimeUnits = map[string]struct{ num, den float64 }{
	"us": {1, 1e6}, "µs": {1, 1e6}, "μs": {1, 1e6},
	"ms": {1, 1e3},
	"s":  {1, 1},
	"m":  {60, 1},
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
// the run by absolute URL, path and query, or path. METRIC is a figure's name or alias, or any
// latency percentile written p(N), 0 < N <= 100, as k6's thresholds write it. Metric names and
// units ignore case; = means ==. Times need a unit (us, ms, s or m), since a bare 800 could mean ms or s; availability and
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
	g.Metric = m.Name
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
// name as written too, for messages in the user's own words. A percentile written p(N) is read
// whole here, its parentheses included.
func (s *gateScanner) metric(onURL bool) (stats.Figure, string, error) {
	col := s.col
	start := s.pos
	written := s.take(isGateMetricRune)
	if written == "" {
		return stats.Figure{}, "", s.errAt(col, "expected a metric, such as p95 or availability")
	}
	if strings.EqualFold(written, "p") && s.peek() == '(' {
		if err := s.percentile(); err != nil {
			return stats.Figure{}, "", err
		}
		written = s.expr[start:s.pos]
	}
	m, ok := stats.LookupFigure(written)
	switch {
	case !ok && stats.NearPercentile(written) != "":
		return m, written, s.errAt(col, fmt.Sprintf("unknown metric %q: write %s for that percentile", written, stats.NearPercentile(written)))
	case !ok:
		return m, written, s.errAt(col, fmt.Sprintf("unknown metric %q (want %s)", written, stats.FigureNames(func(stats.Figure) bool { return true })))
	case onURL && !stats.PerURL(m):
		return m, written, s.errAt(col, fmt.Sprintf("%s is not kept per URL; use %s", written, stats.FigureNames(stats.PerURL)))
	case !onURL && !stats.PerRun(m):
		return m, written, s.errAt(col, fmt.Sprintf("%s is kept only per URL; add a selector, as in url:/path %s>0", written, written))
	}
	return m, written, nil
}

// percentile reads the (N) of p(N), the p read already, and checks N: above 0 and at most 100.
func (s *gateScanner) percentile() error {
	s.advance(1) // (
	col := s.col
	n := s.take(func(r rune) bool { return r == '.' || ('0' <= r && r <= '9') })
	if n == "" {
		return s.errAt(col, "expected a percentile after p(, such as p(99.5)")
	}
	if _, _, err := stats.ParsePercentileNumber(n); err != nil {
		return s.errAt(col, err.Error())
	}
	if s.peek() != ')' {
		return s.errAt(s.col, "expected ) after p("+n)
	}
	s.advance(1)
	return nil
}

// isGateMetricRune takes '/' for the per-transaction figures (q/t, rows/t).
func isGateMetricRune(r rune) bool {
	return r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '/')
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
func (s *gateScanner) limit(m stats.Figure, written string) (float64, error) {
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
	switch m.Kind {
	case stats.FigureTime:
		if unit == "" {
			return 0, s.errAt(end, "expected a unit (us, ms, s or m) after the number")
		}
		u, ok := gateTimeUnits[strings.ToLower(unit)]
		if !ok {
			return 0, s.errAt(unitCol, fmt.Sprintf("unknown unit %q for %s (want us, ms, s or m)", unit, written))
		}
		v = v * u.num / u.den
	case stats.FigurePercent:
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
