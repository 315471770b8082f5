package gate

import (
	"math"
	"strings"
	"testing"

	"github.com/webload/webload/internal/gatetest"
	"github.com/webload/webload/stats"
)

// parseCase is one expression and what ParseGate must make of it: a gate, or an error message
// at a column.
type parseCase struct {
	name string
	expr string
	want Gate // Expr is filled in from expr
	msg  string
	col  int
}

// parseCases is a function, not a table in a variable, so tests cannot share mutable state; the
// fuzz test seeds its corpus from it.
func parseCases() []parseCase {
	g := func(url, metric, op string, v float64) Gate {
		return Gate{URL: url, Metric: metric, Op: op, Value: v}
	}
	allMetrics := "availability, error_rate, transactions, successful, failed, requests, elapsed, rtime, trate, " +
		"throughput, concurrency, longest, shortest, p50, p90, p95, p99, p99.9, max, capacity, la, mem, qps, q/t, slow, rows/t, buffer_hit_ratio, deadlocks, bytes, extract_failures, login_failures, users_never_logged_in or p(N)"
	urlMetrics := "availability, error_rate, transactions, failed, rtime, p50, p90, p95, p99, p99.9, max, bytes, extract_failures or p(N)"
	return []parseCase{
		// every metric and alias
		{name: "availability", expr: "availability>=99.9", want: g("", "availability", ">=", 99.9)},
		{name: "queries per transaction", expr: "q/t<20", want: g("", "q/t", "<", 20)},
		{name: "queries per transaction alias", expr: "QT <= 4.5", want: g("", "q/t", "<=", 4.5)},
		{name: "rows per transaction", expr: "rows/t<100", want: g("", "rows/t", "<", 100)},
		{name: "slow queries", expr: "slow_queries==0", want: g("", "slow", "==", 0)},
		{name: "hit ratio", expr: "buffer_hit_ratio>=99%", want: g("", "buffer_hit_ratio", ">=", 99)},
		{name: "a slash alone is no metric", expr: "q/<1", col: 1, msg: `unknown metric "q/" (want ` + allMetrics + ")"},
		{name: "availability percent", expr: "availability>=99.9%", want: g("", "availability", ">=", 99.9)},
		{name: "error_rate", expr: "error_rate<1", want: g("", "error_rate", "<", 1)},
		{name: "error_rate percent", expr: "error_rate < 0.5 %", want: g("", "error_rate", "<", 0.5)},
		{name: "transactions", expr: "transactions>=10", want: g("", "transactions", ">=", 10)},
		{name: "trans", expr: "trans>=10", want: g("", "transactions", ">=", 10)},
		{name: "hits", expr: "hits>=10", want: g("", "transactions", ">=", 10)},
		{name: "successful", expr: "successful>0", want: g("", "successful", ">", 0)},
		{name: "ok", expr: "ok>0", want: g("", "successful", ">", 0)},
		{name: "failed", expr: "failed==0", want: g("", "failed", "==", 0)},
		{name: "failures", expr: "failures==0", want: g("", "failed", "==", 0)},
		{name: "requests", expr: "requests>100", want: g("", "requests", ">", 100)},
		{name: "elapsed", expr: "elapsed>=30s", want: g("", "elapsed", ">=", 30)},
		{name: "etime", expr: "etime>=1m", want: g("", "elapsed", ">=", 60)},
		{name: "rtime", expr: "rtime<250ms", want: g("", "rtime", "<", 0.25)},
		{name: "response_time", expr: "response_time<250ms", want: g("", "rtime", "<", 0.25)},
		{name: "mean", expr: "mean<250ms", want: g("", "rtime", "<", 0.25)},
		{name: "trate", expr: "trate>=100", want: g("", "trate", ">=", 100)},
		{name: "transaction_rate", expr: "transaction_rate>=100.5", want: g("", "trate", ">=", 100.5)},
		{name: "throughput", expr: "throughput>1.5", want: g("", "throughput", ">", 1.5)},
		{name: "concurrency", expr: "concurrency<=50", want: g("", "concurrency", "<=", 50)},
		{name: "conc", expr: "conc<=50", want: g("", "concurrency", "<=", 50)},
		{name: "longest", expr: "longest<2s", want: g("", "longest", "<", 2)},
		{name: "shortest", expr: "shortest>100us", want: g("", "shortest", ">", 100.0/1e6)},
		{name: "p50", expr: "p50<1ms", want: g("", "p50", "<", 0.001)},
		{name: "p90", expr: "p90<500ms", want: g("", "p90", "<", 0.5)},
		{name: "p95", expr: "p95<800ms", want: g("", "p95", "<", 0.8)},
		{name: "p99", expr: "p99<2s", want: g("", "p99", "<", 2)},
		{name: "p99.9", expr: "p99.9<5s", want: g("", "p99.9", "<", 5)},
		{name: "max", expr: "max<1m", want: g("", "max", "<", 60)},
		{name: "metric in capitals", expr: "P95<800ms", want: g("", "p95", "<", 0.8)},

		// any percentile, written p(N) as k6 writes it
		{name: "p(99.5)", expr: "p(99.5)<1s", want: g("", "p(99.5)", "<", 1)},
		{name: "p(75)", expr: "p(75) <= 300ms", want: g("", "p(75)", "<=", 0.3)},
		{name: "p(99.99)", expr: "P(99.99)<2s", want: g("", "p(99.99)", "<", 2)},
		{name: "p(0.5)", expr: "p(.5)>1ms", want: g("", "p(0.5)", ">", 0.001)},
		{name: "p(95) is p95", expr: "p(95)<800ms", want: g("", "p95", "<", 0.8)},
		{name: "p(99.9) is p99.9", expr: "p(99.90)<5s", want: g("", "p99.9", "<", 5)},
		{name: "p(100) is max", expr: "p(100)<1m", want: g("", "max", "<", 60)},
		{name: "url p(99.5)", expr: "url:/checkout p(99.5)<2s", want: g("/checkout", "p(99.5)", "<", 2)},
		{name: "url p90", expr: "url:/x p90<1s", want: g("/x", "p90", "<", 1)},
		{name: "url p99.9", expr: "url:/x p99.9<1s", want: g("/x", "p99.9", "<", 1)},
		{name: "p(0)", expr: "p(0)<1s", msg: "p(0): a percentile is above 0 and at most 100", col: 3},
		{name: "p(101)", expr: "p(101)<1s", msg: "p(101): a percentile is above 0 and at most 100", col: 3},
		{name: "p(100.01)", expr: "url:/x p(100.01)<1s", msg: "p(100.01): a percentile is above 0 and at most 100", col: 10},
		{name: "p(abc)", expr: "p(abc)<1s", msg: "expected a percentile after p(, such as p(99.5)", col: 3},
		{name: "p()", expr: "p()<1s", msg: "expected a percentile after p(, such as p(99.5)", col: 3},
		{name: "p(-5)", expr: "p(-5)<1s", msg: "expected a percentile after p(, such as p(99.5)", col: 3},
		{name: "p(1.2.3)", expr: "p(1.2.3)<1s", msg: "p(1.2.3): want a percentile such as p(99.5)", col: 3},
		{name: "p(1e2)", expr: "p(1e2)<1s", msg: "expected ) after p(1", col: 4},
		{name: "p( 95)", expr: "p( 95)<1s", msg: "expected a percentile after p(, such as p(99.5)", col: 3},
		{name: "p(99.5 unclosed", expr: "p(99.5", msg: "expected ) after p(99.5", col: 7},
		{name: "p(75) without unit", expr: "p(75)<300", msg: "expected a unit (us, ms, s or m) after the number", col: 10},
		{name: "p75 without parentheses", expr: "p75<1s", msg: `unknown metric "p75": write p(75) for that percentile`, col: 1},
		{name: "p99.5 without parentheses", expr: "url:/x P99.5<1s", msg: `unknown metric "P99.5": write p(99.5) for that percentile`, col: 8},
		{name: "p999 is no percentile", expr: "p999<1s", msg: `unknown metric "p999" (want ` + allMetrics + ")", col: 1},
		{name: "alias in mixed case", expr: "Trans>=10", want: g("", "transactions", ">=", 10)},

		// every operator
		{name: "op <", expr: "p95<1s", want: g("", "p95", "<", 1)},
		{name: "op <=", expr: "p95<=1s", want: g("", "p95", "<=", 1)},
		{name: "op >", expr: "p95>1s", want: g("", "p95", ">", 1)},
		{name: "op >=", expr: "p95>=1s", want: g("", "p95", ">=", 1)},
		{name: "op ==", expr: "failed==3", want: g("", "failed", "==", 3)},
		{name: "op !=", expr: "failed!=3", want: g("", "failed", "!=", 3)},
		{name: "op = means ==", expr: "failed=3", want: g("", "failed", "==", 3)},

		// every unit
		{name: "unit us", expr: "p50<250us", want: g("", "p50", "<", 250/1e6)},
		{name: "unit micro sign", expr: "p50<250µs", want: g("", "p50", "<", 250/1e6)},
		{name: "unit greek mu", expr: "p50<250μs", want: g("", "p50", "<", 250/1e6)},
		{name: "unit ms", expr: "p50<250ms", want: g("", "p50", "<", 0.25)},
		{name: "unit s", expr: "p50<0.25s", want: g("", "p50", "<", 0.25)},
		{name: "unit m", expr: "p50<1.5m", want: g("", "p50", "<", 90)},
		{name: "unit in capitals", expr: "p50<250MS", want: g("", "p50", "<", 0.25)},
		{name: "unit percent", expr: "availability>99%", want: g("", "availability", ">", 99)},

		// numbers
		{name: "leading dot", expr: "p50<.5s", want: g("", "p50", "<", 0.5)},
		{name: "trailing dot", expr: "failed<5.", want: g("", "failed", "<", 5)},
		{name: "zero", expr: "failed==0", want: g("", "failed", "==", 0)},

		// whitespace
		{name: "spaces around op", expr: "p95 < 800ms", want: g("", "p95", "<", 0.8)},
		{name: "space before unit", expr: "p95<800 ms", want: g("", "p95", "<", 0.8)},
		{name: "tabs everywhere", expr: "\tp95\t<=\t800\tms\t", want: g("", "p95", "<=", 0.8)},
		{name: "url with spaces", expr: " url:/x  p99<2s ", want: g("/x", "p99", "<", 2)},

		// url gates and every per-URL metric
		{name: "url p99", expr: "url:/checkout p99<2s", want: g("/checkout", "p99", "<", 2)},
		{name: "url absolute", expr: "url:http://h:8080/checkout?x=1 p95<1s", want: g("http://h:8080/checkout?x=1", "p95", "<", 1)},
		{name: "url in capitals", expr: "URL:/x hits>=1", want: g("/x", "transactions", ">=", 1)},
		{name: "url transactions", expr: "url:/x transactions>=1", want: g("/x", "transactions", ">=", 1)},
		{name: "url failed", expr: "url:/x failed==0", want: g("/x", "failed", "==", 0)},
		{name: "url failures", expr: "url:/x failures==0", want: g("/x", "failed", "==", 0)},
		{name: "url availability", expr: "url:/x availability>=99.5%", want: g("/x", "availability", ">=", 99.5)},
		{name: "url error_rate", expr: "url:/x error_rate<1", want: g("/x", "error_rate", "<", 1)},
		{name: "url rtime", expr: "url:/x rtime<100ms", want: g("/x", "rtime", "<", 0.1)},
		{name: "url mean", expr: "url:/x mean<100ms", want: g("/x", "rtime", "<", 0.1)},
		{name: "url p50", expr: "url:/x p50<100ms", want: g("/x", "p50", "<", 0.1)},
		{name: "url p95", expr: "url:/x p95<100ms", want: g("/x", "p95", "<", 0.1)},
		{name: "url max", expr: "url:/x max<1s", want: g("/x", "max", "<", 1)},
		{name: "url bytes", expr: "url:/x bytes>0", want: g("/x", "bytes", ">", 0)},

		// errors
		{name: "empty", expr: "", msg: "empty expression", col: 1},
		{name: "only spaces", expr: "   ", msg: "empty expression", col: 1},
		{name: "no metric", expr: "<5", msg: "expected a metric, such as p95 or availability", col: 1},
		{name: "non-ASCII metric", expr: "µp95<1s", msg: "expected a metric, such as p95 or availability", col: 1},
		{name: "unknown metric", expr: "speed<1s", msg: `unknown metric "speed" (want ` + allMetrics + ")", col: 1},
		{name: "columns count runes", expr: "url:/ü sp<1s", msg: `unknown metric "sp" (want ` + allMetrics + ")", col: 8},
		{name: "missing op", expr: "p95", msg: "expected an operator (<, <=, >, >=, == or !=) after p95", col: 4},
		{name: "missing op before number", expr: "p95 800ms", msg: "expected an operator (<, <=, >, >=, == or !=) after p95", col: 5},
		{name: "bang alone", expr: "failed ! 0", msg: "expected an operator (<, <=, >, >=, == or !=) after failed", col: 8},
		{name: "missing number", expr: "p95<", msg: "expected a number", col: 5},
		{name: "doubled op", expr: "p95<<800ms", msg: "expected a number", col: 5},
		{name: "dot alone", expr: "p95<.s", msg: "expected a number", col: 5},
		{name: "plus sign", expr: "failed<+1", msg: "expected a number", col: 8},
		{name: "negative number", expr: "p95<-800ms", msg: "negative limit: p95 is never below 0", col: 5},
		{name: "negative after space", expr: "failed >= -1", msg: "negative limit: failed is never below 0", col: 11},
		{name: "malformed number", expr: "p95<1.2.3s", msg: `malformed number "1.2.3"`, col: 5},
		{name: "number too big", expr: "p95<" + "17" + strings.Repeat("0", 307) + "m", msg: "number 17" + strings.Repeat("0", 307) + " is out of range", col: 5},
		{name: "number beyond float64", expr: "failed<1" + strings.Repeat("0", 400), msg: "number 1" + strings.Repeat("0", 400) + " is out of range", col: 8},
		{name: "time without unit", expr: "p95<800", msg: "expected a unit (us, ms, s or m) after the number", col: 8},
		{name: "time without unit, space", expr: "p95 < 800 ", msg: "expected a unit (us, ms, s or m) after the number", col: 10},
		{name: "unit on a count", expr: "failed==0ms", msg: `failed takes no unit, got "ms"`, col: 10},
		{name: "unit on a rate", expr: "trate >= 100 rps", msg: `trate takes no unit, got "rps"`, col: 14},
		{name: "percent on a count", expr: "hits>5%", msg: `hits takes no unit, got "%"`, col: 7},
		{name: "unit on availability", expr: "availability>99ms", msg: `availability takes no unit but %, got "ms"`, col: 16},
		{name: "unknown unit", expr: "p95<800ks", msg: `unknown unit "ks" for p95 (want us, ms, s or m)`, col: 8},
		{name: "percent on a time", expr: "p95<80%", msg: `unknown unit "%" for p95 (want us, ms, s or m)`, col: 7},
		{name: "trailing garbage", expr: "p95<800ms x", msg: `unexpected "x" after the limit`, col: 11},
		{name: "trailing symbols", expr: "trate>=100/s", msg: `unexpected "/s" after the limit`, col: 11},
		{name: "url without metric", expr: "url:/x", msg: "expected a metric after url:/x", col: 7},
		{name: "url without metric, spaces", expr: "url:/x   ", msg: "expected a metric after url:/x", col: 10},
		{name: "url without selector", expr: "url: p95<1s", msg: "expected a URL or path after url:", col: 5},
		{name: "url glued to metric", expr: "url:/xp95<1s", msg: "expected a metric after url:/xp95<1s", col: 13},
		{name: "alias not kept per URL", expr: "url:/x etime<1s", msg: "etime is not kept per URL; use " + urlMetrics, col: 8},
		{name: "bytes without url", expr: "bytes>0", msg: "bytes is kept only per URL; add a selector, as in url:/path bytes>0", col: 1},
	}
}

