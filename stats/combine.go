package stats

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// ErrNothingToCombine is returned by Combine for an empty list.
var ErrNothingToCombine = errors.New("no results to combine")

// Combine builds the report of a series of runs made one after the other (a --repeat series):
// counts are summed, elapsed times add up so rates are totals over the whole time measured,
// means are weighted by their counts, and percentiles come from the merged histograms, which is
// exact: the same as one histogram holding every sample. The runs are kept in Repeats.
func Combine(runs []Report) (Report, error) {
	if len(runs) == 0 {
		return Report{}, ErrNothingToCombine
	}
	first := &runs[0]
	out := Report{
		Label:            first.Label,
		Run:              first.Run,
		StatusCodes:      map[string]int64{},
		Errors:           map[string]int64{},
		TimelineInterval: first.TimelineInterval,
		Repeats:          runs,
	}
	hist, service, pageTimes := newHistogram(), newHistogram(), newPageTimes()
	var hitTime, busyTime float64
	var offset float64
	for i := range runs {
		r := &runs[i]
		if len(r.URLs) != len(first.URLs) {
			return Report{}, fmt.Errorf("combine: run %d has %d URLs, run 1 has %d", i+1, len(r.URLs), len(first.URLs))
		}
		out.Transactions += r.Transactions
		out.SuccessfulTransactions += r.SuccessfulTransactions
		out.FailedTransactions += r.FailedTransactions
		out.Requests += r.Requests
		out.InFlightAtStop += r.InFlightAtStop
		out.Resent += r.Resent
		out.BodyBytes += r.BodyBytes
		out.DecodedBytes += r.DecodedBytes
		out.WireBytesReceived += r.WireBytesReceived
		out.WireBytesSent += r.WireBytesSent
		out.ConnectionsOpened += r.ConnectionsOpened
		out.LatencyOverflow += r.LatencyOverflow
		out.ElapsedTime += r.ElapsedTime
		hitTime += r.ResponseTime * float64(r.Transactions)
		busyTime += r.Concurrency * r.ElapsedTime
		out.LongestTransaction = math.Max(out.LongestTransaction, r.LongestTransaction)
		if r.Transactions > 0 && (out.ShortestTransaction == 0 || r.ShortestTransaction < out.ShortestTransaction) {
			out.ShortestTransaction = r.ShortestTransaction
		}
		addCounts(out.StatusCodes, r.StatusCodes)
		addCounts(out.Errors, r.Errors)
		for k, v := range r.ErrorSamples {
			if out.ErrorSamples == nil {
				out.ErrorSamples = map[string]string{}
			}
			if _, ok := out.ErrorSamples[k]; !ok {
				out.ErrorSamples[k] = v
			}
		}
		if err := mergeInto(hist, r.Histogram); err != nil {
			return Report{}, fmt.Errorf("combine run %d: %w", i+1, err)
		}
		if err := mergeInto(service, r.ServiceHistogram); err != nil {
			return Report{}, fmt.Errorf("combine run %d: %w", i+1, err)
		}
		if err := mergePages(&out.Pages, r.Pages, pageTimes); err != nil {
			return Report{}, fmt.Errorf("combine run %d: %w", i+1, err)
		}
		for _, p := range r.Timeline {
			p.Start += offset
			out.Timeline = append(out.Timeline, p)
		}
		offset += r.ElapsedTime
		if r.Run.StopReason == "interrupted" {
			out.Run.StopReason = "interrupted"
		}
		out.Users.Count = max(out.Users.Count, r.Users.Count)
		out.Users.TransactionsMean += r.Users.TransactionsMean
		// Runs are independent, so the variances of per-user counts add up.
		out.Users.TransactionsStddev += r.Users.TransactionsStddev * r.Users.TransactionsStddev
	}
	out.Users.TransactionsStddev = math.Sqrt(out.Users.TransactionsStddev)
	out.DataTransferred = float64(out.BodyBytes) / megabyte
	if out.Transactions+out.FailedTransactions > 0 {
		out.Availability = float64(out.Transactions) / float64(out.Transactions+out.FailedTransactions) * 100
	}
	if out.Transactions > 0 {
		out.ResponseTime = hitTime / float64(out.Transactions)
	}
	if out.ElapsedTime > 0 {
		out.TransactionRate = float64(out.Transactions) / out.ElapsedTime
		out.Throughput = out.DataTransferred / out.ElapsedTime
		out.Concurrency = busyTime / out.ElapsedTime
	}
	if hist.TotalCount() > 0 {
		out.Percentiles = percentiles(hist, out.LongestTransaction)
	}
	if service.TotalCount() > 0 {
		out.ServiceTime = percentiles(service, fromUnits(service.Max()).Seconds())
	}
	out.Histogram, out.ServiceHistogram = encode(hist), encode(service)
	finishPages(out.Pages, pageTimes)
	urls, err := combineURLs(runs)
	if err != nil {
		return Report{}, err
	}
	out.URLs = urls
	out.Server = combineServer(runs)
	return out, nil
}

