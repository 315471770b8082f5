package gate

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// discard is the end of a sink chain in tests that only read a Window.
type discard struct{ n int }

func (d *discard) Record(batch []loader.Result) { d.n += len(batch) }

// ended is a request that ended at end (from the run's start) after taking rt, with status.
func ended(end, rt time.Duration, status uint16) loader.Result {
	return loader.Result{Intended: end - rt, Start: end - rt, Latency: rt, Status: status}
}

// evenly is n requests ending evenly over [from, to), each taking rt and answering status.
func evenly(n int, from, to, rt time.Duration, status uint16) []loader.Result {
	out := make([]loader.Result, n)
	for i := range out {
		out[i] = ended(from+(to-from)*time.Duration(i)/time.Duration(n), rt, status)
	}
	return out
}

func mustLiveGates(t *testing.T, exprs ...string) []Gate {
	t.Helper()
	var gates []Gate
	for _, e := range exprs {
		g, err := ParseLiveGate(e)
		if err != nil {
			t.Fatalf("ParseLiveGate(%q): %v", e, err)
		}
		gates = append(gates, g)
	}
	return gates
}

func TestWindowFires(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	fast := 10 * ms
	tests := []struct {
		name    string
		width   time.Duration
		gates   []string
		batches [][]loader.Result
		at      time.Duration
		fire    bool
		gate    string
		value   float64
	}{
		{name: "healthy server", width: 2 * time.Second, gates: []string{"p95>1s", "error_rate>5"},
			batches: [][]loader.Result{evenly(400, 0, 4*time.Second, fast, 200)}, at: 4 * time.Second},
		{name: "stall: slow answers in the window", width: 2 * time.Second, gates: []string{"p95>1s"},
			batches: [][]loader.Result{evenly(100, 0, 2*time.Second, fast, 200), evenly(30, 2*time.Second, 4*time.Second, 3*time.Second, 200)},
			at:      4 * time.Second, fire: true, gate: "p95>1s", value: 3},
		{name: "slow answers that left the window", width: 2 * time.Second, gates: []string{"p95>1s"},
			batches: [][]loader.Result{evenly(30, 0, 2*time.Second, 3*time.Second, 200), evenly(100, 2*time.Second, 5*time.Second, fast, 200)},
			at:      5 * time.Second},
		{name: "5xx turn the error rate", width: 2 * time.Second, gates: []string{"p95>1s", "error_rate>5"},
			batches: [][]loader.Result{evenly(100, 0, time.Second, fast, 200), evenly(100, time.Second, 2*time.Second, fast, 500)},
			at:      2 * time.Second, fire: true, gate: "error_rate>5", value: 100.0 / 180 * 100}, // 0.2 s to 2 s: 80 answers and 100 failures
		{name: "only failures: no response times to judge", width: 2 * time.Second, gates: []string{"p95>1s"},
			batches: [][]loader.Result{evenly(100, 0, 2*time.Second, 3*time.Second, 503)}, at: 2 * time.Second},
		{name: "a slow first request before the window is full", width: 10 * time.Second, gates: []string{"p95>1s"},
			batches: [][]loader.Result{{ended(3*time.Second, 3*time.Second, 200)}}, at: 3 * time.Second},
		{name: "few slow answers once the window is full", width: 2 * time.Second, gates: []string{"p95>1s"},
			batches: [][]loader.Result{evenly(3, 3*time.Second, 4*time.Second, 3*time.Second, 200)},
			at:      4 * time.Second, fire: true, gate: "p95>1s", value: 3},
		{name: "transaction rate too low", width: time.Second, gates: []string{"trate<50"},
			batches: [][]loader.Result{evenly(30, 0, 2*time.Second, fast, 200)}, at: 2 * time.Second,
			fire: true, gate: "trate<50", value: 13 / 0.9}, // 1.1 s to 2 s
		{name: "the first gate that holds fires", width: time.Second, gates: []string{"error_rate>5", "p50>=5ms"},
			batches: [][]loader.Result{evenly(50, 0, time.Second, fast, 200)}, at: time.Second,
			fire: true, gate: "p50>=5ms", value: 0.01},
		{name: "any percentile, from the window's histogram", width: 2 * time.Second, gates: []string{"p(60)>1s", "p(75)>1s"},
			batches: [][]loader.Result{evenly(70, 0, 2*time.Second, fast, 200), evenly(30, 0, 2*time.Second, 3*time.Second, 200)},
			at:      2 * time.Second, fire: true, gate: "p(75)>1s", value: 3},
		{name: "a percentile below the slow part", width: 2 * time.Second, gates: []string{"p(60)>1s", "p(99.5)<5ms"},
			batches: [][]loader.Result{evenly(70, 0, 2*time.Second, fast, 200), evenly(30, 0, 2*time.Second, 3*time.Second, 200)},
			at:      2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			next := &discard{}
			w := NewWindow(next, tt.width)
			sent := 0
			for _, b := range tt.batches {
				w.Record(b)
				sent += len(b)
			}
			if next.n != sent {
				t.Fatalf("next got %d results, want %d", next.n, sent)
			}
			a, fired := w.Fired(mustLiveGates(t, tt.gates...), tt.at)
			if fired != tt.fire {
				rep, ready := w.Figures(tt.at)
				t.Fatalf("fired = %v (%+v), want %v; window ready %v: %d requests, p95 %.3f s, error rate %.1f %%",
					fired, a, tt.fire, ready, rep.Requests, rep.Percentiles.P95, 100-rep.Availability)
			}
			if !fired {
				return
			}
			if a.Gate != tt.gate || !near(a.Value, tt.value, 0.02) || a.At != tt.at.Seconds() || a.Window != tt.width.Seconds() {
				t.Errorf("fired %+v; want gate %s at %v with value %v over %v", a, tt.gate, tt.at, tt.value, tt.width)
			}
		})
	}
}

