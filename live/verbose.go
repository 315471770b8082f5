package live

import (
	"bufio"
	"fmt"
	"io"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Verbose prints one line per request as siege's -v does, then passes the batch on: the
// protocol, status, time, body bytes, method and the absolute URL of what was requested (a
// redirect hop's and a resource's own, credentials hidden). Responses go to Out in siege's
// format; requests that got no response, which siege only mentions on stderr, go to Err with
// their failure kind, and so do responses that failed a check.
type Verbose struct {
	out, err *bufio.Writer
	targets  []urls.Target
	name     RequestNamer
	next     loader.Sink
}

var _ loader.Sink = (*Verbose)(nil)

// RequestNamer says what a result requested: its method and absolute URL. ok is false when the
// loader could not name a redirect hop or resource; method and url are then its target's.
// (*loader.Loader).Request is one, for a run with Config.NameRequests.
type RequestNamer func(r *loader.Result) (method, url string, ok bool)

// NewVerbose wraps next; lines are flushed after every batch. A nil name shows every request
// by its target, which is right only for runs without redirects and resources.
func NewVerbose(out, errw io.Writer, targets []urls.Target, name RequestNamer, next loader.Sink) *Verbose {
	return &Verbose{out: bufio.NewWriter(out), err: bufio.NewWriter(errw), targets: targets, name: name, next: next}
}

// Record implements loader.Sink.
func (v *Verbose) Record(batch []loader.Result) {
	for i := range batch {
		r := &batch[i]
		if r.Kind == loader.KindPage {
			continue // a page visit, not a request
		}
		method, path := v.request(r)
		if r.Err == loader.ErrCheck {
			fmt.Fprintf(v.err, "[error] %-8s %6.2f secs: %7d bytes ==> %-4s %s (status %d failed a check)\n",
				r.Err, r.Latency.Seconds(), r.BodyBytes, method, path, r.Status)
			continue
		}
		if r.Err == loader.ErrExtract {
			why := "(not sent: a value it needs is missing)"
			if r.Status != 0 {
				why = fmt.Sprintf("(status %d lacked a value its #@extract rules take)", r.Status)
			}
			fmt.Fprintf(v.err, "[error] %-8s %6.2f secs: %7d bytes ==> %-4s %s %s\n",
				r.Err, r.Latency.Seconds(), r.BodyBytes, method, path, why)
			continue
		}
		if r.Err != loader.ErrNone {
			fmt.Fprintf(v.err, "[error] %-8s %6.2f secs: %7d bytes ==> %-4s %s\n",
				r.Err, r.Latency.Seconds(), 0, method, path)
			continue
		}
		proto := "HTTP/1.1"
		if r.HTTP10 {
			proto = "HTTP/1.0"
		}
		fmt.Fprintf(v.out, "%s %d %6.2f secs: %7d bytes ==> %-4s %s\n",
			proto, r.Status, r.Latency.Seconds(), r.BodyBytes, method, path)
	}
	// Output errors cannot stop a load run; they surface when the report is written.
	_ = v.out.Flush()
	_ = v.err.Flush()
	v.next.Record(batch)
}

// request returns the method and the URL to show for r.
func (v *Verbose) request(r *loader.Result) (method, shown string) {
	t := &v.targets[r.Target]
	method, u, ok := t.Method, t.URL, true
	if v.name != nil {
		method, u, ok = v.name(r)
	}
	shown = urls.Redacted(u)
	if !ok {
		shown = "(a redirect or resource of " + shown + ")"
	}
	return method, shown
}
