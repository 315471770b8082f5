package capacity

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/stats"
)

func mustGates(t testing.TB, exprs ...string) []gate.Gate {
	t.Helper()
	var out []gate.Gate
	for _, e := range exprs {
		g, err := gate.ParseGate(e)
		if err != nil {
			t.Fatalf("ParseGate(%q): %v", e, err)
		}
		out = append(out, g)
	}
	return out
}

// site plays a stack whose p95 is 50 ms up to capacity req/s and 2 s above it; with early set
// it ends the steps above capacity early, as a live check would.
type site struct {
	capacity float64
	early    bool
	rates    []float64
}

func (s *site) measure(_ context.Context, rate float64) (Measured, error) {
	s.rates = append(s.rates, rate)
	rep := stats.Report{Transactions: 100, Percentiles: stats.Percentiles{P95: 0.05}}
	if rate > s.capacity {
		rep.Percentiles.P95 = 2
		return Measured{Report: rep, EndedEarly: s.early}, nil
	}
	return Measured{Report: rep}, nil
}

func TestSearchFindsTheThreshold(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		capacity float64
		opts     Options
		early    bool
		capped   bool
		noneWant bool
	}{
		{name: "from the default", capacity: 400},
		{name: "a capacity just above a power of two", capacity: 650, opts: Options{From: 10}},
		{name: "from above the capacity halves first", capacity: 37, opts: Options{From: 500}},
		{name: "early ends count as failures", capacity: 1234, early: true},
		{name: "a tighter precision", capacity: 400, opts: Options{Precision: 0.01}},
		{name: "capped by To", capacity: 5000, opts: Options{From: 100, To: 1000}, capped: true},
		{name: "nothing passes", capacity: 0.5, opts: Options{From: 10}, noneWant: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := &site{capacity: tc.capacity, early: tc.early}
			var told []Step
			tc.opts.Step = func(st Step) { told = append(told, st) }
			res, err := Search(context.Background(), mustGates(t, "p95<500ms"), tc.opts, s.measure)
			if err != nil {
				t.Fatal(err)
			}
			if len(told) != len(res.Steps) || len(res.Steps) != len(s.rates) {
				t.Fatalf("%d steps told, %d kept, %d measured", len(told), len(res.Steps), len(s.rates))
			}
			if len(res.Steps) > DefaultMaxSteps {
				t.Fatalf("%d steps, more than %d: %v", len(res.Steps), DefaultMaxSteps, s.rates)
			}
			switch {
			case tc.noneWant:
				if res.Rate != 0 || res.Best != -1 || res.NextFailed < 0 {
					t.Fatalf("found %v (best %d, next failed %d) on a site that holds nothing; rates %v", res.Rate, res.Best, res.NextFailed, s.rates)
				}
				if last := s.rates[len(s.rates)-1]; last < minRate {
					t.Fatalf("measured %v req/s, below the floor of %v", last, minRate)
				}
				return
			case tc.capped:
				if !res.Capped || res.Rate != 1000 || res.NextFailed != -1 {
					t.Fatalf("rate %v capped %v next failed %d, want 1000 capped; rates %v", res.Rate, res.Capped, res.NextFailed, s.rates)
				}
				return
			}
			precision := tc.opts.withDefaults().Precision
			if res.Rate > tc.capacity || res.Rate < tc.capacity/(1+precision) {
				t.Fatalf("found %v, want within %v below %v; rates %v", res.Rate, precision, tc.capacity, s.rates)
			}
			best, next := res.Steps[res.Best], res.Steps[res.NextFailed]
			if !best.Passed || best.Rate != res.Rate || next.Passed || next.Rate <= res.Rate || next.Rate > res.Rate*(1+precision) {
				t.Fatalf("best %+v, next failed %+v", best.Rate, next.Rate)
			}
			if next.EndedEarly != tc.early {
				t.Fatalf("next failed step ended early: %v, want %v", next.EndedEarly, tc.early)
			}
		})
	}
}

