package sysload

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestNodeExporterParsesFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		fixture     string
		contentType string
		want        Sample
	}{
		{
			// 4 CPUs; busy = nice+softirq+system+user (+irq, steal at 0) summed by hand.
			name: "first scrape", fixture: "node1.prom", contentType: textContentType,
			want: Sample{Load1: 0.42, MemTotalBytes: 8 << 30, MemAvailableBytes: 6 << 30,
				CPUBusySeconds: 680, CPUTotalSeconds: 4724.75},
		},
		{
			name: "second scrape, counters advanced", fixture: "node2.prom", contentType: textContentType,
			want: Sample{Load1: 1.87, MemTotalBytes: 8 << 30, MemAvailableBytes: 5 << 30,
				CPUBusySeconds: 704, CPUTotalSeconds: 4764.75},
		},
		{
			// Untyped families, free comments, blank lines, timestamps, a tab separator and
			// a label value holding an escaped quote, "#" and newline.
			name: "comments and untyped", fixture: "comments.prom", contentType: textContentType,
			want: Sample{Load1: 2.5, MemTotalBytes: 2 << 30, MemAvailableBytes: 1 << 30,
				CPUBusySeconds: 30, CPUTotalSeconds: 100},
		},
		{
			name: "no content type is read as text", fixture: "node1.prom", contentType: "",
			want: Sample{Load1: 0.42, MemTotalBytes: 8 << 30, MemAvailableBytes: 6 << 30,
				CPUBusySeconds: 680, CPUTotalSeconds: 4724.75},
		},
		{
			// A server that ignores Accept and sends OpenMetrics with exemplars, where the
			// counter family is named without _total.
			name: "openmetrics with exemplars", fixture: "exemplars.om",
			contentType: "application/openmetrics-text; version=1.0.0; charset=utf-8",
			want: Sample{Load1: 0.75, MemTotalBytes: 4 << 30, MemAvailableBytes: 3 << 30,
				CPUBusySeconds: 200, CPUTotalSeconds: 1200},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var accept string
			srv := serveBody(t, tc.contentType, readTestdata(t, tc.fixture), &accept)
			before := time.Now()
			got, err := newScraper(t, srv.URL+"/metrics", 5*time.Second).Sample(testContext(t))
			if err != nil {
				t.Fatalf("Sample: %v", err)
			}
			if got.At.Before(before) || got.At.After(time.Now()) {
				t.Errorf("At = %v, want the time of the scrape", got.At)
			}
			got.At = time.Time{}
			if got != tc.want {
				t.Errorf("Sample =\n %+v\nwant\n %+v", got, tc.want)
			}
			if !strings.HasPrefix(accept, "text/plain") || !strings.Contains(accept, "version=0.0.4") {
				t.Errorf("Accept = %q, want the 0.0.4 text format", accept)
			}
		})
	}
}

func TestNodeExporterErrors(t *testing.T) {
	t.Parallel()
	node1 := readTestdata(t, "node1.prom")
	tests := []struct {
		name        string
		contentType string
		status      int
		body        string
		wantInErr   []string
	}{
		{name: "missing load", body: withoutMetric(node1, "node_load1"),
			wantInErr: []string{"node_load1", "missing"}},
		{name: "missing mem total", body: withoutMetric(node1, "node_memory_MemTotal_bytes"),
			wantInErr: []string{"node_memory_MemTotal_bytes", "missing"}},
		{name: "missing mem available", body: withoutMetric(node1, "node_memory_MemAvailable_bytes"),
			wantInErr: []string{"node_memory_MemAvailable_bytes", "missing"}},
		{name: "missing cpu", body: withoutMetric(node1, "node_cpu_seconds_total"),
			wantInErr: []string{"node_cpu_seconds_total", "missing"}},
		{name: "empty body", body: "",
			wantInErr: []string{"node_load1", "missing"}},
		{name: "garbage", body: "<html><body>Welcome to nginx!</body></html>\n",
			wantInErr: []string{"parsing exposition"}},
		{name: "binary garbage", body: "\x00\x01\x02\xff\xfe{{{}}}\n",
			wantInErr: []string{"parsing exposition"}},
		{name: "truncated mid-line", body: node1[:strings.Index(node1, "node_load1 ")+len("node_load1")],
			wantInErr: []string{"parsing exposition"}},
		{name: "exemplar in plain text is not the 0.0.4 format", body: "node_load1 1 # {trace_id=\"a\"} 1\n",
			wantInErr: []string{"parsing exposition"}},
		{name: "openmetrics without EOF", body: "node_load1 1\n",
			contentType: "application/openmetrics-text; version=1.0.0",
			wantInErr:   []string{"parsing exposition"}},
		{name: "histogram where a gauge belongs",
			body:      "# TYPE node_load1 histogram\nnode_load1_bucket{le=\"+Inf\"} 1\nnode_load1_sum 1\nnode_load1_count 1\n",
			wantInErr: []string{"node_load1", "histogram"}},
		{name: "server error", status: http.StatusInternalServerError, body: node1,
			wantInErr: []string{"500 Internal Server Error"}},
		{name: "not found", status: http.StatusNotFound, body: "404 page not found\n",
			wantInErr: []string{"404 Not Found"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ct := tc.contentType
			if ct == "" {
				ct = textContentType
			}
			srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", ct)
				if tc.status != 0 {
					w.WriteHeader(tc.status)
				}
				_, _ = w.Write([]byte(tc.body))
			}))
			url := srv.URL + "/metrics"
			_, err := newScraper(t, url, 5*time.Second).Sample(testContext(t))
			if err == nil {
				t.Fatal("Sample succeeded, want an error")
			}
			msg := err.Error()
			for _, want := range append(tc.wantInErr, "scraping "+url) {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}
		})
	}
}