func TestParseGate(t *testing.T) {
	t.Parallel()
	for _, c := range parseCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseGate(c.expr)
			if c.msg == "" {
				want := c.want
				want.Expr = c.expr
				if err != nil || got != want {
					t.Fatalf("ParseGate(%q) = %+v, %v; want %+v", c.expr, got, err, want)
				}
				return
			}
			ge, ok := err.(*GateError)
			if !ok {
				t.Fatalf("ParseGate(%q) = %+v, %v; want a *GateError", c.expr, got, err)
			}
			if ge.Msg != c.msg || ge.Column != c.col || ge.Expr != c.expr {
				t.Fatalf("ParseGate(%q) error at column %d: %q; want column %d: %q", c.expr, ge.Column, ge.Msg, c.col, c.msg)
			}
			if got != (Gate{}) {
				t.Errorf("ParseGate(%q) returned %+v with its error; want the zero Gate", c.expr, got)
			}
		})
	}
}

func TestGateErrorText(t *testing.T) {
	t.Parallel()
	_, err := ParseGate("p95<<800ms")
	want := `bad gate "p95<<800ms": at column 5: expected a number`
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v; want %s", err, want)
	}
}

func TestCheckGates(t *testing.T) {
	t.Parallel()
	const get, post = "GET http://shop.test:8080/checkout?step=1", "POST http://shop.test:8080/checkout"
	const both = " (worst of 2 matching URLs)"
	cases := []struct {
		name     string
		expr     string
		passed   bool
		measured float64 // NaN: not measured
		text     string
	}{
		{"availability fails", "availability>=99.9", false, 99, "availability = 99.000 %, allowed >= 99.9 %: FAILED"},
		{"availability holds", "availability>=99", true, 99, "availability = 99.000 %, allowed >= 99 %: ok"},
		{"error rate", "error_rate<0.5%", false, 1, "error_rate = 1.000 %, allowed < 0.5 %: FAILED"},
		{"p95 fails", "p95<800ms", false, 0.812345, "p95 = 812.345 ms, allowed < 800 ms: FAILED"},
		{"p95 holds", "p95 < 1s", true, 0.812345, "p95 = 812.345 ms, allowed < 1000 ms: ok"},
		{"at the limit, <= holds", "p99.9<=10s", true, 10, "p99.9 = 10.000 s, allowed <= 10 s: ok"},
		{"at the limit, < fails", "p99.9<10s", false, 10, "p99.9 = 10.000 s, allowed < 10 s: FAILED"},
		{"at the limit, > fails", "failed>10", false, 10, "failed = 10, allowed > 10: FAILED"},
		{"at the limit, >= holds", "failed>=10", true, 10, "failed = 10, allowed >= 10: ok"},
		{"long time in seconds", "max<=15s", true, 12.5, "max = 12.500 s, allowed <= 15 s: ok"},
		{"elapsed", "etime>=1m", false, 30, "elapsed = 30.000 s, allowed >= 60 s: FAILED"},
		{"shortest", "shortest>1ms", true, 0.002, "shortest = 2.000 ms, allowed > 1 ms: ok"},
		{"rtime", "rtime<200ms", false, 0.25, "rtime = 250.000 ms, allowed < 200 ms: FAILED"},
		{"rate rounding hides the miss", "trate>=100", false, 99.996, "trate = 99.996 trans/sec, allowed >= 100 trans/sec: FAILED"},
		{"rate rounded", "trate>=99", true, 99.996, "trate = 100.00 trans/sec, allowed >= 99 trans/sec: ok"},
		{"throughput", "throughput>2", false, 1.5, "throughput = 1.50 MB/sec, allowed > 2 MB/sec: FAILED"},
		{"concurrency", "conc<10", true, 8.25, "concurrency = 8.25, allowed < 10: ok"},
		{"failed", "failed==0", false, 10, "failed = 10, allowed == 0: FAILED"},
		{"failed not", "failures!=0", true, 10, "failed = 10, allowed != 0: ok"},
		{"requests", "requests=1000", true, 1000, "requests = 1000, allowed == 1000: ok"},
		{"successful", "ok>=990", false, 980, "successful = 980, allowed >= 990: FAILED"},
		{"transactions", "hits>900", true, 990, "transactions = 990, allowed > 900: ok"},

		{"url one match by path and query", "url:/checkout?step=1 p99<1s", true, 0.9,
			"p99 of " + get + " = 900.000 ms, allowed < 1000 ms: ok"},
		{"url one match by absolute URL", "url:http://shop.test:8080/checkout failed==0", false, 10,
			"failed of " + post + " = 10, allowed == 0: FAILED"},
		{"url both fail on the worst", "url:/checkout p99<2s", false, 2.1,
			"p99 of " + post + both + " = 2100.000 ms, allowed < 2000 ms: FAILED"},
		{"url both hold", "url:/checkout p99<3s", true, 2.1,
			"p99 of " + post + both + " = 2100.000 ms, allowed < 3000 ms: ok"},
		{"url lower bound takes the min", "url:/checkout hits>=500", false, 390,
			"transactions of " + post + both + " = 390, allowed >= 500: FAILED"},
		{"url availability", "url:/checkout availability>=99", false, 97.5,
			"availability of " + post + both + " = 97.500 %, allowed >= 99 %: FAILED"},
		{"url error rate", "url:/checkout error_rate<5%", true, 2.5,
			"error_rate of " + post + both + " = 2.500 %, allowed < 5 %: ok"},
		{"url mean", "url:/checkout mean<250ms", false, 0.4,
			"rtime of " + post + both + " = 400.000 ms, allowed < 250 ms: FAILED"},
		{"url max in seconds", "url:/checkout max<13s", true, 12.5,
			"max of " + post + both + " = 12.500 s, allowed < 13 s: ok"},
		{"url == takes the furthest", "url:/checkout bytes==0", false, 6000,
			"bytes of " + get + both + " = 6000 bytes, allowed == 0 bytes: FAILED"},
		{"url == takes the furthest, second", "url:/checkout bytes==6000", false, 0,
			"bytes of " + post + both + " = 0 bytes, allowed == 6000 bytes: FAILED"},
		{"url != takes the nearest", "url:/checkout bytes!=6000", false, 6000,
			"bytes of " + get + both + " = 6000 bytes, allowed != 6000 bytes: FAILED"},
		{"url != takes the nearest, second", "url:/checkout bytes!=0", false, 0,
			"bytes of " + post + both + " = 0 bytes, allowed != 0 bytes: FAILED"},
		{"url tie names the first", "url:/checkout p95<1s", false, 1.1,
			"p95 of " + get + both + " = 1100.000 ms, allowed < 1000 ms: FAILED"},
		{"url no match", " url:/nope  p99<2s ", false, math.NaN(),
			"url:/nope  p99<2s: no URL in the run matches /nope: FAILED"},
	}
	gates := make([]Gate, len(cases))
	for i, c := range cases {
		g, err := ParseGate(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		gates[i] = g
	}
	results := CheckGates(gatetest.Report(), gates)
	if len(results) != len(cases) {
		t.Fatalf("got %d results for %d gates", len(results), len(cases))
	}
	for i, c := range cases {
		r := results[i]
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if r.Check != strings.TrimSpace(c.expr) || r.Figure != gates[i].Metric {
				t.Errorf("result %d is for %q (%s); want %q (%s)", i, r.Check, r.Figure, strings.TrimSpace(c.expr), gates[i].Metric)
			}
			if r.Passed != c.passed || r.Text != c.text {
				t.Errorf("%q: passed %v, %q; want %v, %q", c.expr, r.Passed, r.Text, c.passed, c.text)
			}
			if !sameMeasure(r.Measured, c.measured) {
				t.Errorf("%q: measured %v; want %v", c.expr, r.Measured, c.measured)
			}
		})
	}
}

