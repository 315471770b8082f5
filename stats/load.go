package stats

import (
	"fmt"

	"github.com/webload/webload/content"
	"github.com/webload/webload/internal/hdrcodec"
)

// load is the one function that reads a saved result (the JSON view) back into figures, adding
// it to what f holds: counts are summed and each histogram is decoded once, by a, into the figure
// it belongs to. What a result's own moment decides is left to the caller: its timeline (place
// says which bucket each of its intervals goes to, or nil to leave it out), the elapsed time,
// users, label, run and server. A steady state is never added: each run's ramp ends at its own
// moment. The URL rows are added by urlRows, URL by URL.
func (f *model) load(rep *Report, a *hdrcodec.HistAdder, place func(i int, p *TimelinePoint) *bucket) error {
	f.tally.Add(Tally{Requests: rep.Requests, Transactions: rep.Transactions, Successful: rep.SuccessfulTransactions,
		Failed: rep.FailedTransactions, Bytes: rep.BodyBytes})
	f.latency.addShortest(rep.Transactions, rep.ShortestTransaction)
	if err := f.latency.addSaved(rep.Transactions, rep.ResponseTime, rep.LongestTransaction, rep.Histogram, a); err != nil {
		return err
	}
	if err := f.service.addSaved(rep.Transactions, 0, rep.ServiceTime.Max, rep.ServiceHistogram, a); err != nil {
		return fmt.Errorf("service times: %w", err)
	}
	if err := f.status.addSaved(rep.StatusCodes); err != nil {
		return err
	}
	if err := f.checkStatus.addSaved(rep.CheckStatusCodes); err != nil {
		return fmt.Errorf("check_status_codes: %w", err)
	}
	if err := f.errors.addSaved(rep.Errors); err != nil {
		return err
	}
	for k, v := range rep.ErrorSamples {
		if f.errSamples == nil {
			f.errSamples = map[string]string{}
		}
		if _, ok := f.errSamples[k]; !ok {
			f.errSamples[k] = v // the first run's message of each kind
		}
	}
	f.busy.s += rep.Concurrency * rep.ElapsedTime
	f.inFlight += rep.InFlightAtStop
	f.resent += rep.Resent
	f.overflow += rep.LatencyOverflow
	f.decoded += rep.DecodedBytes
	f.wireIn += rep.WireBytesReceived
	f.wireOut += rep.WireBytesSent
	f.conns += rep.ConnectionsOpened
	f.h2.goAways += rep.HTTP2GoAways
	f.h2.resets += rep.HTTP2Resets
	f.h2.retries += rep.HTTP2Retries
	if err := loadPages(&f.pages, rep.Pages, a); err != nil {
		return fmt.Errorf("page histogram: %w", err)
	}
	if place != nil {
		for i := range rep.Timeline {
			p := &rep.Timeline[i]
			if err := loadPoint(place(i, p), p, a); err != nil {
				return fmt.Errorf("timeline at %g s: %w", p.Start, err)
			}
		}
	}
	if err := loadSchedule(&f.schedule, rep.Schedule, a); err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	f.extract.load(rep.Extractions)
	f.checks.load(rep.Checks)
	if err := f.logins.load(rep.Logins, a); err != nil {
		return fmt.Errorf("login steps: %w", err)
	}
	return nil
}

// urlRows adds up the results' URL rows, URL by URL, in one figure used again for each: the cost
// is what the results hold, never a histogram for each URL of a long list at once. The results
// have as many URLs each, in the same order.
func urlRows(results []Report, a *hdrcodec.HistAdder) ([]URLStats, error) {
	rows := make([]URLStats, len(results[0].URLs))
	enc := hdrcodec.NewHistEncoder()
	var u urlFigures
	for i := range rows {
		u.reset()
		for r := range results {
			if err := u.load(&results[r].URLs[i], a); err != nil {
				return nil, fmt.Errorf("run %d, URL %s: %w", r+1, results[r].URLs[i].URL, err)
			}
		}
		rows[i] = u.view(results[0].URLs[i].Method, results[0].URLs[i].URL, enc)
	}
	return rows, nil
}

