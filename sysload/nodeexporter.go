package sysload

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/webload/webload/internal/exposition"
)

// Names of the node-exporter metric families a sample is built from.
const (
	metricLoad1        = "node_load1"
	metricMemTotal     = "node_memory_MemTotal_bytes"
	metricMemAvailable = "node_memory_MemAvailable_bytes"
	metricCPUSeconds   = "node_cpu_seconds_total"
	// metricCPUSecondsOM is how OpenMetrics names the same counter family: the _total
	// suffix belongs to its samples, not to the family.
	metricCPUSecondsOM = "node_cpu_seconds"
)

// nodeExporterSource scrapes a Prometheus node exporter over HTTP.
type nodeExporterSource struct {
	url    string
	shown  string // url with any password hidden, for messages
	client *http.Client
}

// Sample scrapes the exporter once. The client's timeout and ctx both bound the scrape.
func (s *nodeExporterSource) Sample(ctx context.Context) (Sample, error) {
	fams, err := exposition.Fetch(ctx, s.client, s.url)
	if err != nil {
		return Sample{}, fmt.Errorf("scraping %s: %w", s.shown, err)
	}
	smp, err := sampleFromFamilies(fams)
	if err != nil {
		return Sample{}, fmt.Errorf("scraping %s: %w", s.shown, err)
	}
	smp.At = time.Now()
	return smp, nil
}

// sampleFromFamilies picks the four families a Sample needs. All are required: a sample with a
// silently zero memory or CPU figure would report a healthy server that was never measured.
func sampleFromFamilies(fams exposition.Families) (Sample, error) {
	var s Sample
	var err error
	if s.Load1, err = singleValue(fams, metricLoad1); err != nil {
		return Sample{}, err
	}
	if s.MemTotalBytes, err = singleValue(fams, metricMemTotal); err != nil {
		return Sample{}, err
	}
	if s.MemAvailableBytes, err = singleValue(fams, metricMemAvailable); err != nil {
		return Sample{}, err
	}
	cpu := fams[metricCPUSeconds]
	if cpu == nil {
		cpu = fams[metricCPUSecondsOM]
	}
	if cpu == nil || len(cpu.GetMetric()) == 0 {
		return Sample{}, fmt.Errorf("metric %s missing from exposition", metricCPUSeconds)
	}
	for _, m := range cpu.GetMetric() {
		v, ok := exposition.Value(m)
		if !ok {
			return Sample{}, fmt.Errorf("metric %s has type %s, want a counter", metricCPUSeconds, exposition.TypeName(cpu))
		}
		s.CPUTotalSeconds += v
		if mode := exposition.Label(m, "mode"); mode != "idle" && mode != "iowait" {
			s.CPUBusySeconds += v
		}
	}
	return s, nil
}

// singleValue returns the value of a family that holds one unlabelled series, as node_load1
// and the node_memory_* gauges do.
func singleValue(fams exposition.Families, name string) (float64, error) {
	mf := fams[name]
	if mf == nil || len(mf.GetMetric()) == 0 {
		return 0, fmt.Errorf("metric %s missing from exposition", name)
	}
	v, ok := exposition.Value(mf.GetMetric()[0])
	if !ok {
		return 0, fmt.Errorf("metric %s has type %s, want a gauge", name, exposition.TypeName(mf))
	}
	return v, nil
}