// sameMeasure allows float rounding in percentages computed from counts, and NaN for NaN.
func sameMeasure(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

// TestCheckGatesBadGates feeds gates that ParseGate would refuse, as a caller building them by
// hand might: each must fail with its reason, never pass or panic.
func TestCheckGatesBadGates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		rep  *stats.Report
		gate Gate
		text string
	}{
		{"no report", nil, Gate{Expr: "p95<1s", Metric: "p95", Op: "<", Value: 1}, "p95<1s: no report to check: FAILED"},
		{"unknown metric", gatetest.Report(), Gate{Metric: "nope", Op: "<", Value: 1}, `nope<1: unknown metric "nope": FAILED`},
		{"unknown op", gatetest.Report(), Gate{Metric: "p95", Op: "~", Value: 1}, `p95~1s: unknown operator "~": FAILED`},
		{"run metric per URL", gatetest.Report(), Gate{URL: "/checkout", Metric: "elapsed", Op: "<", Value: 1},
			"url:/checkout elapsed<1s: elapsed is not kept per URL: FAILED"},
		{"URL metric on the run", gatetest.Report(), Gate{Metric: "bytes", Op: ">", Value: 0},
			"bytes>0: bytes is kept only per URL: FAILED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := CheckGates(c.rep, []Gate{c.gate})[0]
			if r.Passed || !math.IsNaN(r.Measured) || r.Text != c.text {
				t.Errorf("got passed %v, measured %v, %q; want failed, NaN, %q", r.Passed, r.Measured, r.Text, c.text)
			}
		})
	}
}

