package remotewrite

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// receiver is a loopback remote-write endpoint that decodes what it gets and answers with the
// statuses it is given in turn (204 once they run out).
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	statuses []int
	requests int
	got      [][]Series
	header   http.Header
	user     string
	errs     []error
}

func newReceiver(t *testing.T, statuses ...int) *receiver {
	t.Helper()
	rc := &receiver{statuses: statuses}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		series, derr := decodeBody(body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.requests++
		rc.header = r.Header.Clone()
		rc.user, _, _ = r.BasicAuth()
		rc.errs = append(rc.errs, err, derr)
		rc.got = append(rc.got, series)
		status := http.StatusNoContent
		if len(rc.statuses) > 0 {
			status, rc.statuses = rc.statuses[0], rc.statuses[1:]
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, "said "+http.StatusText(status))
	}))
	t.Cleanup(rc.Close)
	return rc
}

// testClient sends to url with waits short enough for a test.
func testClient(t *testing.T, url string) *Client {
	t.Helper()
	c, err := NewClient(url)
	if err != nil {
		t.Fatal(err)
	}
	c.backoff = time.Millisecond
	return c
}

// someSeries has a counter and a histogram with buckets in two spans.
func someSeries() []Series {
	return []Series{
		{Labels: []Label{{"__name__", MetricRequests}, {"run", "nightly"}}, Samples: []Sample{{Value: 1234, Time: 1700000000123}}},
		{Labels: []Label{{"__name__", MetricURLResponseTime}, {"method", "GET"}, {"url", "http://127.0.0.1/a?b=c"}},
			Histograms: []Histogram{{Count: 9, Sum: 0.42, Time: 1700000000123,
				Buckets: []Bucket{{-2000, 3}, {-1999, 1}, {-1500, 5}}}}},
		{Labels: []Label{{"__name__", MetricResponseTime}}, Histograms: []Histogram{{Time: 5}}},
	}
}

func TestSendPostsTheWriteRequest(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		statuses []int
		requests int  // that reach the server
		fails    bool // Send's outcome
	}{
		{"accepted at once", nil, 1, false},
		{"a 5xx is tried again", []int{500}, 2, false},
		{"a 429 is tried again", []int{429, 503}, 3, false},
		{"a 4xx is final", []int{400}, 1, true},
		{"tries are bounded", []int{503, 503, 503, 503}, Attempts, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rc := newReceiver(t, tc.statuses...)
			err := testClient(t, rc.URL+"/api/v1/write").Send(context.Background(), someSeries())
			if (err != nil) != tc.fails {
				t.Fatalf("Send: %v, want failure %v", err, tc.fails)
			}
			rc.mu.Lock()
			defer rc.mu.Unlock()
			if rc.requests != tc.requests {
				t.Errorf("server got %d requests, want %d", rc.requests, tc.requests)
			}
			if err := errors.Join(rc.errs...); err != nil {
				t.Fatalf("decoding the body: %v", err)
			}
			for i, got := range rc.got {
				if !reflect.DeepEqual(got, someSeries()) {
					t.Errorf("request %d carried\n%+v\nwant\n%+v", i, got, someSeries())
				}
			}
			for k, want := range map[string]string{"Content-Encoding": "snappy", "Content-Type": "application/x-protobuf",
				"X-Prometheus-Remote-Write-Version": "0.1.0", "User-Agent": "webload"} {
				if v := rc.header.Get(k); v != want {
					t.Errorf("header %s = %q, want %q", k, v, want)
				}
			}
		})
	}
}

// A server that never answers costs each try its timeout, not the run.
func TestSendBoundsEachRequest(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var mu sync.Mutex
	seen := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen++
		mu.Unlock()
		select { // held until the test ends, or 10 s at most
		case <-release:
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	defer close(release)
	c := testClient(t, srv.URL)
	c.http.Timeout = 200 * time.Millisecond
	if err := c.Send(context.Background(), someSeries()); err == nil {
		t.Fatal("Send to a server that never answers succeeded")
	}
	mu.Lock()
	defer mu.Unlock()
	// A try may time out before the server's handler sees it, on a busy machine; none is
	// made beyond the bound.
	if seen < 1 || seen > Attempts {
		t.Errorf("server saw %d tries, want 1 to %d", seen, Attempts)
	}
}

// A password in the endpoint is sent as basic auth and never appears in an error.
func TestSendKeepsCredentialsOutOfMessages(t *testing.T) {
	t.Parallel()
	rc, tokenRC := newReceiver(t, 400), newReceiver(t, 400)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	cases := []struct{ name, url, shown string }{
		{"refused", strings.Replace(closed, "//", "//ops:s3cret-pw@", 1) + "/api/v1/write", "ops:xxxxx@"},
		{"answered 400", strings.Replace(rc.URL, "//", "//ops:s3cret-pw@", 1) + "/api/v1/write", "ops:xxxxx@"},
		// A token in the query (?api_key=…), which the endpoint may echo in its answer too.
		{"a token in the query, refused", closed + "/api/v1/write?tenant=a&api_key=s3cret-token", "?tenant=xxxxx&api_key=xxxxx"},
		{"a token in the query, answered 400", tokenRC.URL + "/api/v1/write?api_key=s3cret-token", "?api_key=xxxxx"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := testClient(t, tc.url)
			err := c.Send(context.Background(), someSeries())
			if err == nil {
				t.Fatal("Send succeeded")
			}
			if strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), tc.shown) {
				t.Errorf("message %q shows the secret or not the redacted endpoint (%s)", err, tc.shown)
			}
			if strings.Contains(c.URL(), "s3cret") {
				t.Errorf("URL() = %q shows the secret", c.URL())
			}
		})
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.user != "ops" {
		t.Errorf("server saw basic-auth user %q, want ops", rc.user)
	}
}

func TestNewClientRejectsBadURLs(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"", "127.0.0.1:9090/api/v1/write", "ftp://h/x", "http:///api/v1/write", "https://ops:s3cret@",
		// A port no address has fails every send: said at the start, not once the run is over.
		"http://127.0.0.1:99999/api/v1/write", "http://127.0.0.1:0/api/v1/write", "http://ops:s3cret@127.0.0.1:x/",
		"http://127.0.0.1:99999/api/v1/write?api_key=s3cret", "ftp://h/x?token=s3cret#f"} {
		_, err := NewClient(u)
		if !errors.Is(err, ErrBadURL) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("NewClient(%q) = %v, want ErrBadURL without the password", u, err)
		}
	}
}