// near tells whether got is within rel (a fraction) of want.
func near(got, want, rel float64) bool {
	d := got - want
	return d <= rel*want && -d <= rel*want
}

// A browser-like visit hands over its requests when the page is loaded: with the run's clock,
// a slow page request that arrives after it has left the window by its end still counts.
func TestWindowCountsLateArrivals(t *testing.T) {
	t.Parallel()
	gates := mustLiveGates(t, "p95>500ms")
	for _, clock := range []bool{false, true} {
		w := NewWindow(&discard{}, 2*time.Second)
		if clock {
			w.SetClock(func() time.Duration { return 7 * time.Second })
		}
		// 25 requests of 3 s that ended at 1-2 s, handed over at 7 s.
		w.Record(evenly(25, time.Second, 2*time.Second, 3*time.Second, 200))
		if _, fired := w.Fired(gates, 7*time.Second); fired != clock {
			t.Errorf("with the clock %v: fired %v", clock, fired)
		}
	}
}

func TestWindowFigures(t *testing.T) {
	t.Parallel()
	w := NewWindow(&discard{}, 2*time.Second)
	w.Record(evenly(10, 0, time.Second, 100*time.Millisecond, 200)) // leaves the window by 3.5 s
	w.Record(evenly(60, 2*time.Second, 3*time.Second, 20*time.Millisecond, 200))
	w.Record(evenly(20, 3*time.Second, 3500*time.Millisecond, 40*time.Millisecond, 500))
	rep, ready := w.Figures(3500 * time.Millisecond)
	if !ready {
		t.Fatal("window not ready with 80 requests")
	}
	if rep.Requests != 80 || rep.Transactions != 60 || rep.FailedTransactions != 20 || rep.SuccessfulTransactions != 60 {
		t.Errorf("requests %d transactions %d failed %d ok %d; want 80 60 20 60", rep.Requests, rep.Transactions, rep.FailedTransactions, rep.SuccessfulTransactions)
	}
	if rep.Availability != 75 || !near(rep.ResponseTime, 0.020, 1e-9) || !near(rep.Percentiles.P95, 0.020, 0.01) || rep.Percentiles.Max != 0.020 {
		t.Errorf("availability %v, rtime %v, p95 %v, max %v; want 75, 0.020, 0.020, 0.020", rep.Availability, rep.ResponseTime, rep.Percentiles.P95, rep.Percentiles.Max)
	}
	// The window covers 1.6 s to 3.5 s: ten slots of 0.2 s, the last one in progress.
	if !near(rep.TransactionRate, 60/1.9, 1e-9) {
		t.Errorf("trate %v; want %v", rep.TransactionRate, 60/1.9)
	}
}

func TestParseLiveGate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr, metric string
		value        float64
		err          string
	}{
		{expr: "p95>2s", metric: "p95", value: 2},
		{expr: "error_rate>5", metric: "error_rate", value: 5},
		{expr: "error_rate > 5%", metric: "error_rate", value: 5},
		{expr: "TRate<10", metric: "trate", value: 10},
		{expr: "mean>800ms", metric: "rtime", value: 0.8},
		{expr: "p(99.5)>2s", metric: "p(99.5)", value: 2},
		{expr: "p(95)>2s", metric: "p95", value: 2},
		{expr: "url:/checkout p(75)>1s", err: "not on url:/checkout"},
		{expr: "p(0)>1s", err: "a percentile is above 0 and at most 100"},
		{expr: "mem>100", err: "mem is not measured during the run; use availability, error_rate, transactions, successful, failed, requests, rtime, trate, longest, p50, p90, p95, p99, p99.9, max or p(N)"},
		{expr: "url:/checkout p95>1s", err: "not on url:/checkout"},
		{expr: "la>4", err: "la is not measured during the run; use availability, error_rate"},
		{expr: "throughput<1", err: "throughput is not measured during the run"},
		{expr: "p95>>1s", err: "at column 5"},
		{expr: "", err: "empty expression"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			t.Parallel()
			g, err := ParseLiveGate(tt.expr)
			if tt.err != "" {
				var ge *GateError
				if !errors.As(err, &ge) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseLiveGate(%q) = %+v, %v; want a *GateError with %q", tt.expr, g, err, tt.err)
				}
				return
			}
			if err != nil || g.Metric != tt.metric || g.Value != tt.value || g.Expr != tt.expr {
				t.Fatalf("ParseLiveGate(%q) = %+v, %v; want %s %v", tt.expr, g, err, tt.metric, tt.value)
			}
		})
	}
}

