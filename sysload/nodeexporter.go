package sysload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
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

// acceptText asks for the classic text format: every node exporter speaks it, and it leaves no
// room for content types this package cannot decode.
const acceptText = "text/plain;version=" + expfmt.TextVersion

// maxExpositionBytes caps what one scrape reads. A node exporter's page is well under a
// megabyte even on large machines with many disks; anything past the cap is a wrong URL or a
// runaway textfile collector, and reading it all would cost memory on the load generator.
const maxExpositionBytes = 16 << 20

// nodeExporterSource scrapes a Prometheus node exporter over HTTP.
type nodeExporterSource struct {
	url    string
	client *http.Client
}

// Sample scrapes the exporter once. The client's timeout and ctx both bound the scrape.
func (s *nodeExporterSource) Sample(ctx context.Context) (Sample, error) {
	smp, err := s.scrape(ctx)
	if err != nil {
		return Sample{}, fmt.Errorf("scraping %s: %w", s.url, err)
	}
	return smp, nil
}

func (s *nodeExporterSource) scrape(ctx context.Context) (Sample, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return Sample{}, fmt.Errorf("building request: %w", err)
	}
	req.Header.Set("Accept", acceptText)
	resp, err := s.client.Do(req)
	if err != nil {
		return Sample{}, err // already names the method, URL and cause
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// Drain a little so the connection can be reused for the next scrape.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return Sample{}, fmt.Errorf("unexpected status %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxExpositionBytes+1))
	if err != nil {
		return Sample{}, fmt.Errorf("reading response: %w", err)
	}
	if len(body) > maxExpositionBytes {
		return Sample{}, fmt.Errorf("response larger than %d bytes", maxExpositionBytes)
	}
	at := time.Now()
	fams, err := decodeExposition(body, expfmt.ResponseFormat(resp.Header))
	if err != nil {
		return Sample{}, fmt.Errorf("parsing exposition: %w", err)
	}
	smp, err := sampleFromFamilies(fams)
	if err != nil {
		return Sample{}, err
	}
	smp.At = at
	return smp, nil
}

// decodeExposition parses a scraped page into metric families by name. Although the text
// format is requested, a server may answer otherwise (OpenMetrics, with exemplars, or
// delimited protobuf); expfmt decodes those when the Content-Type says so. Anything else,
// including a missing Content-Type, is read as text, which is what exporters send by default.
func decodeExposition(body []byte, format expfmt.Format) (map[string]*dto.MetricFamily, error) {
	switch format.FormatType() {
	case expfmt.TypeOpenMetrics, expfmt.TypeProtoDelim:
		dec := expfmt.NewDecoder(bytes.NewReader(body), format)
		fams := make(map[string]*dto.MetricFamily)
		for {
			mf := &dto.MetricFamily{}
			err := dec.Decode(mf)
			if errors.Is(err, io.EOF) {
				return fams, nil
			}
			if err != nil {
				return nil, err
			}
			fams[mf.GetName()] = mf
		}
	default:
		p := expfmt.NewTextParser(model.UTF8Validation)
		return p.TextToMetricFamilies(bytes.NewReader(body))
	}
}

// sampleFromFamilies picks the four families a Sample needs. All are required: a sample with a
// silently zero memory or CPU figure would report a healthy server that was never measured.
func sampleFromFamilies(fams map[string]*dto.MetricFamily) (Sample, error) {
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
		v, ok := metricValue(m)
		if !ok {
			return Sample{}, fmt.Errorf("metric %s has type %s, want a counter", metricCPUSeconds, typeName(cpu))
		}
		s.CPUTotalSeconds += v
		if mode := labelValue(m, "mode"); mode != "idle" && mode != "iowait" {
			s.CPUBusySeconds += v
		}
	}
	return s, nil
}

// singleValue returns the value of a family that holds one unlabelled series, as node_load1
// and the node_memory_* gauges do.
func singleValue(fams map[string]*dto.MetricFamily, name string) (float64, error) {
	mf := fams[name]
	if mf == nil || len(mf.GetMetric()) == 0 {
		return 0, fmt.Errorf("metric %s missing from exposition", name)
	}
	v, ok := metricValue(mf.GetMetric()[0])
	if !ok {
		return 0, fmt.Errorf("metric %s has type %s, want a gauge", name, typeName(mf))
	}
	return v, nil
}

// metricValue reads a scalar whatever the declared type, since exporters that omit TYPE lines
// make every family untyped.
func metricValue(m *dto.Metric) (float64, bool) {
	switch {
	case m.GetGauge() != nil:
		return m.GetGauge().GetValue(), true
	case m.GetCounter() != nil:
		return m.GetCounter().GetValue(), true
	case m.GetUntyped() != nil:
		return m.GetUntyped().GetValue(), true
	}
	return 0, false
}

func typeName(mf *dto.MetricFamily) string {
	return strings.ToLower(mf.GetType().String())
}

func labelValue(m *dto.Metric, name string) string {
	for _, lp := range m.GetLabel() {
		if lp.GetName() == name {
			return lp.GetValue()
		}
	}
	return ""
}
