package loader

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/webload/webload/urls"
)

// Probe is one request made to look at, not to measure (siege's -g and -p): the request and
// response heads as sent and received, with secrets hidden, and the decoded body.
type Probe struct {
	Request  string // request line and headers
	Response string // status line and headers
	Body     []byte // decoded, up to 2 MiB
}

// SecretHeader tells whether a header's value is a credential, shown as *** wherever webload
// prints headers (-g, -p, -C).
func SecretHeader(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token":
		return true
	}
	return false
}

// ProbeOnce makes one request to t with the run's settings.
func ProbeOnce(cfg Config, t urls.Target) (Probe, error) {
	cfg.Users, cfg.Reps, cfg.Rate, cfg.Parser, cfg.probe = 1, 1, 0, false, true
	l, err := New(cfg, []urls.Target{t})
	if err != nil {
		return Probe{}, err
	}
	x := l.newExchange()
	defer x.release()
	l.prepare(0, &x.req)
	x.req.SetTimeout(cfg.Timeout)
	x.body.deadline = time.Now().Add(cfg.Timeout)
	if err := l.client.Do(&x.req, &x.resp); err != nil {
		return Probe{}, fmt.Errorf("%s %s: %w", t.Method, urls.Redacted(t.URL), l.described(err))
	}
	var p Probe
	p.Request = redactHead(x.req.Header.String())
	// fasthttp's own rendering of the head adds the headers it defaults (Date, Content-Type),
	// so answers are shown as the server sent them: HTTP/1.1's from the wire, HTTP/2's from
	// what the HTTP/2 client received.
	if c := wireOf(x.resp.LocalAddr()); c != nil {
		p.Response = redactHead(string(c.wireHead()))
	} else if h2, ok := x.resp.BodyStream().(*h2Body); ok {
		p.Response = redactHead(h2.wireHead())
	} else {
		p.Response = redactHead(x.resp.Header.String())
	}
	if _, err := x.body.read(&x.resp, true); err != nil {
		return p, fmt.Errorf("reading the body of %s: %w", urls.Redacted(t.URL), l.described(err))
	}
	p.Body = bytes.Clone(x.body.page)
	return p, nil
}

// redactHead hides the values of secret headers in an HTTP head.
func redactHead(head string) string {
	lines := strings.Split(strings.TrimRight(head, "\r\n"), "\r\n")
	for i, line := range lines {
		name, _, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		if SecretHeader(name) {
			lines[i] = name + ": ***"
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
