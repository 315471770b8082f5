package stats

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/webload/webload/internal/hdrcodec"
)

// ErrCorruptResult says a saved result holds figures webload never writes: a negative count,
// totals its breakdowns do not add up to, or a percentile its own histogram contradicts. Such
// a file was edited or damaged, and compared or merged it would be judged as if measured.
var ErrCorruptResult = errors.New("corrupt result")

// The rules below hold for every result webload writes: a run's (the accounting check refuses to
// finish one that breaks them), a --repeat series', a ladder's, a capacity search's and a merge's,
// since release 0.1.0 (testdata/saved). Times read back from a histogram may differ from the
// saved exact ones by the histogram's precision: 3 significant digits, a bucket under 0.1 % of
// its value wide, and whole microseconds. histSlack allows twice that.
const (
	histSlackRel = 0.002
	histSlackAbs = 2e-6 // seconds
)

// sanity checks one saved result at a time; its histogram is decoded into again and again.
type sanity struct {
	a        *hdrcodec.HistAdder
	overflow bool // the result's latencies beyond the histogram's hour, whose exact times exceed it
}

// sane refuses a report whose figures webload cannot have written, naming the first offending
// JSON key (with its path: urls[2].p95, steps[1].status_codes["200"]).
func (r *Report) sane() error {
	s := sanity{a: hdrcodec.NewHistAdder()}
	if err := s.report("", r); err != nil {
		return fmt.Errorf("%w: %w", ErrCorruptResult, err)
	}
	return nil
}

func (s *sanity) report(at string, r *Report) error {
	s.overflow = r.LatencyOverflow > 0
	counts := []count{
		{"transactions", r.Transactions}, {"requests", r.Requests}, {"successful_transactions", r.SuccessfulTransactions},
		{"failed_transactions", r.FailedTransactions}, {"body_bytes", r.BodyBytes}, {"decoded_bytes", r.DecodedBytes},
		{"in_flight_at_stop", r.InFlightAtStop}, {"resent", r.Resent}, {"latency_overflow", r.LatencyOverflow},
		{"wire_bytes_received", r.WireBytesReceived}, {"wire_bytes_sent", r.WireBytesSent},
		{"connections_opened", r.ConnectionsOpened}, {"http2_goaways", r.HTTP2GoAways},
		{"http2_resets", r.HTTP2Resets}, {"http2_retries", r.HTTP2Retries},
	}
	if err := nonNegative(at, counts); err != nil {
		return err
	}
	statuses, failedStatuses, err := sumStatuses(at+"status_codes", r.StatusCodes)
	if err != nil {
		return err
	}
	errs, err := sumCounts(at+"errors", r.Errors)
	if err != nil {
		return err
	}
	// Answers that failed a check keep their status: they are in status_codes, and by status in
	// check_status_codes, and they are failures of kind "check", not failed responses (as the
	// run's own accounting check has it).
	checked, checkedFailed, err := sumStatuses(at+"check_status_codes", r.CheckStatusCodes)
	if err != nil {
		return err
	}
	failedStatuses -= checkedFailed
	ended, ok := add(r.Transactions, r.FailedTransactions)
	answered, ok2 := add(r.Transactions, failedStatuses)
	answered, ok4 := add(answered, checked)
	failed, ok3 := add(errs, failedStatuses)
	switch {
	case !ok || !ok2 || !ok3 || !ok4:
		return fmt.Errorf("%stransactions, failed_transactions, status_codes and errors add up beyond any count", at)
	case r.Requests != ended:
		return fmt.Errorf("%srequests is %d, but transactions %d + failed_transactions %d", at, r.Requests,
			r.Transactions, r.FailedTransactions)
	case r.SuccessfulTransactions > r.Transactions:
		return fmt.Errorf("%ssuccessful_transactions is %d, more than transactions %d", at, r.SuccessfulTransactions, r.Transactions)
	case r.CheckStatusCodes != nil && checked != r.Errors["check"]:
		// A result saved before answers that failed a check kept their status has no
		// check_status_codes, and none of those answers in status_codes.
		return fmt.Errorf("%scheck_status_codes count %d answers, but errors[\"check\"] %d", at, checked, r.Errors["check"])
	case statuses != answered:
		return fmt.Errorf("%sstatus_codes count %d responses, but transactions %d + failed ones (408, 5xx) %d + failed checks %d", at,
			statuses, r.Transactions, failedStatuses, checked)
	case failed != r.FailedTransactions:
		return fmt.Errorf("%serrors count %d, but failed_transactions %d less failed responses %d", at, errs,
			r.FailedTransactions, failedStatuses)
	}
	if err := timesNonNegative(at, []float64{r.ElapsedTime, r.ResponseTime, r.LongestTransaction, r.ShortestTransaction},
		"elapsed_time", "response_time", "longest_transaction", "shortest_transaction"); err != nil {
		return err
	}
	if err := s.urls(at, r); err != nil {
		return err
	}
	if err := s.timeline(at, r); err != nil {
		return err
	}
	resp := savedTimes{at: at, histKey: "histogram", hist: r.Histogram, count: r.Transactions, need: true,
		meanKey: "response_time", mean: r.ResponseTime, maxKey: "longest_transaction", max: r.LongestTransaction,
		minKey: "shortest_transaction", min: r.ShortestTransaction, exceed: s.overflow}
	resp.quantiles = percentileFields(at+"percentiles.", &r.Percentiles)
	if err := s.times(&resp); err != nil {
		return err
	}
	if r.Transactions > 0 {
		// The percentiles' max is the longest transaction, to the nanosecond.
		if r.Percentiles.Max != r.LongestTransaction {
			return fmt.Errorf("%spercentiles.max is %.6g s, but longest_transaction %.6g s", at, r.Percentiles.Max, r.LongestTransaction)
		}
	}
	service := savedTimes{at: at, histKey: "service_histogram", hist: r.ServiceHistogram, count: r.Transactions, need: true,
		maxKey: "service_time.max", max: r.ServiceTime.Max, quantiles: percentileFields(at+"service_time.", &r.ServiceTime)}
	if err := s.times(&service); err != nil {
		return err
	}
	if err := s.parts(at, r); err != nil {
		return err
	}
	if err := saneChecks(at, r); err != nil {
		return err
	}
	if o := r.Run.ShardsOverlap; o != nil {
		if err := o.sane(at); err != nil {
			return err
		}
	}
	for i := range r.Repeats {
		if err := s.report(fmt.Sprintf("%srepeats[%d].", at, i), &r.Repeats[i]); err != nil {
			return err
		}
	}
	for i := range r.Steps {
		if err := s.report(fmt.Sprintf("%ssteps[%d].", at, i), &r.Steps[i]); err != nil {
			return err
		}
	}
	return nil
}

