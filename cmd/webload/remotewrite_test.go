package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/snappy"

	"github.com/webload/webload/internal/hdrcodec"
	"github.com/webload/webload/internal/prometheustest"
	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/remotewrite"
	"github.com/webload/webload/stats"
)

// A run sent to a real Prometheus reads back as the run's own figures: the p95 gauges exactly,
// the native histograms' p95 within the bucket that holds the run's 95th-percentile transaction,
// the counts exactly, overall and per URL; the counts were sent during the run as well as at its
// end; and every query of the example dashboard shows something.
func TestRemoteWriteReadsBackFromPrometheus(t *testing.T) {
	testtier.Slow(t)
	prom := prometheustest.Start(t)
	// Two URLs of different speeds, so that each URL's histogram has its own shape.
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(8 * time.Millisecond)
		} else {
			time.Sleep(time.Millisecond)
		}
		fmt.Fprintln(w, "ok")
	}))
	defer site.Close()
	list := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(list, []byte(site.URL+"/fast\n"+site.URL+"/slow\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := webload(t, nil, "-j", "-q", "-c", "4", "-t", "2s", "--interval", "200ms", "--label", "nightly",
		"--remote-write", prom+"/api/v1/write", "-f", list)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep stats.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("reading the report: %v", err)
	}
	if rep.Transactions == 0 || len(rep.URLs) != 2 {
		t.Fatalf("%d transactions over %d URLs, want some over 2", rep.Transactions, len(rep.URLs))
	}
	one := func(q string) float64 { return prometheustest.One(t, prom, q) }
	run := `run="nightly"`

	if got := one(`webload_response_time_quantile_seconds{` + run + `,quantile="0.95"}`); got != rep.Percentiles.P95 {
		t.Errorf("p95 gauge read back %v, the run's p95 is %v", got, rep.Percentiles.P95)
	}
	got := one(`histogram_quantile(0.95, webload_response_time_seconds{` + run + `})`)
	checkNativeQuantile(t, "the run", got, rep.Histogram, rep.Percentiles.P95)
	for q, want := range map[string]float64{
		`webload_requests_total{` + run + `}`:                         float64(rep.Requests),
		`webload_failures_total{` + run + `}`:                         float64(rep.FailedTransactions),
		`histogram_count(webload_response_time_seconds{` + run + `})`: float64(rep.Transactions),
	} {
		if got := one(q); got != want {
			t.Errorf("%s read back %v, want the run's %v", q, got, want)
		}
	}
	for _, u := range rep.URLs {
		sel := run + `,method="GET",url=` + prometheustest.Quote(u.URL)
		if got := one(`webload_url_response_time_quantile_seconds{` + sel + `,quantile="0.95"}`); got != u.P95 {
			t.Errorf("%s: p95 gauge read back %v, the run's is %v", u.URL, got, u.P95)
		}
		got := one(`histogram_quantile(0.95, webload_url_response_time_seconds{` + sel + `})`)
		checkNativeQuantile(t, u.URL, got, u.Histogram, u.P95)
		if got := one(`histogram_count(webload_url_response_time_seconds{` + sel + `})`); got != float64(u.Hits) {
			t.Errorf("%s: histogram count %v, want the run's %d transactions", u.URL, got, u.Hits)
		}
		if got := one(`webload_url_requests_total{` + sel + `}`); got != float64(u.Hits+u.Failures) {
			t.Errorf("%s: requests %v, want the run's %d", u.URL, got, u.Hits+u.Failures)
		}
	}
	// A 2 s run sends every 200 ms: some sends came before the report's.
	if n := one(`count_over_time(webload_requests_total{` + run + `}[10m])`); n < 2 {
		t.Errorf("webload_requests_total has %v samples, want the live ones and the report's", n)
	}
	checkDashboardQueries(t, prom)
}

// checkDashboardQueries runs every query of the example Grafana dashboard, its variables set as
// Grafana would, and checks each answers with some series.
func checkDashboardQueries(t *testing.T, prom string) {
	t.Helper()
	raw, err := os.ReadFile("../../examples/grafana/webload-remote-write.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("reading the dashboard: %v", err)
	}
	vars := strings.NewReplacer("$run", "nightly", "$__rate_interval", "1m", "$__range", "10m")
	for _, p := range doc.Panels {
		for _, target := range p.Targets {
			if got := prometheustest.Query(t, prom, vars.Replace(target.Expr)); len(got) == 0 {
				t.Errorf("dashboard panel %q: %s shows nothing", p.Title, target.Expr)
			}
		}
	}
}

