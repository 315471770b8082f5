package remotewrite

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"testing"
)

// dashboard is the example Grafana dashboard of the series sent.
const dashboard = "../examples/grafana/webload-remote-write.json"

// The example dashboard is valid JSON, each of its queries names metrics the code sends and
// nothing else, and every metric sent is shown somewhere.
func TestDashboardQueriesNameSentMetrics(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(dashboard)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&doc); err != nil || dec.More() {
		t.Fatalf("%s is not one JSON document: %v", dashboard, err)
	}
	queries := dashboardQueries(doc)
	if len(queries) == 0 {
		t.Fatalf("%s has no queries", dashboard)
	}
	sent := Metrics()
	shown := map[string]bool{}
	name := regexp.MustCompile(`\bwebload_[a-z_]+`)
	for _, q := range queries {
		names := name.FindAllString(q, -1)
		if len(names) == 0 {
			t.Errorf("query %q names no webload metric", q)
		}
		for _, n := range names {
			if !slices.Contains(sent, n) {
				t.Errorf("query %q names %s, which is not sent", q, n)
			}
			shown[n] = true
		}
	}
	for _, m := range sent {
		if !shown[m] {
			t.Errorf("%s is sent but the dashboard shows it nowhere", m)
		}
	}
}

// dashboardQueries are the PromQL expressions of a Grafana dashboard: its panels' targets'
// "expr" and its variables' "definition".
func dashboardQueries(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := e.(string); ok && (k == "expr" || k == "definition") {
				out = append(out, s)
				continue
			}
			out = append(out, dashboardQueries(e)...)
		}
	case []any:
		for _, e := range v {
			out = append(out, dashboardQueries(e)...)
		}
	}
	return out
}
