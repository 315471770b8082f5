// Package promsink keeps a run's figures as Prometheus metrics while the run goes on
// (--prometheus-listen), so a dashboard can follow the load next to the server's own metrics.
// It has no network: the caller serves Handler where it wants to.
//
// The metrics, in a private registry (nothing of the process's default one):
//
//	webload_requests_total{kind,code}      counter   requests that ended; kind is url, resource
//	                                                 or login, code the HTTP status, or "none"
//	                                                 when no usable response was read
//	webload_failures_total{error}          counter   failed transactions under siege's rules: a
//	                                                 failure kind (refused, timeout, ...) or
//	                                                 "http-status" for a 408 or 5xx response
//	webload_bytes_received_total           counter   response body bytes as received (the
//	                                                 report's body_bytes)
//	webload_response_time_seconds          histogram response time of transactions, from the
//	                                                 intended start
//	webload_run_elapsed_seconds            gauge     time since the run in progress started
//	webload_users_active                   gauge     users busy now (see loader.ActiveUsers);
//	                                                 0 between runs
//	webload_step                           gauge     the step in progress of a run made of
//	                                                 steps: its users or offered rate (SetStep);
//	                                                 0 for a run of one step
//
// The counters add up over a --repeat series, as Prometheus counters must only grow; their
// totals are then the combined report's figures.
package promsink

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/webload/webload/loader"
)

// responseTimeBuckets are the classic buckets, in seconds: 1-2.5-5 steps from 1 ms to 10 s, then
// 30 s and 60 s, since a web request slower than a minute has timed out for any visitor.
var responseTimeBuckets = [...]float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// httpStatusFailure labels the failures that got a response: a 408 or a 5xx.
const httpStatusFailure = "http-status"

// Metrics holds the run's Prometheus metrics. Sinks made by Wrap update them, one run at a
// time; Handler serves them from any goroutine (the metrics are safe for concurrent use).
type Metrics struct {
	reg          *prometheus.Registry
	requests     *prometheus.CounterVec
	failures     *prometheus.CounterVec
	bytes        prometheus.Counter
	responseTime prometheus.Histogram

	mu      sync.Mutex
	started time.Time     // of the run in progress, zero before the first
	elapsed time.Duration // of the last run once it ended; 0 while one runs
	users   func() int64  // the run in progress' busy users; nil between runs
	step    float64       // see SetStep

	// Children looked up once, so a request costs an atomic add, not a label hash. Only the
	// sink of the run in progress touches them, and runs follow each other.
	byStatus map[statusKey]prometheus.Counter
	byError  [loader.NumErrKinds]prometheus.Counter
	byHTTP   prometheus.Counter
}

// statusKey is a requests_total child: a request's kind and status (0 for no usable response).
type statusKey struct {
	kind   loader.Kind
	status uint16
}

// New registers the metrics in a registry of their own.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "webload_requests_total",
			Help: "Requests that ended, by kind (url, resource, login) and HTTP status code (none: no usable response).",
		}, []string{"kind", "code"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "webload_failures_total",
			Help: "Failed transactions under siege's rules, by failure kind; http-status is a 408 or 5xx response.",
		}, []string{"error"}),
		bytes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "webload_bytes_received_total",
			Help: "Response body bytes as received (compressed when the server compressed them).",
		}),
		responseTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "webload_response_time_seconds",
			Help:    "Response time of transactions (not failures), from each request's intended start.",
			Buckets: responseTimeBuckets[:],
			// Also a native histogram, for servers that scrape it (protobuf): buckets 9 % wide
			// whatever the latencies, where the classic ones are fixed in advance. At most 160
			// buckets: past that it coarsens rather than grows.
			NativeHistogramBucketFactor:    1.1,
			NativeHistogramMaxBucketNumber: 160,
		}),
		byStatus: map[statusKey]prometheus.Counter{},
	}
	elapsed := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "webload_run_elapsed_seconds",
		Help: "Seconds since the run in progress started; the last run's length once it ended.",
	}, m.elapsedSeconds)
	users := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "webload_users_active",
		Help: "Users busy now: started and not finished (closed model), serving an arrival (open model).",
	}, m.activeUsers)
	step := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "webload_step",
		Help: "The step in progress of a run made of steps: its users or offered rate; 0 for a run of one step.",
	}, m.currentStep)
	m.reg.MustRegister(m.requests, m.failures, m.bytes, m.responseTime, elapsed, users, step)
	for k := loader.ErrNone + 1; k < loader.NumErrKinds; k++ {
		// Every failure kind exists from the start at 0, so rate() sees the first one.
		m.byError[k] = m.failures.WithLabelValues(k.String())
	}
	m.byHTTP = m.failures.WithLabelValues(httpStatusFailure)
	return m
}