// urls checks the URL rows, which add up to the totals: a URL's page resources count with it.
func (s *sanity) urls(at string, r *Report) error {
	var hits, fails int64
	for i := range r.URLs {
		u := &r.URLs[i]
		row := fmt.Sprintf("%surls[%d].", at, i)
		if err := nonNegative(row, []count{{"hits", u.Hits}, {"failures", u.Failures}, {"bytes", u.Bytes},
			{"check_failures", u.CheckFailures}, {"extractions", u.Extractions}, {"extract_failures", u.ExtractFailures},
			{"extract_unsent", u.ExtractUnsent}}); err != nil {
			return err
		}
		if _, _, err := sumStatuses(row+"status_codes", u.StatusCodes); err != nil {
			return err
		}
		if _, _, err := sumStatuses(row+"check_status_codes", u.CheckStatusCodes); err != nil {
			return err
		}
		t := savedTimes{at: row, histKey: "histogram", hist: u.Histogram, count: u.Hits, need: true, meanKey: "mean",
			mean: u.Mean, maxKey: "max", max: u.Max, exceed: s.overflow}
		u.Quantiles(func(q float64, v *float64) { t.quantiles = append(t.quantiles, quantileField(row, q, *v)) })
		if err := s.times(&t); err != nil {
			return err
		}
		var ok, ok2 bool
		hits, ok = add(hits, u.Hits)
		fails, ok2 = add(fails, u.Failures)
		if p := u.Pages; p != nil {
			if err := nonNegative(row+"pages.", []count{{"cut", p.Cut}, {"resource_bytes", p.ResourceBytes}}); err != nil {
				return err
			}
			if err := visits(row+"pages.", p.Pages, p.Failed, p.Resources, p.ResourceFailures); err != nil {
				return err
			}
			t := savedTimes{at: row + "pages.", histKey: "histogram", hist: p.Histogram, count: p.Pages - p.Failed, need: true,
				meanKey: "mean", mean: p.Mean, maxKey: "max", max: p.Max, apart: true}
			t.quantiles = []quantileValue{quantileField(t.at, 50, p.P50), quantileField(t.at, 95, p.P95), quantileField(t.at, 99, p.P99)}
			if err := s.times(&t); err != nil {
				return err
			}
			hits, fails = hits+p.Resources-p.ResourceFailures, fails+p.ResourceFailures
		}
		if !ok || !ok2 || hits < 0 || fails < 0 {
			return fmt.Errorf("%shits and failures add up beyond any count", row)
		}
	}
	if len(r.URLs) > 0 && (hits != r.Transactions || fails != r.FailedTransactions) {
		return fmt.Errorf("%surls count %d transactions and %d failures, but transactions is %d and failed_transactions %d",
			at, hits, fails, r.Transactions, r.FailedTransactions)
	}
	return nil
}

