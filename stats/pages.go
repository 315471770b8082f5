package stats

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
	// Redirects counts redirect answers (301, 302, 303, 307, 308) and pages whose meta refresh
	// leads elsewhere; OffHostRedirects those not followed because they led to a host outside
	// the URL list.
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

// quantiles calls f with each percentile (0-100) of a URL's page figures and its field.
func (p *URLPages) quantiles(f func(q float64, v *float64)) {
	f(50, &p.P50)
	f(95, &p.P95)
	f(99, &p.P99)
}