// Handler serves the metrics in the exposition format the scraper asks for.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// Wrap returns the sink of a run that starts at start: it updates the metrics from each batch,
// then passes it on to next.
func (m *Metrics) Wrap(next loader.Sink, start time.Time) loader.Sink {
	m.mu.Lock()
	m.started, m.elapsed = start, 0
	m.mu.Unlock()
	return &sink{m: m, next: next}
}

// RunEnded freezes the elapsed gauge at the run's length, which the loader measured, and lets
// the users gauge fall to 0.
func (m *Metrics) RunEnded(elapsed time.Duration) {
	m.mu.Lock()
	m.elapsed = max(elapsed, time.Nanosecond) // 0 would mean "still running"
	m.users = nil
	m.mu.Unlock()
}

// WatchUsers makes active (such as the loader's ActiveUsers, safe from any goroutine) the
// source of webload_users_active until the run ends (RunEnded). Read at each scrape, so the
// loader's hot path pays nothing for it.
func (m *Metrics) WatchUsers(active func() int64) {
	m.mu.Lock()
	m.users = active
	m.mu.Unlock()
}

// SetStep sets webload_step: the users or offered rate of the step in progress, for a run made
// of steps (a concurrency ladder, a capacity search), so a dashboard can tell them apart. Safe
// from any goroutine; it keeps its value until set again.
func (m *Metrics) SetStep(v float64) {
	m.mu.Lock()
	m.step = v
	m.mu.Unlock()
}

func (m *Metrics) activeUsers() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.users == nil {
		return 0
	}
	return float64(m.users())
}

func (m *Metrics) currentStep() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.step
}

func (m *Metrics) elapsedSeconds() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.started.IsZero():
		return 0
	case m.elapsed > 0:
		return m.elapsed.Seconds()
	}
	return time.Since(m.started).Seconds()
}

// sink feeds the metrics from one run's results.
type sink struct {
	m    *Metrics
	next loader.Sink
}

// Record implements loader.Sink.
func (s *sink) Record(batch []loader.Result) {
	m := s.m
	for i := range batch {
		r := &batch[i]
		if r.Kind == loader.KindPage {
			continue // a page visit, not a request
		}
		m.statusCounter(r).Inc()
		switch {
		case r.Err != loader.ErrNone:
			m.byError[r.Err].Inc()
			continue
		case r.Failed():
			m.byHTTP.Inc()
		default:
			m.responseTime.Observe(r.ResponseTime().Seconds())
		}
		m.bytes.Add(float64(r.BodyBytes)) // as the report: bodies of requests that got a response
	}
	s.next.Record(batch)
}

// statusCounter is the requests_total child of a result, made at its first use.
func (m *Metrics) statusCounter(r *loader.Result) prometheus.Counter {
	key := statusKey{r.Kind, r.Status}
	if r.Err != loader.ErrNone {
		key.status = 0 // a head whose body then failed is no usable response, as in the report
	}
	c, ok := m.byStatus[key]
	if !ok {
		code := "none"
		if key.status != 0 {
			code = strconv.Itoa(int(key.status))
		}
		c = m.requests.WithLabelValues(kindName(r.Kind), code)
		m.byStatus[key] = c
	}
	return c
}

// kindName is a request kind's label value.
func kindName(k loader.Kind) string {
	switch k {
	case loader.KindResource:
		return "resource"
	case loader.KindLogin:
		return "login"
	}
	return "url"
}
