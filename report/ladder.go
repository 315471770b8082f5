package report

import "github.com/webload/webload/stats"

// ladder is what the page draws of concurrency ladders (-c 10,20,40): the transaction rate and
// the p95 of each step against its users, a line per result on one x axis, so that where the
// rate flattens and the p95 climbs (the knee) shows, and two stacks' knees side by side. A
// result that is no ladder has no point.
type ladder struct {
	Rate curves `json:"rate"` // transactions per second
	P95  curves `json:"p95"`  // ms
}

// buildLadder reads the ladders among results; nil when there is none, and the page draws no
// such chart.
func buildLadder(results []stats.Report) *ladder {
	users := make([][]float64, len(results))
	rates := make([][]float64, len(results))
	p95s := make([][]float64, len(results))
	found := false
	for i := range results {
		for _, s := range results[i].Steps {
			found = true
			users[i] = append(users[i], float64(s.Run.Users))
			rates[i] = append(rates[i], round(s.TransactionRate, 100))
			p95s[i] = append(p95s[i], msRound(s.Percentiles.P95))
		}
	}
	if !found {
		return nil
	}
	return &ladder{Rate: alignCurves(users, rates), P95: alignCurves(users, p95s)}
}
