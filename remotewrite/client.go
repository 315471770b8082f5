package remotewrite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/webload/webload/mask"
	"github.com/webload/webload/urls"
)

// Client sends WriteRequests to one endpoint. Every request is bounded in time, and a send is
// retried a bounded number of times; it never follows a redirect, which would drop the body.
// Safe for concurrent use.
type Client struct {
	url      string // with its credentials, if any: net/http sends them as basic auth
	redacted string // the URL as messages show it
	secrets  mask.Set
	http     *http.Client
	// attempts is how many times a send is tried; backoff is the wait after the first failed
	// attempt, doubled after each further one.
	attempts int
	backoff  time.Duration
}

// The defaults of a Client: a request taking longer than RequestTimeout is abandoned, and a send
// is tried Attempts times, the waits between tries growing from Backoff.
const (
	RequestTimeout = 5 * time.Second
	Attempts       = 3
	Backoff        = 200 * time.Millisecond
)

// ErrBadURL says the endpoint is not an http or https URL with a host.
var ErrBadURL = errors.New("not an http:// or https:// URL with a host")

// NewClient checks the endpoint's URL and makes its client.
func NewClient(endpoint string) (*Client, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: %w", shown(endpoint), ErrBadURL)
	}
	if !goodPort(u.Port()) {
		return nil, fmt.Errorf("%s: %w: port %s is not 1 to 65535", shown(endpoint), ErrBadURL, u.Port())
	}
	c := &Client{
		url:      endpoint,
		redacted: shown(endpoint),
		http: &http.Client{
			Timeout: RequestTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
		attempts: Attempts,
		backoff:  Backoff,
	}
	if pass, ok := u.User.Password(); ok {
		c.secrets.AddBasic(u.User.Username(), pass)
	}
	for _, vs := range u.Query() {
		for _, v := range vs {
			c.secrets.Add(v) // an endpoint that echoes its URL in an answer
		}
	}
	return c, nil
}

// shown is the endpoint as messages show it: without its password, and with its query's values
// as xxxxx, since an endpoint may take its token there (?api_key=…).
func shown(endpoint string) string {
	s := urls.Redacted(endpoint)
	base, query, ok := strings.Cut(s, "?")
	if !ok {
		return s
	}
	query, frag, hasFrag := strings.Cut(query, "#")
	parts := strings.Split(query, "&")
	for i, p := range parts {
		if k, _, ok := strings.Cut(p, "="); ok {
			parts[i] = k + "=xxxxx"
		} else if p != "" {
			parts[i] = "xxxxx"
		}
	}
	s = base + "?" + strings.Join(parts, "&")
	if hasFrag {
		s += "#" + frag
	}
	return s
}

// goodPort tells whether a URL's port (none, or 1 to 65535) can be dialled.
func goodPort(p string) bool {
	if p == "" {
		return true
	}
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535
}

// URL is the endpoint without its credentials, for messages.
func (c *Client) URL() string { return c.redacted }

// Send posts series, retrying a network failure, a 5xx or a 429 answer after a growing wait;
// a 4xx answer is final, as the protocol asks (the same data would be refused again). ctx ends
// the waits and the request in progress. The error names the endpoint without credentials.
func (c *Client) Send(ctx context.Context, series []Series) error {
	body := Body(series)
	wait := c.backoff
	var last error // the endpoint's last failure
	for attempt := 1; ; attempt++ {
		retry, err := c.post(ctx, body)
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return c.stopped(ctx, last)
		case !retry || attempt >= c.attempts:
			return fmt.Errorf("remote write to %s: %w", c.redacted, err)
		}
		last = err
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return c.stopped(ctx, last)
		case <-t.C:
		}
		wait *= 2
	}
}

// stopped is Send's error when ctx ended it: what the endpoint did before, if anything, then
// why ctx ended.
func (c *Client) stopped(ctx context.Context, last error) error {
	if last == nil {
		return fmt.Errorf("remote write to %s: %w", c.redacted, context.Cause(ctx))
	}
	return fmt.Errorf("remote write to %s: %w (then: %w)", c.redacted, last, context.Cause(ctx))
}

// post makes one attempt; retry says whether another may succeed.
func (c *Client) post(ctx context.Context, body []byte) (retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return false, errors.New("make the request") // its message would hold the URL
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("Content-Encoding", "snappy")
	req.Header.Set("User-Agent", "webload")
	req.Header.Set("X-Prometheus-Remote-Write-Version", "0.1.0")
	resp, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			if ue.Timeout() && ctx.Err() == nil {
				return true, fmt.Errorf("no answer within %v", c.http.Timeout)
			}
			err = ue.Err // url.Error's message holds the URL and so its credentials
		}
		return true, err
	}
	defer resp.Body.Close()
	// A few words of the answer tell why it was refused; the rest is drained for keep-alive.
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 == 2 {
		return false, nil
	}
	if to := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && to != "" {
		// A redirect is not followed: it would drop the body. Where it leads is the fix.
		return false, fmt.Errorf("%s to %s (not followed: give that URL)", resp.Status, c.oneLine(urls.Redacted(to)))
	}
	err = fmt.Errorf("%s: %s", resp.Status, c.oneLine(string(msg)))
	return resp.StatusCode/100 == 5 || resp.StatusCode == http.StatusTooManyRequests, err
}

// oneLine is an endpoint's words as a message may quote them: on one line, and without the
// endpoint's credentials, which a proxy's error page may echo.
func (c *Client) oneLine(s string) string {
	return c.secrets.String(strings.Join(strings.Fields(s), " "))
}