// parts checks the figures of the parts a run may have: page visits, the steady state after a
// ramp and the open model's schedule.
func (s *sanity) parts(at string, r *Report) error {
	if p := r.Pages; p != nil {
		pg := at + "pages."
		err := nonNegative(pg, []count{{"cut", p.Cut}, {"redirects", p.Redirects}, {"off_host_redirects", p.OffHostRedirects}})
		if err != nil {
			return err
		}
		if err := visits(pg, p.Pages, p.Failed, p.Resources, p.ResourceFailures); err != nil {
			return err
		}
		t := savedTimes{at: pg, histKey: "histogram", hist: p.Histogram, count: p.Pages - p.Failed, need: true,
			meanKey: "mean", mean: p.Mean, maxKey: "percentiles.max", max: p.Percentiles.Max, apart: true,
			quantiles: percentileFields(pg+"percentiles.", &p.Percentiles)}
		if err := s.times(&t); err != nil {
			return err
		}
	}
	if st := r.SteadyState; st != nil {
		ss := at + "steady_state."
		err := nonNegative(ss, []count{{"requests", st.Requests}, {"transactions", st.Transactions}, {"failed", st.Failed}})
		if err != nil {
			return err
		}
		if ended, ok := add(st.Transactions, st.Failed); !ok || ended != st.Requests || st.Requests > r.Requests {
			return fmt.Errorf("%srequests is %d, but transactions %d + failed %d, of the run's %d", ss, st.Requests,
				st.Transactions, st.Failed, r.Requests)
		}
		t := savedTimes{at: ss, histKey: "histogram", hist: st.Histogram, count: st.Transactions, maxKey: "percentiles.max",
			max: st.Percentiles.Max, exceed: s.overflow, quantiles: percentileFields(ss+"percentiles.", &st.Percentiles)}
		if err := s.times(&t); err != nil {
			return err
		}
	}
	if sc := r.Schedule; sc != nil {
		sd := at + "schedule."
		if err := nonNegative(sd, []count{{"sent", sc.Sent}, {"unsent", sc.Unsent}, {"delayed", sc.Delayed}}); err != nil {
			return err
		}
		if sc.DelayedWaitMean < 0 || sc.DelayedWaitMax < sc.DelayedWaitMean {
			return fmt.Errorf("%sdelayed_wait_mean is %.6g s, below zero or beyond delayed_wait_max %.6g s", sd,
				sc.DelayedWaitMean, sc.DelayedWaitMax)
		}
		// The lags' maximum is read from their histogram, like their percentiles.
		t := savedTimes{at: sd, histKey: "histogram", hist: sc.Histogram, count: sc.Sent, maxKey: "lag_max", max: sc.LagMax,
			quantiles: []quantileValue{{sd + "lag_p50", 50, sc.LagP50}, {sd + "lag_p99", 99, sc.LagP99}}}
		if err := s.times(&t); err != nil {
			return err
		}
	}
	return nil
}