func TestSearchStopsAfterMaxSteps(t *testing.T) {
	t.Parallel()
	s := &site{capacity: 1e9}
	res, err := Search(context.Background(), mustGates(t, "p95<500ms"), Options{MaxSteps: 3, To: 1e12}, s.measure)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) != 3 || res.Rate != 40 || res.Capped {
		t.Fatalf("%d steps, rate %v, capped %v: want 3 steps ending at 40 uncapped", len(res.Steps), res.Rate, res.Capped)
	}
}

func TestSearchChecksEveryGate(t *testing.T) {
	t.Parallel()
	// p95 always passes; errors appear above 300 req/s.
	measure := func(_ context.Context, rate float64) (Measured, error) {
		rep := stats.Report{Transactions: 1000, Percentiles: stats.Percentiles{P95: 0.01}}
		if rate > 300 {
			rep.FailedTransactions = 50
		}
		return Measured{Report: rep}, nil
	}
	res, err := Search(context.Background(), mustGates(t, "p95<500ms", "error_rate<1"), Options{}, measure)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rate > 300 || res.Rate < 300/1.05 {
		t.Fatalf("found %v, want just below 300", res.Rate)
	}
}

// A step with too few measurements for a gate neither passes nor fails: the search goes up,
// where steps bring more requests, and gives no capacity when no step could be judged. One that
// measured nothing at all ends the search.
func TestSearchNeverPassesAStepTooSmallToJudge(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		count    func(rate float64) int64 // transactions of a 1 s step at rate
		opts     Options
		rates    []float64
		capacity float64
	}{
		{name: "a rate's worth of transactions", count: func(r float64) int64 { return int64(r) },
			opts: Options{From: 4, To: 64}, rates: []float64{4, 8, 16, 32, 64, 64}, capacity: 64},
		{name: "too few at every rate", count: func(float64) int64 { return MinSamples - 1 },
			opts: Options{From: 10, To: 80}, rates: []float64{10, 20, 40, 80}},
		{name: "nothing measured", count: func(float64) int64 { return 0 },
			opts: Options{From: 10}, rates: []float64{10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var rates []float64
			measure := func(_ context.Context, rate float64) (Measured, error) {
				rates = append(rates, rate)
				return Measured{Report: stats.Report{Transactions: tc.count(rate), Percentiles: stats.Percentiles{P95: 0.01}}}, nil
			}
			res, err := Search(context.Background(), mustGates(t, "p95<500ms"), tc.opts, measure)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rates, tc.rates) || res.Rate != tc.capacity {
				t.Fatalf("measured %v, capacity %v; want %v and %v", rates, res.Rate, tc.rates, tc.capacity)
			}
			for _, s := range res.Steps {
				if small := tc.count(s.Rate) < MinSamples; small != (s.Inconclusive != "") || (small && (s.Passed || s.failed())) {
					t.Fatalf("step at %v: passed %v, inconclusive %q", s.Rate, s.Passed, s.Inconclusive)
				}
			}
			c := res.Summary()
			if tc.capacity == 0 && (c.Judged() || !strings.Contains(c.Summary(), "no step could be judged")) {
				t.Fatalf("judged %v: %s", c.Judged(), c.Summary())
			}
		})
	}
}

// A percentile gate needs the transactions that put one in its slowest share: p99 needs 100,
// so a step of 50 cannot pass it, though it passes p95.
func TestSearchNeedsTransactionsForItsPercentile(t *testing.T) {
	t.Parallel()
	step := judgeStep(10, Measured{Report: stats.Report{Transactions: 50, Percentiles: stats.Percentiles{P95: 0.01, P99: 0.01}}},
		mustGates(t, "p95<500ms", "p99<1s", "error_rate<1"))
	if step.Passed || step.failed() || step.Inconclusive != "50 transactions, p99 needs 100" {
		t.Fatalf("passed %v, inconclusive %q", step.Passed, step.Inconclusive)
	}
	if v := step.Verdicts; !v[0].Passed || !v[1].Inconclusive || !v[2].Passed {
		t.Fatalf("verdicts %+v", v)
	}
	// A gate that failed on enough measurements fails the step, whatever else lacked them.
	step = judgeStep(10, Measured{Report: stats.Report{Transactions: 5, FailedTransactions: 95}}, mustGates(t, "p95<500ms", "error_rate<1"))
	if !step.failed() || step.Summary().Broke != "error_rate 95.000 %" {
		t.Fatalf("a step of 95 %% errors: %+v", step.Summary())
	}
}

