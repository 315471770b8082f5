// Package prometheustest runs Debian's Prometheus server on a free loopback port, with its
// remote-write receiver and native histograms on, for tests that must send to and read from
// the real thing.
package prometheustest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/nodeexportertest"
)

// Binary is where Debian's prometheus package installs the server.
const Binary = "/usr/bin/prometheus"

// Start runs a Prometheus server that scrapes nothing and keeps its data in a temporary folder,
// and returns its base URL (http://127.0.0.1:PORT) once it answers. It skips the test when the
// server is not installed, and kills it when the test ends.
func Start(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, nil, 0o600); err != nil { // no scrape: only what is written
		t.Fatalf("writing the config: %v", err)
	}
	metrics := nodeexportertest.Run(t, Binary, "prometheus", nil, func(addr string) []string {
		return []string{"--config.file=" + config, "--storage.tsdb.path=" + filepath.Join(dir, "data"),
			"--web.listen-address=" + addr, "--web.enable-remote-write-receiver",
			"--enable-feature=native-histograms"}
	})
	return strings.TrimSuffix(metrics, "/metrics")
}

// Value is one element of an instant query's vector: its labels and value, or its count when
// it is a native histogram.
type Value struct {
	Metric    map[string]string
	Value     float64
	Histogram bool
}

// Query runs an instant PromQL query at the present time and returns its vector.
func Query(t testing.TB, base, query string) []Value {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(base + "/api/v1/query?query=" + url.QueryEscape(query))
	if err != nil {
		t.Fatalf("query %s: %v", query, err)
	}
	defer resp.Body.Close()
	var body struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			ResultType string `json:"resultType"`
			Result     []struct {
				Metric    map[string]string `json:"metric"`
				Value     [2]any            `json:"value"`
				Histogram [2]any            `json:"histogram"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("query %s: reading the answer: %v", query, err)
	}
	if body.Status != "success" || body.Data.ResultType != "vector" {
		t.Fatalf("query %s: %s %s (result type %q)", query, body.Status, body.Error, body.Data.ResultType)
	}
	out := make([]Value, 0, len(body.Data.Result))
	for _, r := range body.Data.Result {
		s, _ := r.Value[1].(string)
		h, isHist := r.Histogram[1].(map[string]any)
		if isHist {
			s, _ = h["count"].(string)
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("query %s: value %v%v: %v", query, r.Value[1], r.Histogram[1], err)
		}
		out = append(out, Value{Metric: r.Metric, Value: v, Histogram: isHist})
	}
	return out
}

// One runs a query whose vector must hold exactly one element, and returns its value.
func One(t testing.TB, base, query string) float64 {
	t.Helper()
	v := Query(t, base, query)
	if len(v) != 1 {
		t.Fatalf("query %s: %d results, want 1: %v", query, len(v), v)
	}
	return v[0].Value
}

// Quote writes s as a PromQL string literal.
func Quote(s string) string { return fmt.Sprintf("%q", s) }
