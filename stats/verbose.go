package stats

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Verbose prints one line per request as siege's -v does, then passes the batch on. Responses go
// to Out in siege's format; requests that got no response, which siege only mentions on stderr,
// go to Err with their failure kind.
type Verbose struct {
	out, err *bufio.Writer
	targets  []urls.Target
	paths    []string
	next     loader.Sink
}

var _ loader.Sink = (*Verbose)(nil)

// NewVerbose wraps next; lines are flushed after every batch.
func NewVerbose(out, errw io.Writer, targets []urls.Target, next loader.Sink) *Verbose {
	v := &Verbose{out: bufio.NewWriter(out), err: bufio.NewWriter(errw), targets: targets, next: next}
	for _, t := range targets {
		v.paths = append(v.paths, displayURL(t))
	}
	return v
}

// Record implements loader.Sink.
func (v *Verbose) Record(batch []loader.Result) {
	for i := range batch {
		r := &batch[i]
		if r.Kind == loader.KindPage {
			continue // a page visit, not a request
		}
		t := &v.targets[r.Target]
		method, path := t.Method, v.paths[r.Target]
		if r.Kind == loader.KindResource {
			// Results carry no URLs, so a resource is shown by the page it belongs to.
			method, path = "GET", "(resource of "+path+")"
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

// displayURL is what siege shows: the path for GET, the absolute URL for other methods.
func displayURL(t urls.Target) string {
	if t.Method != "GET" {
		return urls.Redacted(t.URL)
	}
	return requestURI(t.URL)
}

// requestURI is the path and query of an absolute URL, as written.
func requestURI(abs string) string {
	rest := abs
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[i:]
	}
	return "/"
}
