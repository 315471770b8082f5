package stats

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// A page that sends the browser on with a meta refresh counts as siege's table says: the page
// is a successful transaction and its target one more, with its own outcome; the report counts
// the refresh among the redirects, and the visit as one page with the target's status.
func TestMetaRefreshCounts(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/old":
			fmt.Fprint(w, `<meta http-equiv=refresh content="2; url=/new">moved`)
		case "/broken":
			fmt.Fprint(w, `<meta http-equiv=refresh content="0; url=/down">moved`)
		case "/down":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			fmt.Fprint(w, `<p>here</p>`)
		}
	}))
	t.Cleanup(srv.Close)
	tests := []struct {
		name                                 string
		path                                 string
		transactions, successful, failed     int64
		pages, pagesFailed, redirects, codes int64
	}{
		{"target answers", "/old", 2, 2, 0, 1, 0, 1, 2},
		{"target fails", "/broken", 1, 1, 1, 1, 1, 1, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			targets := []urls.Target{{Method: "GET", URL: srv.URL + tc.path, Source: "u:1"}}
			l, err := loader.New(loader.Config{Users: 1, Reps: 1, Timeout: 10 * time.Second, Parser: true}, targets)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			rec := NewRecorder(targets, Options{})
			rep := rec.Report(l.Run(ctx, rec), RunInfo{}, "")
			if rep.Transactions != tc.transactions || rep.SuccessfulTransactions != tc.successful || rep.FailedTransactions != tc.failed {
				t.Errorf("transactions %d, successful %d, failed %d; want %d, %d, %d", rep.Transactions,
					rep.SuccessfulTransactions, rep.FailedTransactions, tc.transactions, tc.successful, tc.failed)
			}
			if rep.Pages == nil {
				t.Fatal("no page figures")
			}
			p := rep.Pages
			if p.Pages != tc.pages || p.Failed != tc.pagesFailed || p.Redirects != tc.redirects || p.OffHostRedirects != 0 {
				t.Errorf("pages %+v, want %d pages (%d failed), %d redirects", *p, tc.pages, tc.pagesFailed, tc.redirects)
			}
			var codes int64
			for _, n := range rep.StatusCodes {
				codes += n
			}
			if codes != tc.codes {
				t.Errorf("status codes %v, want %d responses", rep.StatusCodes, tc.codes)
			}
		})
	}
}