func TestSearchStopsOnErrors(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	calls := 0
	measure := func(_ context.Context, rate float64) (Measured, error) {
		calls++
		if calls == 3 {
			return Measured{}, boom
		}
		return Measured{Report: stats.Report{Transactions: 100}}, nil
	}
	res, err := Search(context.Background(), mustGates(t, "p95<500ms"), Options{}, measure)
	if !errors.Is(err, boom) || len(res.Steps) != 2 || res.Rate != 20 {
		t.Fatalf("err %v, %d steps, rate %v: want boom after 2 steps at 20", err, len(res.Steps), res.Rate)
	}
	if _, err := Search(context.Background(), nil, Options{}, measure); !errors.Is(err, ErrNoSLO) {
		t.Fatalf("no SLO: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, mustGates(t, "p95<1s"), Options{}, measure); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// The result saved is the step at the capacity with the search attached; when none passed, the
// lowest rate's, so the file still tells how far the site was from the SLO.
func TestResultReport(t *testing.T) {
	t.Parallel()
	slo := mustGates(t, "p95<500ms")
	for _, tc := range []struct {
		name     string
		capacity float64
		opts     Options
		wantRate float64 // the saved step's
	}{
		{name: "found", capacity: 300, opts: Options{From: 100}, wantRate: 300},
		{name: "none", capacity: 0.5, opts: Options{From: 4}, wantRate: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := &site{capacity: tc.capacity}
			measure := func(ctx context.Context, rate float64) (Measured, error) {
				m, err := s.measure(ctx, rate)
				m.Report.Run.Rate = rate
				return m, err
			}
			res, err := Search(context.Background(), slo, tc.opts, measure)
			if err != nil {
				t.Fatal(err)
			}
			rep, ok := res.Report()
			if !ok || rep.Run.Rate != tc.wantRate || rep.Capacity == nil || rep.Capacity.Rate != res.Rate ||
				len(rep.Capacity.Steps) != len(res.Steps) || rep.Capacity.SLO[0] != "p95<500ms" {
				t.Fatalf("saved %+v with %+v; rates %v", rep.Run, rep.Capacity, s.rates)
			}
			for i, st := range rep.Capacity.Steps {
				if st.Rate != res.Steps[i].Rate || st.Passed != res.Steps[i].Passed {
					t.Fatalf("step %d: %+v against %+v", i, st, res.Steps[i])
				}
			}
		})
	}
	if _, ok := (&Result{Best: -1, NextFailed: -1}).Report(); ok {
		t.Fatal("a search without steps saved a result")
	}
}

// A search cut by its context says so: the capacity so far is a lower bound, the step in
// progress is kept as partial (neither passed nor failed), and the saved result's stop reason
// is the search's. Cut between two steps, it names the rate it was about to measure.
func TestSearchInterrupted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		inStep  bool // cut while measuring 80 req/s, else once 40 is told
		partial bool
	}{
		{name: "in a step", inStep: true, partial: true},
		{name: "between steps"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			measure := func(ctx context.Context, rate float64) (Measured, error) {
				rep := stats.Report{Transactions: 100, Percentiles: stats.Percentiles{P95: 0.01}, Run: stats.RunInfo{Rate: rate, StopReason: stats.StopCompleted}}
				if rate == 80 && tc.inStep {
					cancel()
					rep.Transactions = 3
					return Measured{Report: rep, Partial: true}, ctx.Err()
				}
				return Measured{Report: rep}, nil
			}
			opts := Options{Step: func(s Step) {
				if s.Rate == 40 && !tc.inStep {
					cancel()
				}
			}}
			res, err := Search(ctx, mustGates(t, "p95<500ms"), opts, measure)
			if !errors.Is(err, context.Canceled) || !res.Interrupted || res.InterruptedAt != 80 || res.Rate != 40 {
				t.Fatalf("err %v, interrupted %v at %v, capacity %v", err, res.Interrupted, res.InterruptedAt, res.Rate)
			}
			var rates []float64
			for _, s := range res.Steps {
				rates = append(rates, s.Rate)
			}
			want := []float64{10, 20, 40}
			if tc.partial {
				want = append(want, 80)
			}
			if !slices.Equal(rates, want) {
				t.Fatalf("steps %v, want %v", rates, want)
			}
			c := res.Summary()
			if c.StopReason != stats.StopInterrupted || c.InterruptedAt != 80 ||
				!strings.HasPrefix(c.Summary(), "Capacity: at least 40 req/s (") || !strings.HasSuffix(c.Summary(), "; search interrupted at 80 req/s)") {
				t.Fatalf("summed up as %s (%s)", c.Summary(), c.StopReason)
			}
			if last := c.Steps[len(c.Steps)-1]; last.Partial != tc.partial || (tc.partial && (last.Passed || last.Broke != "" || !strings.HasSuffix(last.Line(), "PARTIAL: the search was interrupted"))) {
				t.Fatalf("the last step %+v", last)
			}
			rep, ok := res.Report()
			if !ok || rep.Run.StopReason != stats.StopInterrupted || rep.Run.Rate != 40 {
				t.Fatalf("saved %v: run %+v", ok, rep.Run)
			}
		})
	}
}

