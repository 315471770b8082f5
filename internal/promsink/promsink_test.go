package promsink

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/webload/webload/loader"
)

type countSink struct{ n int }

func (c *countSink) Record(b []loader.Result) { c.n += len(b) }

// values flattens the gathered metrics to "name{label=value,...}" -> value; a histogram gives
// its sample count.
func values(t *testing.T, m *Metrics) map[string]float64 {
	t.Helper()
	families, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range families {
		for _, metric := range f.GetMetric() {
			var labels []string
			for _, l := range metric.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			key := f.GetName() + "{" + strings.Join(labels, ",") + "}"
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				out[key] = metric.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				out[key] = metric.GetGauge().GetValue()
			case dto.MetricType_HISTOGRAM:
				out[key] = float64(metric.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}

func TestMetricsFromResults(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	batch := []loader.Result{
		{Status: 200, Latency: 5 * ms, BodyBytes: 100},
		{Status: 200, Latency: 7 * ms, BodyBytes: 100},
		{Status: 404, Latency: ms, BodyBytes: 10},
		{Status: 503, Latency: ms, BodyBytes: 20},
		{Err: loader.ErrRefused},
		{Status: 200, Err: loader.ErrReset, BodyBytes: 999}, // a head, then the body failed
		{Kind: loader.KindResource, Status: 200, BodyBytes: 1},
		{Kind: loader.KindLogin, Status: 302},
		{Kind: loader.KindPage, Status: 200, BodyBytes: 5000}, // a visit, not a request
	}
	m := New()
	var next countSink
	start := time.Now()
	s := m.Wrap(&next, start)
	s.Record(batch[:4])
	s.Record(batch[4:])
	got := values(t, m)
	tests := []struct {
		name string
		key  string
		want float64
	}{
		{"url 200", "webload_requests_total{code=200,kind=url}", 2},
		{"url 404", "webload_requests_total{code=404,kind=url}", 1},
		{"url 503", "webload_requests_total{code=503,kind=url}", 1},
		{"no usable response", "webload_requests_total{code=none,kind=url}", 2},
		{"resource", "webload_requests_total{code=200,kind=resource}", 1},
		{"login", "webload_requests_total{code=302,kind=login}", 1},
		{"refused", "webload_failures_total{error=refused}", 1},
		{"reset", "webload_failures_total{error=reset}", 1},
		{"a kind not seen is there at 0", "webload_failures_total{error=timeout}", 0},
		{"5xx", "webload_failures_total{error=http-status}", 1},
		{"bytes of usable responses", "webload_bytes_received_total{}", 231},
		{"transactions timed", "webload_response_time_seconds{}", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if v, ok := got[tt.key]; !ok || v != tt.want {
				t.Errorf("%s = %v (present %v), want %v", tt.key, v, ok, tt.want)
			}
		})
	}
	if next.n != len(batch) {
		t.Errorf("passed on %d results, want %d", next.n, len(batch))
	}
}

func TestElapsedGauge(t *testing.T) {
	t.Parallel()
	m := New()
	const key = "webload_run_elapsed_seconds{}"
	if v := values(t, m)[key]; v != 0 {
		t.Errorf("before a run: %v, want 0", v)
	}
	m.Wrap(&countSink{}, time.Now().Add(-2*time.Second))
	if v := values(t, m)[key]; v < 2 || v > 60 {
		t.Errorf("during a run started 2 s ago: %v", v)
	}
	m.RunEnded(1500 * time.Millisecond)
	if v := values(t, m)[key]; v != 1.5 {
		t.Errorf("after the run: %v, want its length 1.5", v)
	}
}

func TestHandlerServesTextFormat(t *testing.T) {
	t.Parallel()
	m := New()
	m.Wrap(&countSink{}, time.Now()).Record([]loader.Result{{Status: 200, Latency: time.Millisecond}})
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{`webload_requests_total{code="200",kind="url"} 1`,
		`webload_response_time_seconds_bucket{le="0.001"} 1`, `webload_response_time_seconds_bucket{le="60"} 1`} {
		if !strings.Contains(body, want) {
			t.Errorf("exposition lacks %q:\n%s", want, body)
		}
	}
}

// BenchmarkRecord is --prometheus-listen's cost per request.
func BenchmarkRecord(b *testing.B) {
	m := New()
	s := m.Wrap(&countSink{}, time.Now())
	batch := make([]loader.Result, 256)
	for i := range batch {
		batch[i] = loader.Result{Status: 200, Latency: time.Duration(1000+i*37) * time.Microsecond, BodyBytes: 4096}
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Record(batch)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(batch)), "ns/request")
}

// webload_users_active reads the run's busy users at each scrape and falls to 0 when the run
// ends; webload_step shows what SetStep set, 0 until then.
func TestUsersAndStepGauges(t *testing.T) {
	t.Parallel()
	m := New()
	const users, step = "webload_users_active{}", "webload_step{}"
	tests := []struct {
		name              string
		do                func()
		wantUsers, wantSt float64
	}{
		{name: "before a run", do: func() {}, wantUsers: 0, wantSt: 0},
		{name: "during a run", do: func() {
			m.Wrap(&countSink{}, time.Now())
			m.WatchUsers(func() int64 { return 17 })
		}, wantUsers: 17, wantSt: 0},
		{name: "a step", do: func() { m.SetStep(40) }, wantUsers: 17, wantSt: 40},
		{name: "after the run", do: func() { m.RunEnded(time.Second) }, wantUsers: 0, wantSt: 40},
	}
	for _, tt := range tests { // in order: each step builds on the last
		tt.do()
		v := values(t, m)
		if v[users] != tt.wantUsers || v[step] != tt.wantSt {
			t.Errorf("%s: users %v, step %v; want %v and %v", tt.name, v[users], v[step], tt.wantUsers, tt.wantSt)
		}
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, want := range []string{"webload_users_active 0\n", "webload_step 40\n", "# TYPE webload_users_active gauge"} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("exposition lacks %q:\n%s", want, rec.Body.String())
		}
	}
}
