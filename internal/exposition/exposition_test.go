package exposition

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestFetch pins what a scrape accepts: a page up to MaxBytes (comments pad it, as a large
// exporter's HELP lines do), and nothing larger or with a failing status.
func TestFetch(t *testing.T) {
	t.Parallel()
	const metric = "up 1\n"
	pad := func(n int) string {
		line := "# " + strings.Repeat("x", 97) + "\n" // 100 bytes
		return strings.Repeat(line, n/100) + strings.Repeat("#", n%100-1) + "\n"
	}
	tests := []struct {
		name    string
		status  int
		body    string
		wantErr string
	}{
		{name: "small page", body: metric},
		{name: "page of exactly the cap", body: metric + pad(MaxBytes-len(metric))},
		{name: "page one byte over the cap", body: metric + pad(MaxBytes-len(metric)+1),
			wantErr: "response larger than 16777216 bytes"},
		{name: "service unavailable", status: http.StatusServiceUnavailable, body: metric,
			wantErr: "unexpected status 503 Service Unavailable"},
		{name: "not an exposition", body: "{\"up\": 1}\n", wantErr: "parsing exposition"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// httptest listens on 127.0.0.1.
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.status != 0 {
					w.WriteHeader(tc.status)
				}
				_, _ = w.Write([]byte(tc.body))
			}))
			t.Cleanup(srv.Close)
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			fams, err := Fetch(ctx, &http.Client{Timeout: 30 * time.Second}, srv.URL+"/metrics")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Fetch error %v, want one saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if v, ok := Value(fams["up"].GetMetric()[0]); !ok || v != 1 {
				t.Errorf("up = %v (%v), want 1", v, ok)
			}
		})
	}
}