// load adds a saved URL row to u.
func (u *urlFigures) load(s *URLStats, a *hdrcodec.HistAdder) error {
	u.tally.Add(Tally{Requests: s.Hits + s.Failures, Transactions: s.Hits, Failed: s.Failures, Bytes: s.Bytes})
	if u.checkFailure == "" {
		u.checkFailure = s.CheckFailure // the first run's
	}
	u.checkFailures += s.CheckFailures
	if u.extractFailure == "" {
		u.extractFailure = s.ExtractFailure
	}
	u.extract.add(extractCounts{taken: s.Extractions, missing: s.ExtractFailures - s.ExtractUnsent, unsent: s.ExtractUnsent})
	u.login = u.login || s.Login
	u.rules = max(u.rules, s.ExtractRules)
	if err := u.status.addSaved(s.StatusCodes); err != nil {
		return err
	}
	if err := u.checkStatus.addSaved(s.CheckStatusCodes); err != nil {
		return fmt.Errorf("check_status_codes: %w", err)
	}
	u.size.add(s.Size)
	if err := u.latency.addSaved(s.Hits, s.Mean, s.Max, s.Histogram, a); err != nil {
		return err
	}
	if s.Content != nil {
		u.content = content.Merge(u.content, *s.Content)
	}
	if s.Pages == nil {
		return nil
	}
	p := u.pageFor()
	p.addCounts(&pageFigures{pages: s.Pages.Pages, failed: s.Pages.Failed, cut: s.Pages.Cut, resources: s.Pages.Resources,
		resFailed: s.Pages.ResourceFailures, resBytes: s.Pages.ResourceBytes})
	if err := p.latency.addSaved(s.Pages.Pages-s.Pages.Failed, s.Pages.Mean, s.Pages.Max, s.Pages.Histogram, a); err != nil {
		return fmt.Errorf("pages: %w", err)
	}
	return nil
}

// loadPages adds saved overall page figures to p.
func loadPages(p *pageFigures, s *PageStats, a *hdrcodec.HistAdder) error {
	if s == nil {
		return nil
	}
	p.addCounts(&pageFigures{pages: s.Pages, failed: s.Failed, cut: s.Cut, resources: s.Resources,
		resFailed: s.ResourceFailures, redirects: s.Redirects, offHost: s.OffHostRedirects})
	return p.latency.addSaved(s.Pages-s.Failed, s.Mean, s.Percentiles.Max, s.Histogram, a)
}

// loadPoint adds a saved timeline interval to b.
func loadPoint(b *bucket, p *TimelinePoint, a *hdrcodec.HistAdder) error {
	b.saved = ""
	if b.tally == (Tally{}) {
		b.saved = p.Histogram
	}
	b.tally.Add(Tally{Requests: p.Requests, Transactions: p.Transactions, Successful: p.Successful,
		Failed: p.Failed, Bytes: p.Bytes})
	return b.latency.addSaved(p.Transactions, 0, p.Max, p.Histogram, a)
}

// loadSchedule adds a saved schedule to *dst, made at the first; the rate is the first's.
func loadSchedule(dst **scheduleFigures, s *Schedule, a *hdrcodec.HistAdder) error {
	if s == nil {
		return nil
	}
	if *dst == nil {
		*dst = &scheduleFigures{rate: s.Rate}
	}
	d := *dst
	d.unsent += s.Unsent
	d.users += s.Users
	d.maxUsers += s.MaxUsers
	if err := d.wait.addSaved(s.Delayed, s.DelayedWaitMean, s.DelayedWaitMax, "", a); err != nil {
		return err
	}
	return d.lag.addSaved(s.Sent, s.LagMean, s.LagMax, s.Histogram, a)
}
