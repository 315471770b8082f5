// Package exposition fetches and decodes a Prometheus exporter's page. The node exporter
// (sysload) and the database exporters (dbload) are scraped the same way; only the metrics
// read from the page differ.
package exposition

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// acceptText asks for the classic text format: every exporter speaks it, and it leaves no room
// for content types this package cannot decode.
const acceptText = "text/plain;version=" + expfmt.TextVersion

// MaxBytes caps what one scrape reads. An exporter's page is well under a megabyte even on
// large machines with many disks or databases; anything past the cap is a wrong URL or a
// runaway textfile collector, and reading it all would cost memory on the load generator.
const MaxBytes = 16 << 20

// Families are a page's metric families by name.
type Families = map[string]*dto.MetricFamily

// Fetch scrapes url once with client and decodes the page. client's timeout and ctx both bound
// the scrape. Errors say which step failed but not the URL, which the caller names.
func Fetch(ctx context.Context, client *http.Client, url string) (Families, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("building request: %w", err)
	}
	req.Header.Set("Accept", acceptText)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err // already names the method, URL (password hidden) and cause
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// Drain a little so the connection can be reused for the next scrape.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, fmt.Errorf("unexpected status %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading response: %w", err)
	}
	if len(body) > MaxBytes {
		return nil, fmt.Errorf("response larger than %d bytes", MaxBytes)
	}
	fams, err := Decode(body, expfmt.ResponseFormat(resp.Header))
	if err != nil {
		return nil, fmt.Errorf("parsing exposition: %w", err)
	}
	return fams, nil
}

// Decode parses a scraped page into metric families by name. Although the text format is
// requested, a server may answer otherwise (OpenMetrics, with exemplars, or delimited
// protobuf); expfmt decodes those when the Content-Type says so. Anything else, including a
// missing Content-Type, is read as text, which is what exporters send by default.
func Decode(body []byte, format expfmt.Format) (Families, error) {
	switch format.FormatType() {
	case expfmt.TypeOpenMetrics, expfmt.TypeProtoDelim:
		dec := expfmt.NewDecoder(bytes.NewReader(body), format)
		fams := make(Families)
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

// Value reads a scalar whatever the declared type, since exporters that omit TYPE lines make
// every family untyped. ok is false for histograms and summaries.
func Value(m *dto.Metric) (v float64, ok bool) {
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

// Label returns the value of m's label name, or "" when m has none of that name.
func Label(m *dto.Metric, name string) string {
	for _, lp := range m.GetLabel() {
		if lp.GetName() == name {
			return lp.GetValue()
		}
	}
	return ""
}

// TypeName is the family's declared type in lower case ("gauge", "histogram"), for messages.
func TypeName(mf *dto.MetricFamily) string {
	return strings.ToLower(mf.GetType().String())
}
