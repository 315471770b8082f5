package stats

import "github.com/webload/webload/internal/hdrcodec"

// report is the one function that makes the JSON view of the figures. name gives URL i's method
// and URL as the report shows them. One encoder serves every per-URL histogram, so a long URL
// list costs what its histograms hold; the few overall ones go through the library.
func (f *model) report(name func(i int) (method, url string)) Report {
	rep := Report{
		Transactions:           f.tally.Transactions,
		ElapsedTime:            f.elapsed,
		DataTransferred:        float64(f.tally.Bytes) / Megabyte,
		SuccessfulTransactions: f.tally.Successful,
		FailedTransactions:     f.tally.Failed,
		LongestTransaction:     f.latency.Max(),
		ShortestTransaction:    f.latency.Min(),
		Label:                  f.label,
		StatusCodes:            f.status.view(),
		CheckStatusCodes:       f.checkStatus.view(),
		Errors:                 f.errors.view(),
		ErrorSamples:           f.errSamples,
		Requests:               f.tally.Requests,
		InFlightAtStop:         f.inFlight,
		Resent:                 f.resent,
		BodyBytes:              f.tally.Bytes,
		WireBytesReceived:      f.wireIn,
		WireBytesSent:          f.wireOut,
		ConnectionsOpened:      f.conns,
		HTTP2GoAways:           f.h2.goAways,
		HTTP2Resets:            f.h2.resets,
		HTTP2Retries:           f.h2.retries,
		LatencyOverflow:        f.overflow,
		Users:                  f.users,
		Histogram:              f.latency.encodeAll(),
		ServiceHistogram:       f.service.encodeAll(),
		Pages:                  f.pages.stats(),
		DecodedBytes:           f.decoded,
		TimelineInterval:       f.interval,
		Run:                    f.run,
		Repeats:                f.repeats,
		Extractions:            f.extract.view(),
		Checks:                 f.checks.view(),
		Logins:                 f.logins.view(),
	}
	if n := f.tally.Transactions + f.tally.Failed; n > 0 {
		rep.Availability = float64(f.tally.Transactions) / float64(n) * 100
	}
	if f.tally.Transactions > 0 {
		rep.ResponseTime = f.latency.Mean()
		rep.Percentiles = f.latency.percentiles(f.latency.Max())
		// The exact longest service time is not kept; the histogram's is within 0.1 %.
		rep.ServiceTime = f.service.percentiles(f.service.histMax())
	}
	if f.elapsed > 0 {
		rep.TransactionRate = float64(f.tally.Transactions) / f.elapsed
		rep.Throughput = rep.DataTransferred / f.elapsed
		rep.Concurrency = f.busy.seconds() / f.elapsed
	}
	enc := hdrcodec.NewHistEncoder()
	rep.URLs = make([]URLStats, 0, len(f.urls))
	for i, u := range f.urls {
		method, url := name(i)
		rep.URLs = append(rep.URLs, u.view(method, url, enc))
	}
	if f.timeline != nil {
		rep.Timeline = make([]TimelinePoint, 0, len(f.timeline))
	}
	for i := range f.timeline {
		rep.Timeline = append(rep.Timeline, f.timeline[i].point())
	}
	if f.schedule != nil {
		rep.Schedule = f.schedule.view()
	}
	if f.steady != nil {
		rep.SteadyState = f.steady.view()
	}
	return rep
}

// view gives one URL's row; u is nil for a URL no result reached.
func (u *urlFigures) view(method, url string, enc *hdrcodec.HistEncoder) URLStats {
	s := URLStats{Method: method, URL: url}
	if u == nil {
		return s
	}
	s.Hits, s.Failures, s.Bytes, s.Max = u.tally.Transactions, u.tally.Failed, u.tally.Bytes, u.latency.Max()
	s.Pages = u.page.urlStats(enc)
	s.StatusCodes = u.status.view()
	s.CheckStatusCodes = u.checkStatus.view()
	s.CheckFailure, s.CheckFailures = u.checkFailure, u.checkFailures
	s.Login, s.ExtractFailure, s.ExtractRules = u.login, u.extractFailure, u.rules
	s.Extractions, s.ExtractFailures, s.ExtractUnsent = u.extract.taken, u.extract.missing+u.extract.unsent, u.extract.unsent
	if u.content.Samples > 0 || len(u.content.Types) > 0 {
		c := u.content
		s.Content = &c
	}
	s.Size = u.size.view()
	if s.Hits > 0 {
		s.Mean = u.latency.Mean()
		s.Quantiles(func(q float64, v *float64) { *v = u.latency.Quantile(q, s.Max) })
		s.Histogram = u.latency.encode(enc)
	}
	return s
}