// checkNativeQuantile checks that p95, read back from a native histogram, lies in the native
// bucket that holds the 95th-percentile transaction of encoded, the run's HdrHistogram. That
// bucket is found as Prometheus finds it: the first whose cumulative count reaches 0.95·n.
// HdrHistogram rounds that rank to the nearest transaction instead, so the report's p95 (want)
// is that bucket's HDR value or, when 0.95·n has a fraction below one half, the transaction
// before it.
func checkNativeQuantile(t *testing.T, what string, got float64, encoded string, want float64) {
	t.Helper()
	h, err := hdrcodec.DecodeOurs(encoded)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	rank := 0.95 * float64(h.TotalCount())
	var cum int64
	var top int64
	for v, c := range h.ForEachBucket {
		cum += c
		if float64(cum) >= rank {
			top = remotewrite.HDRHighest(v)
			break
		}
	}
	lo, hi := remotewrite.BucketBounds(remotewrite.BucketIndex(float64(top) / 1e6))
	if got < lo || got > hi {
		t.Errorf("%s: histogram_quantile(0.95) read back %v, outside the native bucket (%v, %v] of the run's 95th-percentile transaction",
			what, got, lo, hi)
	}
	t.Logf("%s: p95 %v s in the report; histogram_quantile(0.95) read back %v s, in (%v, %v], %.3g %% from the report's",
		what, want, got, lo, hi, 100*math.Abs(got-want)/want)
}

// A remote-write endpoint that cannot be reached costs one line on stderr, never the run, and
// the line keeps the endpoint's password out.
func TestRemoteWriteFailureNeverFailsTheRun(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, http.StatusOK)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://ops:s3cret-pw@" + l.Addr().String() + "/api/v1/write"
	l.Close()
	stdout, stderr, code := webload(t, nil, "-q", "-c", "2", "-r", "5", "--remote-write", closed, site.URL+"/a")
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	if site.snapshot()["/a"] != 10 {
		t.Errorf("site got %d requests, want 10", site.snapshot()["/a"])
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "sends failed") || !strings.Contains(lines[0], "ops:xxxxx@") {
		t.Errorf("stderr is not one line telling the failed sends:\n%s", stderr)
	}
	if strings.Contains(stdout+stderr, "s3cret") {
		t.Errorf("the password is shown:\n%s\n%s", stdout, stderr)
	}
}

// A URL that is not one is refused before the run, naming the flag, in one line.
func TestRemoteWriteBadURL(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, http.StatusOK)
	_, stderr, code := webload(t, nil, "-c", "1", "-r", "1", "--remote-write", "ftp://ops:s3cret@host/w", site.URL+"/a")
	if code == 0 || !strings.Contains(stderr, "--remote-write") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 ||
		strings.Contains(stderr, "s3cret") {
		t.Errorf("exit %d, stderr %q: want a failure naming the flag in one line, without the password", code, stderr)
	}
	if n := site.snapshot()["/a"]; n != 0 {
		t.Errorf("site got %d requests, want none", n)
	}
}

// A run stopped by Ctrl-C still sends its report's figures: they are what was measured.
func TestRemoteWriteSendsTheReportOfAnInterruptedRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var mu sync.Mutex
	hits := 0
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if hits++; hits == 20 {
			cancel() // as Ctrl-C does
		}
		mu.Unlock()
		fmt.Fprintln(w, "ok")
	}))
	defer site.Close()
	var reports int
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		raw, err := snappy.Decode(nil, body)
		mu.Lock()
		if err == nil && bytes.Contains(raw, []byte(remotewrite.MetricQuantile)) {
			reports++
		}
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	var out, errw bytes.Buffer
	// The run ends interrupted, which is not what is checked here.
	_ = runApp(ctx, []string{"webload", "-q", "-c", "2", "-t", "1m", "--remote-write", receiver.URL + "/api/v1/write", site.URL + "/a"},
		&out, &errw, func(string) (string, bool) { return "", false })
	mu.Lock()
	defer mu.Unlock()
	if reports != 1 {
		t.Errorf("receiver got %d reports, want 1; stderr:\n%s", reports, errw.String())
	}
}
