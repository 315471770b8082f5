package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/webload/webload/stats"
)

// writeCheckCost adds a line when judging the checks took the users longer per answer than the
// mean response time: then the client's checks, not the server, set the pace of the run.
// Nothing otherwise, so runs whose checks cost little read as before.
func writeCheckCost(b *strings.Builder, rep *stats.Report) {
	c := rep.Checks
	if c == nil || c.Mean <= rep.ResponseTime {
		return
	}
	fmt.Fprintf(b, "Check time:%s%12.3f ms per answer judged, more than the %.3f ms mean response time: "+
		"the users spent longer judging answers than waiting for them (%d answers, %.2f s in all, off the response times)\n",
		tabsAfter("Check time:"), c.Mean*1000, rep.ResponseTime*1000, c.Answers, c.Time)
}

// writePages adds the page lines to the text report.
func writePages(b *strings.Builder, rep *stats.Report) {
	p := rep.Pages
	if p == nil {
		return
	}
	if p.Cut > 0 {
		fmt.Fprintf(b, "Pages loaded:\t\t%12d (%d failed, %d more cut short by the end of the run)\n", p.Pages, p.Failed, p.Cut)
	} else {
		fmt.Fprintf(b, "Pages loaded:\t\t%12d (%d failed)\n", p.Pages, p.Failed)
	}
	fmt.Fprintf(b, "Page load time:\t\t%12.3f ms mean, p50 %.3f ms, p95 %.3f ms, p99 %.3f ms, max %.3f ms\n",
		p.Mean*1000, p.Percentiles.P50*1000, p.Percentiles.P95*1000, p.Percentiles.P99*1000, p.Percentiles.Max*1000)
	perPage := 0.0
	if visits := p.Pages + p.Cut; visits > 0 {
		perPage = float64(p.Resources) / float64(visits)
	}
	fmt.Fprintf(b, "Page resources:\t\t%12d fetched (%.2f per page), %d failed\n", p.Resources, perPage, p.ResourceFailures)
	fmt.Fprintf(b, "Redirects:\t\t%12d (%d to other hosts, not followed)\n", p.Redirects, p.OffHostRedirects)
	if rep.DecodedBytes != rep.BodyBytes {
		fmt.Fprintf(b, "Decoded data:\t\t%12.2f MB (%.2f MB as received, compressed)\n",
			float64(rep.DecodedBytes)/stats.Megabyte, float64(rep.BodyBytes)/stats.Megabyte)
	}
}

// writeShards says, in the text report, which shard a result is or which shards it merges.
func writeShards(b *strings.Builder, rep *stats.Report) {
	if sh := rep.Run.Shard; sh != nil {
		fmt.Fprintf(b, "Shard:\t\t\t%12s of a sharded run (merge the shards' results with webload merge)", fmt.Sprintf("%d/%d", sh.Index, sh.Count))
		if !sh.PlannedStart.IsZero() {
			fmt.Fprintf(b, "; started %.3f ms after the planned start", sh.StartOffset*1000)
		}
		b.WriteString("\n")
	}
	if n := len(rep.Run.Shards); n > 0 {
		fmt.Fprintf(b, "Shards:\t\t\t%12d merged; %s\n", n, shardsStart(rep.Run))
	}
}

// shardsStart says how late the latest of a merged run's shards started and, when they did not
// run together, for how long they did. Merges saved before the overlap was recorded give the
// planned start's lateness alone.
func shardsStart(run stats.RunInfo) string {
	o := run.ShardsOverlap
	if o == nil {
		late := 0.0
		for _, sh := range run.Shards {
			late = max(late, sh.StartOffset)
		}
		return fmt.Sprintf("the latest started %.3f ms after the planned start", late*1000)
	}
	since := "the planned start"
	if run.Shards[0].PlannedStart.IsZero() {
		since = "the earliest"
	}
	s := fmt.Sprintf("the latest started %.3f ms after %s", o.Lateness*1000, since)
	if !o.Overlapped {
		s += fmt.Sprintf("; NOT run together: all at once for %.3f s of the shortest shard's %.3f s", o.Together, o.Shortest)
	}
	return s
}

// WriteSteps writes a ladder's table, one row per step as sysbench prints one per thread
// count, so the knee reads down the TRate and p95 columns. Conc is the mean requests in flight
// (siege's Concurrency); Little is the step's Little ratio with its verdict.
func WriteSteps(b *strings.Builder, rep *stats.Report) {
	if len(rep.Steps) == 0 {
		return
	}
	fmt.Fprintf(b, "\nLadder of %d steps, one after the other (the figures above are all of them together):\n", len(rep.Steps))
	b.WriteString("Ladder:      users     TRate/s   RTime ms     p95 ms     p99 ms     failed     Conc  Little\n")
	for i := range rep.Steps {
		s := &rep.Steps[i]
		fmt.Fprintf(b, "%18d %11.2f %10.2f %10.2f %10.2f %10d %8.2f  %s\n", s.Run.Users, s.TransactionRate,
			s.ResponseTime*1000, s.Percentiles.P95*1000, s.Percentiles.P99*1000, s.FailedTransactions, s.Concurrency,
			LittleVerdict(s.Little()))
	}
}

// LittleVerdict shows a Little ratio (Report.Little) and whether it is within LittleTolerance
// of 1: "0.98 ok", "0.62 off by -38%", or "-" for a run without users.
func LittleVerdict(ratio float64) string {
	switch {
	case ratio == 0:
		return "-"
	case math.Abs(ratio-1) <= stats.LittleTolerance:
		return fmt.Sprintf("%.2f ok", ratio)
	}
	return fmt.Sprintf("%.2f off by %+.0f%%", ratio, (ratio-1)*100)
}

// writeSections adds each section's block, its labels aligned with the report's.
func writeSections(b *strings.Builder, rep *stats.Report) {
	for _, l := range stats.SectionLines(rep) {
		if l.Label == "" {
			b.WriteString(l.Value + "\n")
			continue
		}
		fmt.Fprintf(b, "%s%s%s\n", l.Label, tabsAfter(l.Label), l.Value)
	}
}

// writeReplay reports what the log planned beside what was sent, and the lines left out.
func writeReplay(b *strings.Builder, rep *stats.Report) {
	r := rep.Replay
	if r == nil {
		return
	}
	fmt.Fprintf(b, "Replay:\t\t\t%12d requests planned from %s to %s of the log's clock at %gx; %d sent, %d unsent\n",
		r.Planned, r.LogStart, r.LogEnd, r.Speed, r.Sent, r.Unsent)
	fmt.Fprintf(b, "Replay lateness:\t%12.3f ms p50, %.3f ms p99, %.3f ms max (the dispatcher behind the log's clock)\n",
		r.LatenessP50*1000, r.LatenessP99*1000, r.LatenessMax*1000)
	left := []string{fmt.Sprintf("unparsable: %d", r.Unparsed)}
	for _, k := range slices.Sorted(maps.Keys(r.Skipped)) {
		left = append(left, fmt.Sprintf("%s: %d", k, r.Skipped[k]))
	}
	fmt.Fprintf(b, "Log lines:\t\t%12d read; left out: %s\n", r.Lines, strings.Join(left, ", "))
	for _, s := range r.UnparsedSamples {
		fmt.Fprintf(b, "Unparsable line:\t%s\n", s)
	}
}
