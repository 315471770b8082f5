package stats

import (
	"fmt"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/loader"
)

// PageStats are the figures of page visits, made when users load pages like a browser: the URL,
// its redirects and its resources (images, scripts, stylesheets) as one page load. Resource
// requests are also transactions, as siege counts them; pages are not.
type PageStats struct {
	// Pages counts page visits that ended, failed ones included; Failed those whose URL (or
	// its last redirect) failed under siege's rules.
	Pages  int64 `json:"pages"`
	Failed int64 `json:"failed"`
	// Cut counts visits the end of the run cut short among their resources: they are not in
	// Pages and have no load time, but their resource requests are counted.
	Cut int64 `json:"cut,omitempty"`
	// Mean and Percentiles are page load times in seconds: from the first request of the visit
	// to the end of its last resource, over the pages that did not fail.
	Mean        float64     `json:"mean"`
	Percentiles Percentiles `json:"percentiles"`
	// Resources counts resource requests, ResourceFailures those of them that failed.
	Resources        int64 `json:"resources"`
	ResourceFailures int64 `json:"resource_failures"`
	// Redirects counts redirect answers (301, 302, 303, 307, 308); OffHostRedirects those not
	// followed because they led to a host outside the URL list.
	Redirects        int64 `json:"redirects"`
	OffHostRedirects int64 `json:"off_host_redirects"`
	// Histogram holds the page load times like Report.Histogram.
	Histogram string `json:"histogram,omitempty"`
}

// URLPages are one URL's page figures: its visits and the resources they fetched.
type URLPages struct {
	Pages            int64   `json:"pages"`
	Failed           int64   `json:"failed"`
	Cut              int64   `json:"cut,omitempty"` // as in PageStats
	Mean             float64 `json:"mean"`          // seconds
	P50              float64 `json:"p50"`
	P95              float64 `json:"p95"`
	P99              float64 `json:"p99"`
	Max              float64 `json:"max"`
	Resources        int64   `json:"resources"`
	ResourceFailures int64   `json:"resource_failures"`
	ResourceBytes    int64   `json:"resource_bytes"`
	Histogram        string  `json:"histogram,omitempty"`
}

// pageRecord accumulates page visits, overall or for one URL.
type pageRecord struct {
	pages, failed, cut   int64
	time, max            time.Duration
	resources, resFailed int64
	resBytes             int64
	redirects, offHost   int64
	hist                 interface {
		RecordValue(int64) error
		percentiler
		encoder
	}
}

// addPage books a KindPage result: a visit, not a transaction.
func (p *pageRecord) addPage(res *loader.Result, v int64, dense bool) {
	if res.AfterStop {
		p.cut++
		return
	}
	p.pages++
	if res.Failed() {
		p.failed++
		return
	}
	p.time += res.Latency
	p.max = max(p.max, res.Latency)
	if p.hist == nil {
		if dense {
			p.hist = newHistogram()
		} else {
			p.hist = newSparseHistogram()
		}
	}
	_ = p.hist.RecordValue(v)
}

// addRequest books what a page's requests tell: resources and redirects.
func (p *pageRecord) addRequest(res *loader.Result) {
	if res.Kind == loader.KindResource {
		p.resources++
		if res.Err == loader.ErrNone {
			p.resBytes += res.BodyBytes
		}
		if res.Failed() {
			p.resFailed++
		}
	}
	if res.Redirected() {
		p.redirects++
	}
	if res.OffHost {
		p.offHost++
	}
}

func (p *pageRecord) ok() int64 { return p.pages - p.failed }

// stats gives the overall page figures; nil when no page was visited.
func (p *pageRecord) stats() *PageStats {
	if p.pages == 0 && p.cut == 0 {
		return nil
	}
	s := &PageStats{Pages: p.pages, Failed: p.failed, Cut: p.cut, Resources: p.resources, ResourceFailures: p.resFailed,
		Redirects: p.redirects, OffHostRedirects: p.offHost}
	if n := p.ok(); n > 0 {
		s.Mean = (p.time / time.Duration(n)).Seconds()
		s.Percentiles = percentiles(p.hist, p.max.Seconds())
		s.Histogram = encode(p.hist)
	}
	return s
}

// urlStats gives one URL's page figures; nil when it was never visited as a page (p may be nil).
func (p *pageRecord) urlStats(enc *histEncoder) *URLPages {
	if p == nil || (p.pages == 0 && p.cut == 0) {
		return nil
	}
	s := &URLPages{Pages: p.pages, Failed: p.failed, Cut: p.cut, Resources: p.resources, ResourceFailures: p.resFailed,
		ResourceBytes: p.resBytes, Max: p.max.Seconds()}
	if n := p.ok(); n > 0 {
		s.Mean = (p.time / time.Duration(n)).Seconds()
		s.P50 = min(quantile(p.hist, 50), s.Max)
		s.P95 = min(quantile(p.hist, 95), s.Max)
		s.P99 = min(quantile(p.hist, 99), s.Max)
		s.Histogram = enc.encode(p.hist)
	}
	return s
}

// writePages adds the page lines to the text report.
func writePages(b *strings.Builder, rep *Report) {
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
			float64(rep.DecodedBytes)/megabyte, float64(rep.BodyBytes)/megabyte)
	}
}

// pageTimes adds up the page load times of several results exactly: histograms merged,
// means weighted by the pages that loaded, the longest kept.
type pageTimes struct {
	h      *hdr.Histogram
	sum    float64 // seconds, over the loaded pages
	loaded int64
	max    float64 // seconds
}

func newPageTimes() *pageTimes { return &pageTimes{h: newHistogram()} }

func (t *pageTimes) add(mean float64, loaded int64, longest float64, encoded string) error {
	t.sum += mean * float64(loaded)
	t.loaded += loaded
	t.max = max(t.max, longest)
	return mergeInto(t.h, encoded)
}

func (t *pageTimes) mean() float64 {
	if t.loaded == 0 {
		return 0
	}
	return t.sum / float64(t.loaded)
}

// mergePages adds src's page figures to dst.
func mergePages(dst **PageStats, src *PageStats, times *pageTimes) error {
	if src == nil {
		return nil
	}
	if *dst == nil {
		*dst = &PageStats{}
	}
	d := *dst
	d.Pages += src.Pages
	d.Failed += src.Failed
	d.Cut += src.Cut
	d.Resources += src.Resources
	d.ResourceFailures += src.ResourceFailures
	d.Redirects += src.Redirects
	d.OffHostRedirects += src.OffHostRedirects
	if err := times.add(src.Mean, src.Pages-src.Failed, src.Percentiles.Max, src.Histogram); err != nil {
		return fmt.Errorf("page histogram: %w", err)
	}
	return nil
}

// finishPages computes the merged page figures' mean and percentiles.
func finishPages(p *PageStats, times *pageTimes) {
	if p == nil {
		return
	}
	p.Percentiles.Max = times.max
	if times.loaded > 0 {
		p.Mean = times.mean()
		p.Percentiles = percentiles(times.h, times.max)
		p.Histogram = encode(times.h)
	}
}
