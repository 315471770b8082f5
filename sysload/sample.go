// Package sysload measures the load of the server under test while webload runs, so that a
// before/after comparison (say, of a database migration) shows what the server paid for the
// throughput it delivered, not only the throughput.
//
// The server is read either from this machine's /proc ("local") or, when the site runs
// elsewhere, from a Prometheus node exporter on that machine. Both give the same Sample, so the
// Monitor that turns samples into a Summary need not know which one it reads.
package sysload

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/webload/webload/urls"
)

// LocalSpec is the source spec that selects this machine's /proc instead of a node exporter.
const LocalSpec = "local"

// defaultScrapeTimeout bounds a scrape when the caller brings no client, so a hung exporter
// costs one failed reading rather than a stuck monitor.
const defaultScrapeTimeout = 5 * time.Second

// Sample is one reading of the server's load.
//
// CPU figures are cumulative counters, as both the kernel and the node exporter give them:
// a busy percentage only exists between two samples.
type Sample struct {
	// At is when the reading was taken, by this machine's clock.
	At time.Time
	// Load1 is the 1-minute load average.
	Load1 float64
	// MemTotalBytes is the memory usable by the kernel, which is less than the RAM installed.
	MemTotalBytes float64
	// MemAvailableBytes is the kernel's estimate of memory that can be had without
	// swapping; unlike "free" it counts reclaimable cache, so total minus it is really used.
	MemAvailableBytes float64
	// CPUBusySeconds is summed over CPUs: all modes except idle and iowait, because a CPU
	// waiting on I/O could have run something else.
	CPUBusySeconds float64
	// CPUTotalSeconds is summed over CPUs, all modes.
	CPUTotalSeconds float64
}

// MemUsedBytes is the memory that could not be handed to a new process without swapping.
func (s Sample) MemUsedBytes() float64 {
	return s.MemTotalBytes - s.MemAvailableBytes
}

// ErrNoProc says "local" was asked for on a system without Linux's /proc.
var ErrNoProc = errors.New("this machine's load is read from /proc, which only Linux has: run node_exporter here and give its URL")

// Source reads samples. Implementations must honour ctx so that a reading is bounded in time.
type Source interface {
	Sample(ctx context.Context) (Sample, error)
}

// NewSource returns the /proc reader for "local" (Linux only: elsewhere it fails with
// ErrNoProc), else a node-exporter scraper for an http(s)
// URL (e.g. http://127.0.0.1:9100/metrics). client may be nil (then a client with a 5 s
// timeout), which keeps callers from reaching for http.DefaultClient, whose lack of a
// timeout would let a hung exporter stall the monitor.
func NewSource(spec string, client *http.Client) (Source, error) {
	if spec == LocalSpec {
		return localSource()
	}
	shown := urls.Redacted(spec) // a password in the URL stays out of every message
	u, err := url.Parse(spec)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // url.Error repeats the URL, password and all
		}
		return nil, fmt.Errorf("parsing load source %q: %w", shown, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("parsing load source %q: want %q or an http(s) URL of a node exporter", shown, LocalSpec)
	}
	if client == nil {
		client = &http.Client{Timeout: defaultScrapeTimeout}
	}
	return &nodeExporterSource{url: u.String(), shown: shown, client: client}, nil
}
