package remotewrite

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/webload/webload/internal/hdrcodec"
	"github.com/webload/webload/stats"
)

// The metrics' names (see the package comment); examples/grafana's dashboard queries them.
const (
	MetricRequests         = "webload_requests_total"
	MetricTransactions     = "webload_transactions_total"
	MetricFailures         = "webload_failures_total"
	MetricResponseTime     = "webload_response_time_seconds"
	MetricURLRequests      = "webload_url_requests_total"
	MetricURLFailures      = "webload_url_failures_total"
	MetricURLResponseTime  = "webload_url_response_time_seconds"
	MetricRate             = "webload_transaction_rate"
	MetricElapsed          = "webload_elapsed_seconds"
	MetricQuantile         = "webload_response_time_quantile_seconds"
	MetricMax              = "webload_response_time_max_seconds"
	MetricURLQuantile      = "webload_url_response_time_quantile_seconds"
	labelName              = "__name__"
	labelRun               = "run"
	labelStep              = "step"
	labelMethod, labelURL  = "method", "url"
	labelQuantile          = "quantile"
	millisecondsPerSeconds = 1000
)

// Metrics lists every metric name sent, for dashboards' tests.
func Metrics() []string {
	return []string{MetricRequests, MetricTransactions, MetricFailures, MetricResponseTime,
		MetricURLRequests, MetricURLFailures, MetricURLResponseTime, MetricRate, MetricElapsed,
		MetricQuantile, MetricMax, MetricURLQuantile}
}

// urlQuantiles are the per-URL percentiles a report keeps (stats.URLStats).
var urlQuantiles = [...]float64{50, 95, 99}

// figures are a run's counts and latencies so far, overall and per URL: what is sent during the
// run and at its end.
type figures struct {
	requests, transactions, failures int64
	latency                          Histogram
	urls                             []urlFigures
}

// urlFigures are one URL's figures. Two targets with the same method and URL are one.
type urlFigures struct {
	method, url        string
	requests, failures int64
	latency            Histogram
}

// addURL adds u to f's URLs, to the entry of the same method and URL when there is one.
func (f *figures) addURL(u urlFigures) {
	for i := range f.urls {
		if o := &f.urls[i]; o.method == u.method && o.url == u.url {
			o.requests += u.requests
			o.failures += u.failures
			o.latency.Add(u.latency)
			return
		}
	}
	f.urls = append(f.urls, u)
}

// RunLabels are the labels of every series of a run: run, its --label (none when ""), and
// step, the users or rate of a ladder's or capacity search's step (none when 0), so that the
// steps are series of their own rather than counter resets of one.
func RunLabels(label string, step float64) []Label {
	var out []Label
	if label != "" {
		out = append(out, Label{labelRun, label})
	}
	if step != 0 {
		out = append(out, Label{labelStep, strconv.FormatFloat(step, 'f', -1, 64)})
	}
	return out
}

// series are f's series at time t, each with the labels base.
func (f *figures) series(base []Label, t time.Time) []Series {
	ms := t.UnixMilli()
	out := []Series{
		sample(base, MetricRequests, float64(f.requests), ms),
		sample(base, MetricTransactions, float64(f.transactions), ms),
		sample(base, MetricFailures, float64(f.failures), ms),
		histogram(base, MetricResponseTime, f.latency, ms),
	}
	for _, u := range f.urls {
		labels := append(slices.Clip(base), Label{labelMethod, u.method}, Label{labelURL, u.url})
		out = append(out,
			sample(labels, MetricURLRequests, float64(u.requests), ms),
			sample(labels, MetricURLFailures, float64(u.failures), ms),
			histogram(labels, MetricURLResponseTime, u.latency, ms))
	}
	return out
}

// ReportSeries are the series of a run's report at time t, each with the labels base (see
// RunLabels): its counts and latency histograms, overall and per URL, then its figures as
// gauges, each the report's own value.
func ReportSeries(rep *stats.Report, base []Label, t time.Time) ([]Series, error) {
	var f figures
	f.requests, f.transactions, f.failures = rep.Requests, rep.Transactions, rep.FailedTransactions
	var err error
	if f.latency, err = reportHistogram(rep.Histogram, rep.Transactions, rep.ResponseTime); err != nil {
		return nil, fmt.Errorf("convert the run's latencies: %w", err)
	}
	for _, u := range rep.URLs {
		h, err := reportHistogram(u.Histogram, u.Hits, u.Mean)
		if err != nil {
			return nil, fmt.Errorf("convert the latencies of %s: %w", u.URL, err)
		}
		f.addURL(urlFigures{method: u.Method, url: u.URL, requests: u.Hits + u.Failures, failures: u.Failures, latency: h})
	}
	out := f.series(base, t)
	ms := t.UnixMilli()
	out = append(out,
		sample(base, MetricRate, rep.TransactionRate, ms),
		sample(base, MetricElapsed, rep.ElapsedTime, ms),
		sample(base, MetricMax, rep.Percentiles.Max, ms))
	rep.Percentiles.Quantiles(func(q float64, v *float64) {
		out = append(out, sample(append(slices.Clip(base), Label{labelQuantile, quantileLabel(q)}), MetricQuantile, *v, ms))
	})
	// A URL listed twice has one series: its percentiles are those of its first row.
	seen := map[[2]string]bool{}
	for _, u := range rep.URLs {
		key := [2]string{u.Method, u.URL}
		if seen[key] {
			continue
		}
		seen[key] = true
		for _, q := range urlQuantiles {
			v, _ := u.Percentile(q)
			labels := append(slices.Clip(base), Label{labelMethod, u.Method}, Label{labelURL, u.URL}, Label{labelQuantile, quantileLabel(q)})
			out = append(out, sample(labels, MetricURLQuantile, v, ms))
		}
	}
	return out, nil
}

// reportHistogram converts a report's encoded histogram of n transactions whose mean is mean
// seconds; the report keeps no histogram of no transaction.
func reportHistogram(encoded string, n int64, mean float64) (Histogram, error) {
	if n == 0 || encoded == "" {
		return Histogram{}, nil
	}
	h, err := hdrcodec.DecodeOurs(encoded)
	if err != nil {
		return Histogram{}, err
	}
	return FromHDR(h.ForEachBucket, mean*float64(n)), nil
}

// quantileLabel writes percentile q (0-100) as Prometheus's quantile label does: 0.95.
func quantileLabel(q float64) string {
	return strconv.FormatFloat(q/100, 'f', -1, 64)
}

func sample(labels []Label, name string, v float64, ms int64) Series {
	return Series{Labels: named(labels, name), Samples: []Sample{{Value: v, Time: ms}}}
}

func histogram(labels []Label, name string, h Histogram, ms int64) Series {
	h.Time = ms
	return Series{Labels: named(labels, name), Histograms: []Histogram{h}}
}

// named is labels with the metric's name, sorted by name as the protocol asks.
func named(labels []Label, name string) []Label {
	out := append([]Label{{labelName, name}}, labels...)
	slices.SortFunc(out, func(a, b Label) int { return strings.Compare(a.Name, b.Name) })
	return out
}
