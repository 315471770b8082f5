package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// newPageSite serves an HTML page with two resources at /, so runs make resource requests.
func newPageSite(t *testing.T) *httptest.Server {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><img src="/logo.png"><script src="/app.js"></script></body></html>`)
			return
		}
		fmt.Fprint(w, "asset "+r.URL.Path)
	}))
	t.Cleanup(site.Close)
	return site
}

// writeURLs writes a URL file of the given lines.
func writeURLs(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCSVRowsAreTheRequests(t *testing.T) {
	t.Parallel()
	site := newPageSite(t)
	urls := writeURLs(t, site.URL+"/", "http://127.0.0.1:1/refused")
	tests := []struct {
		name string
		args []string
	}{
		{"one run", []string{"-c", "2", "-r", "4"}},
		{"a repeat series under one header", []string{"-c", "2", "-r", "3", "--repeat", "2", "--repeat-pause", "0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(t.TempDir(), "requests.csv")
			args := append([]string{"-j", "-f", urls, "--csv", file}, tt.args...)
			stdout, stderr, code := webload(t, nil, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			rep := decode(t, []byte(stdout))
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
			if err != nil {
				t.Fatalf("not CSV: %v\n%s", err, data)
			}
			if got := strings.Join(rows[0], ","); got != "time,offset_s,method,url,kind,status,bytes,decoded_bytes,latency_ms,service_ms,error,user" {
				t.Fatalf("header %s", got)
			}
			if got, want := len(rows)-1, int(rep["requests"].(float64)); got != want {
				t.Errorf("%d rows, want the report's %d requests", got, want)
			}
			kinds, refused := map[string]int{}, 0
			for i, row := range rows[1:] {
				checkCSVRow(t, i+1, row)
				kinds[row[4]]++
				if row[10] == "refused" {
					refused++
					if row[5] != "" || !strings.HasSuffix(row[3], ":1/refused") {
						t.Errorf("row %d: a refused request with status %q, url %q", i+1, row[5], row[3])
					}
				}
			}
			if want := int(rep["errors"].(map[string]any)["refused"].(float64)); refused != want || refused == 0 {
				t.Errorf("%d rows with error=refused, want the report's %d", refused, want)
			}
			if kinds["resource"] == 0 || kinds["url"] == 0 {
				t.Errorf("rows by kind %v, want url and resource rows", kinds)
			}
		})
	}
}

// checkCSVRow parses every column of a --csv row.
func checkCSVRow(t *testing.T, i int, row []string) {
	t.Helper()
	if len(row) != 12 {
		t.Fatalf("row %d has %d columns: %q", i, len(row), row)
	}
	if _, err := time.Parse(time.RFC3339Nano, row[0]); err != nil || len(row[0]) != len("2006-01-02T15:04:05.000Z") {
		t.Errorf("row %d: time %q (%v)", i, row[0], err)
	}
	for _, col := range []int{1, 8, 9} { // offset_s, latency_ms, service_ms
		if v, err := strconv.ParseFloat(row[col], 64); err != nil || v < 0 {
			t.Errorf("row %d: column %d is %q", i, col+1, row[col])
		}
	}
	for _, col := range []int{6, 7, 11} { // bytes, decoded_bytes, user
		if _, err := strconv.ParseInt(row[col], 10, 64); err != nil {
			t.Errorf("row %d: column %d is %q", i, col+1, row[col])
		}
	}
	if row[5] != "" {
		if code, err := strconv.Atoi(row[5]); err != nil || code < 100 {
			t.Errorf("row %d: status %q", i, row[5])
		}
	}
	if row[2] != "GET" || !strings.HasPrefix(row[3], "http://127.0.0.1:") {
		t.Errorf("row %d: request %s %s", i, row[2], row[3])
	}
}

// The interval log's histograms are the JSON timeline's, interval for interval. Reading them
// back with HdrHistogram's own reader is stats' test: only stats imports hdrhistogram-go.
// Each user's 150 requests of at least 2 ms take at least 300 ms, so the run spans at least 3
// intervals of 100 ms however fast the machine.
func TestHdrLogFile(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 2*time.Millisecond, 200)
	file := filepath.Join(t.TempDir(), "run.hlog")
	stdout, stderr, code := webload(t, nil, "-j", "-c", "2", "-r", "150", "--interval", "100ms", "--hdr-log", file, site.URL+"/h")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rep := decode(t, []byte(stdout))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var payloads []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, `"`) {
			continue // comments, start and base times, legend
		}
		fields := strings.Split(line, ",")
		if len(fields) != 4 {
			t.Fatalf("interval line %q", line)
		}
		payloads = append(payloads, fields[3])
	}
	timeline := rep["timeline"].([]any)
	if len(payloads) != len(timeline) || len(payloads) < 3 {
		t.Fatalf("%d intervals, want the timeline's %d", len(payloads), len(timeline))
	}
	var transactions float64
	for i, p := range timeline {
		point := p.(map[string]any)
		transactions += point["transactions"].(float64)
		if h, _ := point["histogram"].(string); h != "" && payloads[i] != h {
			t.Errorf("interval %d: histogram %s, want the timeline's %s", i, payloads[i], h)
		}
	}
	if transactions != rep["transactions"].(float64) || transactions != 300 {
		t.Errorf("the intervals hold %v transactions, the run %v", transactions, rep["transactions"])
	}
}

