package stats

import "github.com/webload/webload/sysload"

// combineServer summarises the server's load over a series: the highest load and memory of any
// run, and CPU busy weighted by each run's length.
func combineServer(runs []Report) *sysload.Summary {
	var out *sysload.Summary
	var busy, elapsed float64
	for i := range runs {
		s := runs[i].Server
		if s == nil {
			continue
		}
		if out == nil {
			out = &sysload.Summary{Source: s.Source, FirstError: s.FirstError}
		}
		out.Samples += s.Samples
		out.Failures += s.Failures
		out.MaxLoad1 = max(out.MaxLoad1, s.MaxLoad1)
		out.PeakMemUsedMB = max(out.PeakMemUsedMB, s.PeakMemUsedMB)
		out.MemTotalMB = max(out.MemTotalMB, s.MemTotalMB)
		busy += s.CPUBusyPercent * runs[i].ElapsedTime
		elapsed += runs[i].ElapsedTime
	}
	if out != nil && elapsed > 0 {
		out.CPUBusyPercent = busy / elapsed
	}
	return out
}