func TestGateSelects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		selector string
		url      string
		want     bool
	}{
		{"absolute", "http://h/a?x=1", "http://h/a?x=1", true},
		{"path and query", "/a?x=1", "http://h/a?x=1", true},
		{"path without query", "/a", "http://h/a?x=1", true},
		{"other query", "/a?x=2", "http://h/a?x=1", false},
		{"prefix is not a match", "/a", "http://h/ab", false},
		{"host only is /", "/", "http://h:8080", true},
		{"port matters", "http://h/a", "http://h:8080/a", false},
		{"path with port", "/a", "https://h:8443/a", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := gateSelects(c.selector, c.url); got != c.want {
				t.Errorf("gateSelects(%q, %q) = %v; want %v", c.selector, c.url, got, c.want)
			}
		})
	}
}

// A gate's verdict rests on the transactions for a latency, on the transactions and failures
// for the others; a url: gate on the fewest of the URLs it selects.
func TestGateSamples(t *testing.T) {
	t.Parallel()
	rep := &stats.Report{Transactions: 90, FailedTransactions: 10, URLs: []stats.URLStats{
		{Method: "GET", URL: "http://h/a", Hits: 60, Failures: 2},
		{Method: "POST", URL: "http://h/a", Hits: 20, Failures: 8},
		{Method: "GET", URL: "http://h/b", Hits: 10},
	}}
	for _, tc := range []struct {
		expr string
		want int64
	}{
		{"p95<1s", 90}, {"error_rate<1", 100}, {"availability>99", 100},
		{"url:/a p95<1s", 20}, {"url:/a error_rate<1", 28}, {"url:/b max<1s", 10}, {"url:/c p95<1s", 0},
	} {
		g, err := ParseGate(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Samples(rep); got != tc.want {
			t.Errorf("%s: %d samples, want %d", tc.expr, got, tc.want)
		}
	}
}