// answers plays a site by a verdict per measurement: pass(rate, n) for the n-th measurement of
// rate (from 1), and the calls made.
type answers struct {
	pass  func(rate float64, n int) bool
	calls int
	seen  map[float64]int
}

func (a *answers) measure(_ context.Context, rate float64) (Measured, error) {
	if a.seen == nil {
		a.seen = map[float64]int{}
	}
	a.calls++
	a.seen[rate]++
	rep := stats.Report{Transactions: 100, Percentiles: stats.Percentiles{P95: 0.05}}
	if !a.pass(rate, a.seen[rate]) {
		rep.Percentiles.P95 = 2
	}
	return Measured{Report: rep}, nil
}

// One noisy step must not halve the answer: a site of 400 req/s whose first measurement of
// 160 fails (a pause of the machine) is measured at 160 again, passes, and the search goes on
// up to 400. The failures above are each measured twice, and the capacity once more.
func TestSearchMeasuresAFailureAgain(t *testing.T) {
	t.Parallel()
	a := &answers{pass: func(rate float64, n int) bool { return rate <= 400 && !(rate == 160 && n == 1) }}
	res, err := Search(context.Background(), mustGates(t, "p95<500ms"), Options{}, a.measure)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rate > 400 || res.Rate < 400/(1+DefaultPrecision) {
		t.Fatalf("found %v, want just below 400; steps %v", res.Rate, rates(res))
	}
	if s := res.Steps[4:6]; s[0].Rate != 160 || s[0].Passed || s[0].Again || s[1].Rate != 160 || !s[1].Passed || !s[1].Again {
		t.Fatalf("steps %v: want 160 failed, then passed when measured again", rates(res))
	}
	last := res.Steps[len(res.Steps)-1]
	if last.Rate != res.Rate || !last.Passed || !last.Again {
		t.Fatalf("the last step %v (passed %v, again %v): want the capacity confirmed; steps %v", last.Rate, last.Passed, last.Again, rates(res))
	}
	c := res.Summary()
	if sum := c.Summary(); !strings.Contains(sum, "at that rate, confirmed by a second measurement; next step ") || !strings.Contains(sum, " req/s failed twice: p95 2000.000 ms)") {
		t.Fatalf("summed up as %s", sum)
	}
	if line := c.Steps[5].Line(); !strings.HasSuffix(line, "passed (measured again)") {
		t.Fatalf("the second measurement of 160: %q", line)
	}
}

// A capacity that fails when measured again does not hold: the search goes below it. Here
// every rate from 380 to 400 passes once, then fails.
func TestSearchConfirmsTheCapacity(t *testing.T) {
	t.Parallel()
	a := &answers{pass: func(rate float64, n int) bool {
		return rate < 380 || (rate <= 400 && n == 1)
	}}
	res, err := Search(context.Background(), mustGates(t, "p95<500ms"), Options{MaxSteps: 60}, a.measure)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rate >= 380 || res.Rate < 380/(1+DefaultPrecision) {
		t.Fatalf("found %v, want just below 380; steps %v", res.Rate, rates(res))
	}
	if c := res.Summary(); !strings.Contains(c.Summary(), "confirmed by a second measurement") {
		t.Fatalf("summed up as %s", c.Summary())
	}
}