// visits checks the counts of page visits and their resources, whose failures are some of them.
func visits(at string, pages, failed, resources, resFailed int64) error {
	err := nonNegative(at, []count{{"pages", pages}, {"failed", failed}, {"resources", resources},
		{"resource_failures", resFailed}})
	if err != nil {
		return err
	}
	switch {
	case failed > pages:
		return fmt.Errorf("%sfailed is %d, more than pages %d", at, failed, pages)
	case resFailed > resources:
		return fmt.Errorf("%sresource_failures is %d, more than resources %d", at, resFailed, resources)
	}
	return nil
}

// timeline checks the intervals, whose requests add up to the run's.
func (s *sanity) timeline(at string, r *Report) error {
	var requests int64
	for i := range r.Timeline {
		p := &r.Timeline[i]
		pt := fmt.Sprintf("%stimeline[%d].", at, i)
		if err := nonNegative(pt, []count{{"requests", p.Requests}, {"transactions", p.Transactions},
			{"successful", p.Successful}, {"failed", p.Failed}, {"bytes", p.Bytes}}); err != nil {
			return err
		}
		var ok bool
		if requests, ok = add(requests, p.Requests); !ok {
			return fmt.Errorf("%srequests add up beyond any count", pt)
		}
		t := savedTimes{at: pt, histKey: "histogram", hist: p.Histogram, count: p.Transactions, need: true, maxKey: "max",
			max: p.Max, exceed: s.overflow}
		p.quantiles(func(q float64, v *float64) { t.quantiles = append(t.quantiles, quantileField(pt, q, *v)) })
		if err := s.times(&t); err != nil {
			return err
		}
	}
	if len(r.Timeline) > 0 && requests != r.Requests {
		return fmt.Errorf("%stimeline counts %d requests, but requests is %d", at, requests, r.Requests)
	}
	return nil
}

// savedTimes is a distribution as a result saves it: a count, figures in seconds and the
// histogram they were read from. A key left "" is a figure the distribution does not save.
type savedTimes struct {
	at              string // the keys' path
	histKey, hist   string
	count           int64
	need            bool // a count above zero always comes with a histogram
	meanKey, maxKey string
	minKey          string
	mean, max, min  float64
	quantiles       []quantileValue
	exceed          bool // exact times may lie beyond the histogram's hour
	// apart says the exact max and mean are not of the times the histogram holds: in the open
	// model a page visit's histogram counts from the intended start, its max and mean from the
	// send. Its percentiles are still read from the histogram.
	apart bool
}

type quantileValue struct {
	key  string
	q, v float64
}

func quantileField(at string, q, v float64) quantileValue {
	return quantileValue{key: at + "p" + strconv.FormatFloat(q, 'f', -1, 64), q: q, v: v}
}

func percentileFields(at string, p *Percentiles) []quantileValue {
	var out []quantileValue
	p.Quantiles(func(q float64, v *float64) { out = append(out, quantileField(at, q, *v)) })
	return out
}

// times checks a distribution's figures: never negative, in order, and what its histogram says.
func (s *sanity) times(t *savedTimes) error {
	if t.hist == "" {
		if t.need && t.count > 0 {
			return fmt.Errorf("%s%s is missing, but the figures it gives count %d", t.at, t.histKey, t.count)
		}
		return t.inOrder()
	}
	h := s.a.H
	h.Reset()
	if err := s.a.Add(t.hist); err != nil {
		return fmt.Errorf("%s%s: %w", t.at, t.histKey, err)
	}
	if n := h.TotalCount(); n != t.count {
		return fmt.Errorf("%s%s holds %d values, but the figures it gives count %d", t.at, t.histKey, n, t.count)
	}
	if t.count == 0 {
		return t.inOrder()
	}
	top := hdrcodec.FromUnits(h.Max()).Seconds()
	if t.maxKey != "" && !t.apart && !histNear(t.max, top) && (!t.exceed || t.max < top) {
		return fmt.Errorf("%s%s is %.6g s, but %s%s ends at %.6g s", t.at, t.maxKey, t.max, t.at, t.histKey, top)
	}
	for _, q := range t.quantiles {
		if want := hdrcodec.Quantile(h, q.q); !histNear(q.v, min(want, t.max)) {
			return fmt.Errorf("%s is %.6g s, but %s%s puts it at %.6g s", q.key, q.v, t.at, t.histKey, min(want, t.max))
		}
	}
	if t.meanKey != "" && !t.exceed && !t.apart {
		if want := h.Mean() * hdrcodec.HistUnit.Seconds(); !histNear(t.mean, want) {
			return fmt.Errorf("%s%s is %.6g s, but %s%s's mean is %.6g s", t.at, t.meanKey, t.mean, t.at, t.histKey, want)
		}
	}
	if t.minKey != "" {
		if low := hdrcodec.FromUnits(h.Min()).Seconds(); !histNear(t.min, low) {
			return fmt.Errorf("%s%s is %.6g s, but %s%s starts at %.6g s", t.at, t.minKey, t.min, t.at, t.histKey, low)
		}
	}
	return t.inOrder()
}