// scrapeRequests reads webload_requests_total, summed over its labels; ok is false while
// nothing serves the metrics.
func scrapeRequests(t *testing.T, url string) (total float64, ok bool) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("scrape: %v", err)
	}
	for _, name := range []string{"webload_failures_total", "webload_bytes_received_total",
		"webload_response_time_seconds", "webload_run_elapsed_seconds"} {
		if families[name] == nil {
			t.Errorf("scrape lacks %s", name)
		}
	}
	if f := families["webload_requests_total"]; f != nil {
		for _, m := range f.GetMetric() {
			total += m.GetCounter().GetValue()
		}
	}
	return total, true
}

func TestPrometheusDuringTheRun(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	addr := closedAddr(t) // free now; another process could take it first, which a test accepts
	type result struct {
		stdout, stderr string
		code           int
	}
	// The run lasts until the test has scraped twice and stops it as Ctrl-C does, so a busy
	// machine that starts it late cannot end it before the second scrape.
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	runCtx, stop := context.WithTimeout(ctx, 60*time.Second)
	defer stop()
	done := make(chan result, 1)
	go func() {
		var out, errw bytes.Buffer
		args := []string{"webload", "-j", "--rate", "50", "-t", "1H", "--prometheus-listen", addr, site.URL + "/p"}
		err := runApp(runCtx, args, &out, &errw, func(string) (string, bool) { return "", false })
		done <- result{out.String(), errw.String(), exitCode(err, &errw)}
	}()
	// Scrape until the count has grown past the first scrape's: a busy machine may complete
	// nothing between two scrapes, but not for 20 s.
	url := "http://" + addr + "/metrics"
	var scrapes []float64
	deadline := time.Now().Add(20 * time.Second)
	for (len(scrapes) < 2 || scrapes[len(scrapes)-1] <= scrapes[0]) && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		if n, ok := scrapeRequests(t, url); ok && n > 0 {
			scrapes = append(scrapes, n)
		}
	}
	cancel(signalCause{syscall.SIGINT})
	res := <-done
	if res.code != 130 {
		t.Fatalf("exit %d, want 130 (stopped as by Ctrl-C): %s", res.code, res.stderr)
	}
	if len(scrapes) < 2 || scrapes[len(scrapes)-1] <= scrapes[0] || !slices.IsSorted(scrapes) {
		t.Fatalf("requests_total in the scrapes: %v, want growth and never a fall", scrapes)
	}
	final := decode(t, []byte(res.stdout))["requests"].(float64)
	if last := scrapes[len(scrapes)-1]; last > final {
		t.Errorf("last scrape %v requests, more than the report's %v", last, final)
	}
	if _, ok := scrapeRequests(t, url); ok {
		t.Error("the metrics are still served after the run")
	}
}

func TestPrometheusListensOnLoopbackOnly(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	_, stderr, code := webload(t, nil, "-c", "1", "-r", "1", "--prometheus-listen", "0.0.0.0:9464", site.URL+"/x")
	if code != exitUsage || !strings.Contains(stderr, "--prometheus-listen: listens on loopback only") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if n := site.snapshot()["/x"]; n != 0 {
		t.Errorf("the run went ahead: %d requests", n)
	}
}