// Whatever a site answers, noisy or not monotonic in the rate, a search keeps its bounds and
// its word: at most MaxSteps steps, no rate measured more than twice, a first failure measured
// again at once, and a capacity whose last measurement passed, below every rate whose last
// measurement failed.
func TestSearchOnNoisySites(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		pass func(rate float64, n int) bool
		want float64 // the capacity, or -1 when any answer keeps the invariants
		sure string  // in the summary
	}{
		{name: "monotonic", pass: func(r float64, _ int) bool { return r <= 400 }, want: 400, sure: "confirmed by a second measurement"},
		{name: "every first measurement fails", pass: func(r float64, n int) bool { return n > 1 && r <= 400 }, want: 400,
			sure: "passed when measured again after a failure"},
		{name: "a band of failures below the capacity", pass: func(r float64, _ int) bool { return r <= 400 && (r < 35 || r > 45) },
			want: 33.75, sure: "confirmed by a second measurement"},
		{name: "every second measurement fails", pass: func(r float64, n int) bool { return n == 1 && r <= 400 }, want: -1},
		{name: "alternating", pass: alternate(), want: -1},
		{name: "random 1", pass: random(1), want: -1},
		{name: "random 2", pass: random(2), want: -1},
		{name: "random 3", pass: random(3), want: -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := &answers{pass: tc.pass}
			res, err := Search(context.Background(), mustGates(t, "p95<500ms"), Options{}, a.measure)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("capacity %v after %v", res.Rate, rates(res))
			if len(res.Steps) > DefaultMaxSteps || a.calls != len(res.Steps) {
				t.Fatalf("%d steps, %d measured: %v", len(res.Steps), a.calls, rates(res))
			}
			if tc.want >= 0 && res.Rate != tc.want {
				t.Fatalf("found %v, want %v; steps %v", res.Rate, tc.want, rates(res))
			}
			lastWord := map[float64]bool{}
			for i, s := range res.Steps {
				if n := a.seen[s.Rate]; n > 2 {
					t.Fatalf("%v measured %d times: %v", s.Rate, n, rates(res))
				}
				if s.failed() && !s.Again && i+1 < len(res.Steps) && res.Steps[i+1].Rate != s.Rate {
					t.Fatalf("the failure at %v was not measured again: %v", s.Rate, rates(res))
				}
				lastWord[s.Rate] = s.Passed
			}
			if res.Rate > 0 && (!lastWord[res.Rate] || res.Steps[res.Best].Rate != res.Rate || !res.Steps[res.Best].Passed) {
				t.Fatalf("capacity %v, whose last measurement failed: %v", res.Rate, rates(res))
			}
			for rate, passed := range lastWord {
				if !passed && rate <= res.Rate {
					t.Fatalf("capacity %v at or above %v, which failed: %v", res.Rate, rate, rates(res))
				}
			}
			if c := res.Summary(); tc.sure != "" && !strings.Contains(c.Summary(), tc.sure) {
				t.Fatalf("summed up as %s, want %q", c.Summary(), tc.sure)
			}
		})
	}
}

// alternate passes every other measurement, whatever the rate.
func alternate() func(float64, int) bool {
	n := 0
	return func(float64, int) bool { n++; return n%2 == 1 }
}

// random passes at random, from a fixed seed.
func random(seed uint64) func(float64, int) bool {
	r := rand.New(rand.NewPCG(seed, seed))
	return func(float64, int) bool { return r.IntN(2) == 0 }
}

// rates lists the steps as "rate+" (passed) and "rate-" (failed), for messages.
func rates(res Result) []string {
	var out []string
	for _, s := range res.Steps {
		mark := "-"
		if s.Passed {
			mark = "+"
		}
		out = append(out, strconv.FormatFloat(s.Rate, 'f', -1, 64)+mark)
	}
	return out
}