// inOrder says the times are never negative and the percentiles rise to the maximum, which
// holds of any distribution; it is all that is checked of one saved without its histogram.
func (t *savedTimes) inOrder() error {
	prev := 0.0
	for _, q := range t.quantiles {
		switch {
		case q.v < 0:
			return fmt.Errorf("%s is %.6g s, below zero", q.key, q.v)
		case q.v < prev:
			return fmt.Errorf("%s is %.6g s, below a lower percentile's %.6g s", q.key, q.v, prev)
		case t.maxKey != "" && q.v > t.max:
			return fmt.Errorf("%s is %.6g s, beyond %s%s %.6g s", q.key, q.v, t.at, t.maxKey, t.max)
		}
		prev = q.v
	}
	if t.max < 0 || t.mean < 0 || t.min < 0 {
		return fmt.Errorf("%s%s or its mean is below zero", t.at, t.maxKey)
	}
	return nil
}

// histNear says a saved time agrees with the one its histogram gives, to the histogram's precision.
func histNear(saved, fromHist float64) bool {
	return math.Abs(saved-fromHist) <= fromHist*histSlackRel+histSlackAbs
}

func timesNonNegative(at string, v []float64, keys ...string) error {
	for i, x := range v {
		if x < 0 {
			return fmt.Errorf("%s%s is %g, below zero", at, keys[i], x)
		}
	}
	return nil
}

// sumStatuses adds up counts by status code, and apart those that are failures under siege's
// rules (408 and 5xx).
func sumStatuses(key string, m map[string]int64) (all, failed int64, err error) {
	all, err = sumCounts(key, m)
	if err != nil {
		return 0, 0, err
	}
	for code, n := range m {
		if FailedStatus(code) {
			failed += n
		}
	}
	return all, failed, nil
}

// sumCounts adds up a map of counts, refusing a negative one (the first by key, so the message
// is always the same) and a sum beyond int64. It allocates nothing: a long URL list has a map
// for each URL.
func sumCounts(key string, m map[string]int64) (int64, error) {
	var sum int64
	sumOK, bad, found := true, "", false
	for k, n := range m {
		switch {
		case n < 0:
			if !found || k < bad {
				bad, found = k, true
			}
		case sumOK:
			sum, sumOK = add(sum, n)
		}
	}
	if found {
		return 0, negative(key+"["+strconv.Quote(bad)+"]", m[bad])
	}
	if !sumOK {
		return 0, fmt.Errorf("%s add up beyond any count", key)
	}
	return sum, nil
}

// add adds two counts that are not negative; ok is false when the sum overflows, which a crafted
// file could use to make a sum agree.
func add(a, b int64) (sum int64, ok bool) {
	s, carry := bits.Add64(uint64(a), uint64(b), 0)
	return int64(s), carry == 0 && s <= math.MaxInt64
}

// count is a saved count and its key.
type count struct {
	key string
	n   int64
}

// nonNegative refuses the first negative count, named with its path at.
func nonNegative(at string, counts []count) error {
	for _, c := range counts {
		if c.n < 0 {
			return negative(at+c.key, c.n)
		}
	}
	return nil
}

func negative(key string, n int64) error { return fmt.Errorf("%s is %d, a count below zero", key, n) }