// combineURLs merges the per-URL figures, URL by URL. One sparse histogram and one encoder serve
// every URL, so the cost is what the runs recorded, not a histogram per URL of a long list.
func combineURLs(runs []Report) ([]URLStats, error) {
	out := make([]URLStats, len(runs[0].URLs))
	sum, enc := newHistAdder(), newHistEncoder()
	for i := range out {
		u := &out[i]
		u.Method, u.URL = runs[0].URLs[i].Method, runs[0].URLs[i].URL
		sum.reset()
		var hitTime float64
		for r := range runs {
			s := &runs[r].URLs[i]
			u.Hits += s.Hits
			u.Failures += s.Failures
			u.Bytes += s.Bytes
			u.Max = math.Max(u.Max, s.Max)
			hitTime += s.Mean * float64(s.Hits)
			if len(s.StatusCodes) > 0 {
				if u.StatusCodes == nil {
					u.StatusCodes = StatusCounts{}
				}
				addCounts(u.StatusCodes, s.StatusCodes)
			}
			if err := sum.add(s.Histogram); err != nil {
				return nil, fmt.Errorf("combine run %d, URL %s: %w", r+1, s.URL, err)
			}
		}
		if u.Hits > 0 {
			u.Mean = hitTime / float64(u.Hits)
			p := percentiles(sum.h, u.Max)
			u.P50, u.P95, u.P99 = p.P50, p.P95, p.P99
			u.Histogram = enc.encode(sum.h)
		}
		pages, err := combineURLPages(runs, i, sum, enc)
		if err != nil {
			return nil, err
		}
		u.Pages = pages
	}
	return out, nil
}

// combineURLPages merges URL i's page figures, adding their histograms with sum; nil when no run
// visited it as a page.
func combineURLPages(runs []Report, i int, sum *histAdder, enc *histEncoder) (*URLPages, error) {
	var out *URLPages
	var loadTime float64
	sum.reset()
	for r := range runs {
		s := runs[r].URLs[i].Pages
		if s == nil {
			continue
		}
		if out == nil {
			out = &URLPages{}
		}
		out.Pages += s.Pages
		out.Failed += s.Failed
		out.Cut += s.Cut
		out.Resources += s.Resources
		out.ResourceFailures += s.ResourceFailures
		out.ResourceBytes += s.ResourceBytes
		out.Max = max(out.Max, s.Max)
		loadTime += s.Mean * float64(s.Pages-s.Failed)
		if err := sum.add(s.Histogram); err != nil {
			return nil, fmt.Errorf("combine run %d, pages of URL %s: %w", r+1, runs[r].URLs[i].URL, err)
		}
	}
	if out == nil {
		return nil, nil
	}
	if loaded := out.Pages - out.Failed; loaded > 0 {
		out.Mean = loadTime / float64(loaded)
		p := percentiles(sum.h, out.Max)
		out.P50, out.P95, out.P99 = p.P50, p.P95, p.P99
		out.Histogram = enc.encode(sum.h)
	}
	return out, nil
}

func addCounts(dst, src map[string]int64) {
	for k, v := range src {
		dst[k] += v
	}
}

// mergeInto adds an encoded histogram to h; an empty encoding adds nothing, a foreign geometry is
// refused (see decodeOurs). Values that h cannot hold would make the merge inexact, so they are
// an error, never dropped in silence.
func mergeInto(h *hdr.Histogram, encoded string) error {
	if encoded == "" {
		return nil
	}
	src, err := decodeOurs(encoded)
	if err != nil {
		return err
	}
	if dropped := src.MergeInto(h); dropped > 0 {
		return fmt.Errorf("merge histogram: %s values out of range", strconv.FormatInt(dropped, 10))
	}
	return nil
}

// decodeOurs decodes a histogram webload encoded. It decodes into a sparse histogram, so a
// foreign or corrupt header cannot make it allocate a huge dense one, and refuses any geometry
// but webload's.
func decodeOurs(encoded string) (*hdr.PackedHistogram, error) {
	src, err := hdr.DecodePacked([]byte(encoded))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	if src.LowestTrackableValue() != histLowest || src.HighestTrackableValue() != histHighest ||
		src.SignificantFigures() != histDigits {
		return nil, fmt.Errorf("decode histogram: not webload's geometry (%d..%d, %d digits)",
			src.LowestTrackableValue(), src.HighestTrackableValue(), src.SignificantFigures())
	}
	return src, nil
}
