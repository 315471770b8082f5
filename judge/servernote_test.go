package judge

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webload/webload/internal/gatetest"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/sysload"
)

// withServer is a saved result whose server load was read from source.
func withServer(label, source string) stats.Report {
	r := *gatetest.Report()
	r.Label = label
	if source != "" {
		r.Server = &sysload.Summary{Source: source, Samples: 3, MaxLoad1: 1.5, PeakMemUsedMB: 900}
	}
	return r
}

// LA and MEM read with --server-metrics local describe the load machine: compare and the trend
// say so beside the columns and in a note, in text, Markdown and JSON.
func TestCompareSaysServerMetricsLocal(t *testing.T) {
	t.Parallel()
	exporter := "http://db1:9100/metrics"
	tests := []struct {
		name    string
		sources []string
		note    string // "" when no note is due
	}{
		{"node exporter", []string{exporter, exporter}, ""},
		{"no server metrics", []string{"", ""}, ""},
		{"every run local", []string{sysload.LocalSpec, sysload.LocalSpec}, "(--server-metrics local) in every run"},
		{"one run local", []string{exporter, sysload.LocalSpec}, "(--server-metrics local) in new"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runs := []stats.Report{withServer("old", tc.sources[0]), withServer("new", tc.sources[1])}
			c, err := Compare(runs, false)
			if err != nil {
				t.Fatal(err)
			}
			var text, md, js bytes.Buffer
			if err := c.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if err := c.WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			if err := stats.WriteJSON(&js, c); err != nil {
				t.Fatal(err)
			}
			var parsed struct {
				Columns []struct{ Key, Note string }
				Notes   []string
			}
			if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
				t.Fatal(err)
			}
			notes := map[string]string{}
			for _, col := range parsed.Columns {
				notes[col.Key] = col.Note
			}
			marked := strings.Contains(text.String(), "LA†") && strings.Contains(text.String(), "MEM (MB)†") &&
				strings.Contains(md.String(), "| LA† |") && strings.Contains(md.String(), "| MEM (MB)† |")
			noted := strings.Contains(text.String(), "Note: † LA and MEM were read on the load machine itself") &&
				strings.Contains(md.String(), "Note: † LA and MEM were read on the load machine itself")
			if tc.note == "" {
				if marked || noted || notes["la"] != "" || notes["mem"] != "" || strings.Contains(js.String(), "load machine") {
					t.Errorf("a note without local server metrics:\n%s\n%s", text.String(), js.String())
				}
				return
			}
			if !marked || !noted || !strings.Contains(text.String(), tc.note) {
				t.Errorf("text and Markdown do not say so (%q):\n%s\n%s", tc.note, text.String(), md.String())
			}
			for _, key := range []string{"la", "mem"} {
				if !strings.Contains(notes[key], "load machine") {
					t.Errorf("JSON column %s: note %q", key, notes[key])
				}
			}
			if notes["p95"] != "" || len(parsed.Notes) == 0 || !strings.Contains(strings.Join(parsed.Notes, "\n"), tc.note) {
				t.Errorf("JSON notes: %q %v", notes["p95"], parsed.Notes)
			}

			tr, err := NewTrend(runs, 2)
			if err != nil {
				t.Fatal(err)
			}
			var trend bytes.Buffer
			if err := tr.WriteText(&trend); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(trend.String(), "LA†") || !strings.Contains(trend.String(), "MEM MB†") || !strings.Contains(trend.String(), tc.note) {
				t.Errorf("trend text:\n%s", trend.String())
			}
		})
	}
}

// A series counts as local when any of its runs read the load machine.
func TestLocalServerInSeries(t *testing.T) {
	t.Parallel()
	series := withServer("s", "")
	series.Repeats = []stats.Report{withServer("s", "http://db1:9100/metrics"), withServer("s", sysload.LocalSpec)}
	if !localServer(&series) {
		t.Error("a series with a local run")
	}
	if notes := ServerNotes([]stats.Report{withServer("a", "")}, []string{"a"}); notes != nil {
		t.Errorf("notes without server metrics: %v", notes)
	}
}