// TestNodeExporterHangIsBounded uses a server that never answers: the scrape must give up
// after the client's timeout, or after ctx, whichever comes first.
func TestNodeExporterHangIsBounded(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	// Registered after the server's Close, so it runs first and lets handlers return.
	t.Cleanup(func() { close(release) })

	tests := []struct {
		name          string
		clientTimeout time.Duration
		ctxTimeout    time.Duration
		wantErr       error
	}{
		{name: "client timeout", clientTimeout: 200 * time.Millisecond, ctxTimeout: time.Minute},
		{name: "context deadline", clientTimeout: time.Minute, ctxTimeout: 200 * time.Millisecond,
			wantErr: context.DeadlineExceeded},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := newScraper(t, srv.URL+"/metrics", tc.clientTimeout)
			ctx, cancel := context.WithTimeout(t.Context(), tc.ctxTimeout)
			defer cancel()
			start := time.Now()
			_, err := src.Sample(ctx)
			elapsed := time.Since(start)
			if err == nil {
				t.Fatal("Sample of a hung server succeeded")
			}
			// The other bound is a minute: the generous 30 s tells them apart on a busy machine.
			if elapsed > 30*time.Second {
				t.Errorf("Sample took %v, want about 200ms", elapsed)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("error %v, want it to wrap %v", err, tc.wantErr)
			}
		})
	}
}

func TestNodeExporterUnreachable(t *testing.T) {
	t.Parallel()
	srv := newLoopbackServer(t, http.NotFoundHandler())
	url := srv.URL + "/metrics"
	srv.Close() // nothing listens on the port any more
	_, err := newScraper(t, url, 2*time.Second).Sample(testContext(t))
	if err == nil || !strings.Contains(err.Error(), "scraping "+url) {
		t.Fatalf("Sample error = %v, want a failure naming %s", err, url)
	}
}

func TestNewSource(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		spec     string
		wantErr  bool
		wantType string
	}{
		// /proc is Linux's: elsewhere "local" is refused, saying so.
		{name: "local", spec: "local", wantType: "*sysload.procSource", wantErr: runtime.GOOS != "linux"},
		{name: "http", spec: "http://127.0.0.1:9100/metrics", wantType: "*sysload.nodeExporterSource"},
		{name: "https", spec: "https://db1.example:9100/metrics", wantType: "*sysload.nodeExporterSource"},
		{name: "empty", spec: "", wantErr: true},
		{name: "no scheme", spec: "127.0.0.1:9100", wantErr: true},
		{name: "host without scheme", spec: "db1:9100/metrics", wantErr: true},
		{name: "other scheme", spec: "ftp://127.0.0.1/metrics", wantErr: true},
		{name: "no host", spec: "http:///metrics", wantErr: true},
		{name: "bad escape", spec: "http://127.0.0.1:9100/%zz", wantErr: true},
		{name: "Local is not local", spec: "Local", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src, err := NewSource(tc.spec, nil)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("NewSource(%q) = %T, want an error", tc.spec, src)
				}
				if !strings.Contains(err.Error(), "load source") {
					t.Errorf("error %q does not say what was being done", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("NewSource(%q): %v", tc.spec, err)
			}
			if got := fmt.Sprintf("%T", src); got != tc.wantType {
				t.Errorf("NewSource(%q) = %s, want %s", tc.spec, got, tc.wantType)
			}
			if ne, ok := src.(*nodeExporterSource); ok && ne.client.Timeout != defaultScrapeTimeout {
				t.Errorf("default client timeout = %v, want %v", ne.client.Timeout, defaultScrapeTimeout)
			}
		})
	}
}
