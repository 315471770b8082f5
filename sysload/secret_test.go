package sysload

import (
	"context"
	"strings"
	"testing"
)

// A password in --server-metrics reaches neither a message nor the result: a URL refused, and
// the source a run's summary names.
func TestServerMetricsPasswordHidden(t *testing.T) {
	t.Parallel()
	for _, spec := range []string{"ftp://bob:s3cret-pw@127.0.0.1/metrics", "http://bob:s3cret-pw@", "http://bob:s3cret-pw@127.0.0.1:1/%zz"} {
		_, err := NewSource(spec, nil)
		if err == nil {
			t.Errorf("%s: accepted", spec)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("the password is in the error: %v", err)
		}
	}
	const spec = "http://bob:s3cret-pw@127.0.0.1:1/metrics"
	src, err := NewSource(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := Start(context.Background(), src, spec, 0)
	sum := m.Stop()
	if strings.Contains(sum.Source, "s3cret") || strings.Contains(sum.FirstError, "s3cret") {
		t.Errorf("the password is in the summary: source %q, first error %q", sum.Source, sum.FirstError)
	}
	if !strings.Contains(sum.Source, "bob:xxxxx@127.0.0.1:1") {
		t.Errorf("source %q; want the URL with its password hidden", sum.Source)
	}
}