func TestAbortString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a    stats.Abort
		want string
	}{
		{stats.Abort{Gate: "p95>1s", Value: 2.9914, At: 5.31, Window: 2}, "--abort-on p95>1s: p95 was 2991.400 ms over the last 2s, at 5.3 s into the run"},
		{stats.Abort{Gate: "error_rate>5", Value: 50, At: 2, Window: 10}, "--abort-on error_rate>5: error_rate was 50.000 % over the last 10s, at 2.0 s into the run"},
		{stats.Abort{Gate: "P(99.5)>1s", Value: 2, At: 3, Window: 2}, "--abort-on P(99.5)>1s: p(99.5) was 2000.000 ms over the last 2s, at 3.0 s into the run"},
	}
	for _, tt := range tests {
		if got := AbortText(tt.a); got != tt.want {
			t.Errorf("String() =\n%s\nwant\n%s", got, tt.want)
		}
	}
}

// FuzzParseLiveGate checks that a live gate is an --assert gate: whatever ParseLiveGate takes,
// ParseGate takes the same way, and its errors point inside the expression.
func FuzzParseLiveGate(f *testing.F) {
	for _, s := range []string{"p95>2s", "error_rate>5", "url:/a p95>1s", "la>4", "trate < 10", "", "p(99.5)>1s", "p(0)>1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		g, err := ParseLiveGate(expr)
		if err != nil {
			var ge *GateError
			if !errors.As(err, &ge) || ge.Column < 1 || ge.Expr != expr {
				t.Fatalf("ParseLiveGate(%q) error %v; want a *GateError on it", expr, err)
			}
			return
		}
		a, err := ParseGate(expr)
		if err != nil || a != g || g.URL != "" {
			t.Fatalf("ParseLiveGate(%q) = %+v; ParseGate gives %+v, %v", expr, g, a, err)
		}
	})
}

// A series whose last run an --abort-on gate stopped says so, with the gate, as that run did.
func TestCombineKeepsTheAbort(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"}}
	a := &stats.Abort{Gate: "p95>1s", Value: 2.5, At: 7, Window: 2}
	var runs []stats.Report
	for i, stop := range []loader.StopReason{loader.TimeUp, loader.Aborted} {
		info := stats.RunInfo{}
		if stop == loader.Aborted {
			info.Abort = a
		}
		rec := stats.NewRecorder(targets, stats.Options{})
		rec.Record(evenly(30, 0, time.Second, time.Duration(i+1)*time.Millisecond, 200))
		runs = append(runs, rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1, Stop: stop}, info, "x"))
	}
	got, err := stats.Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	if got.Run.StopReason != stats.StopAborted || got.Run.Abort == nil || *got.Run.Abort != *a {
		t.Errorf("combined stop %q, abort %+v; want aborted by %+v", got.Run.StopReason, got.Run.Abort, *a)
	}
}

// BenchmarkWindowRecord is --abort-on's cost per request, on the collector's goroutine.
func BenchmarkWindowRecord(b *testing.B) {
	w := NewWindow(&discard{}, 10*time.Second)
	batch := evenly(256, 0, 50*time.Millisecond, 20*time.Millisecond, 200)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// Each batch ends 50 ms after the last, so the window slides as in a run.
		for j := range batch {
			batch[j].Intended += 50 * time.Millisecond
			batch[j].Start += 50 * time.Millisecond
		}
		w.Record(batch)
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i*len(batch)), "ns/request")
}

// BenchmarkWindowFired is one judgement of two gates over a full window.
func BenchmarkWindowFired(b *testing.B) {
	w := NewWindow(&discard{}, 10*time.Second)
	w.Record(evenly(10000, 0, 10*time.Second, 20*time.Millisecond, 200))
	gates := []Gate{{Metric: "p95", Op: ">", Value: 1}, {Metric: "error_rate", Op: ">", Value: 5}}
	b.ReportAllocs()
	for b.Loop() {
		if _, fired := w.Fired(gates, 10*time.Second); fired {
			b.Fatal("fired on a healthy window")
		}
	}
}