// stats gives the overall page figures; nil when no page was visited.
func (p *pageFigures) stats() *PageStats {
	if !p.visited() {
		return nil
	}
	s := &PageStats{Pages: p.pages, Failed: p.failed, Cut: p.cut, Resources: p.resources, ResourceFailures: p.resFailed,
		Redirects: p.redirects, OffHostRedirects: p.offHost}
	s.Percentiles.Max = p.latency.Max()
	if p.latency.Count() > 0 {
		s.Mean = p.latency.Mean()
		s.Percentiles = p.latency.percentiles(p.latency.Max())
		s.Histogram = p.latency.encode(nil)
	}
	return s
}

// urlStats gives one URL's page figures; nil when it was never visited as a page (p may be nil).
func (p *pageFigures) urlStats(enc *hdrcodec.HistEncoder) *URLPages {
	if !p.visited() {
		return nil
	}
	s := &URLPages{Pages: p.pages, Failed: p.failed, Cut: p.cut, Resources: p.resources, ResourceFailures: p.resFailed,
		ResourceBytes: p.resBytes, Max: p.latency.Max()}
	if p.latency.Count() > 0 {
		s.Mean = p.latency.Mean()
		s.quantiles(func(q float64, v *float64) { *v = p.latency.Quantile(q, s.Max) })
		s.Histogram = p.latency.encode(enc)
	}
	return s
}

func (b *bucket) point() TimelinePoint {
	p := TimelinePoint{
		Start:        b.start,
		Requests:     b.tally.Requests,
		Transactions: b.tally.Transactions,
		Successful:   b.tally.Successful,
		Failed:       b.tally.Failed,
		Bytes:        b.tally.Bytes,
		Max:          b.latency.Max(),
	}
	if b.latency.h != nil {
		p.quantiles(func(q float64, v *float64) { *v = b.latency.Quantile(q, p.Max) })
		p.Histogram = b.saved
		if p.Histogram == "" {
			p.Histogram = b.latency.encode(nil)
		}
	}
	return p
}

func (s *steadyFigures) view() *SteadyState {
	v := &SteadyState{
		From:         s.from,
		Duration:     s.duration,
		Requests:     s.tally.Requests,
		Transactions: s.tally.Transactions,
		Failed:       s.tally.Failed,
	}
	if s.duration > 0 {
		v.TransactionRate = float64(s.tally.Transactions) / s.duration
	}
	if s.latency.h != nil {
		v.Percentiles = s.latency.percentiles(s.latency.Max())
		v.Histogram = s.latency.encode(nil)
	}
	return v
}

func (s *scheduleFigures) view() *Schedule {
	v := &Schedule{
		Rate:      s.rate,
		Sent:      s.lag.Count(),
		Unsent:    s.unsent,
		Delayed:   s.wait.Count(),
		Users:     s.users,
		MaxUsers:  s.maxUsers,
		Histogram: s.lag.encodeAll(),
	}
	if v.Sent > 0 {
		v.LagMax = s.lag.histMax()
		v.LagMean = s.lag.Mean()
		if s.lag.sum.s == 0 {
			// A run's own lags are many and tiny; their mean is read from the histogram, to
			// the microsecond, as it always was.
			v.LagMean = hdrcodec.FromUnits(int64(s.lag.h.Mean())).Seconds()
		}
		v.LagP50 = s.lag.Quantile(50, v.LagMax)
		v.LagP99 = s.lag.Quantile(99, v.LagMax)
	}
	if v.Delayed > 0 {
		v.DelayedWaitMean = s.wait.Mean()
		v.DelayedWaitMax = s.wait.Max()
	}
	return v
}
