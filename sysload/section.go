package sysload

import (
	"fmt"

	"github.com/webload/webload/section"
)

// needs is what the server's figures need.
const needs = "--server-metrics"

// Figures are the server's figures, read with --server-metrics.
var Figures = []section.Figure{
	{Name: "la", Kind: section.Rate, Needs: needs,
		Column: section.Column{Key: "la", Title: "LA", Scale: 1, Decimals: 2}},
	{Name: "mem", Kind: section.Count, Unit: " MB", Needs: needs,
		Column: section.Column{Key: "mem", Title: "MEM", Unit: "MB", Scale: 1}},
}

// Value reads one of Figures: the LA column is the highest 1-minute load average seen during
// the run, the MEM column the peak memory in use, in MB.
func (s *Summary) Value(figure string, _ section.Run) (float64, bool) {
	if s == nil || s.Samples == 0 {
		return 0, false
	}
	switch figure {
	case "la":
		return s.MaxLoad1, true
	case "mem":
		return s.PeakMemUsedMB, true
	}
	return 0, false
}

// Lines are the server's load and how it was read.
func (s *Summary) Lines(section.Run) []section.Line {
	samples := fmt.Sprintf("%12d from %s, %d failed", s.Samples, s.Source, s.Failures)
	if s.FirstError != "" {
		samples += fmt.Sprintf(" (first: %s)", s.FirstError)
	}
	return []section.Line{
		{Label: "Server load:", Value: fmt.Sprintf("%12.2f max load average, %.0f MB peak memory in use of %.0f MB, %.1f %% CPU busy",
			s.MaxLoad1, s.PeakMemUsedMB, s.MemTotalMB, s.CPUBusyPercent)},
		{Label: "Server samples:", Value: samples},
	}
}

// Combine summarises the server's load over several runs (a series, or the shards of one run),
// each given with its length in seconds: the highest load and memory of any, and CPU busy
// weighted by each one's length. nil when none measured the server.
func Combine(parts []*Summary, seconds []float64) *Summary {
	var out *Summary
	var busy, elapsed float64
	for i, s := range parts {
		if s == nil {
			continue
		}
		if out == nil {
			out = &Summary{Source: s.Source, FirstError: s.FirstError}
		}
		out.Samples += s.Samples
		out.Failures += s.Failures
		out.MaxLoad1 = max(out.MaxLoad1, s.MaxLoad1)
		out.PeakMemUsedMB = max(out.PeakMemUsedMB, s.PeakMemUsedMB)
		out.MemTotalMB = max(out.MemTotalMB, s.MemTotalMB)
		busy += s.CPUBusyPercent * seconds[i]
		elapsed += seconds[i]
	}
	if out != nil && elapsed > 0 {
		out.CPUBusyPercent = busy / elapsed
	}
	return out
}
