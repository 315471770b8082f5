package live

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// requestCSVColumns are the header of the per-request CSV; RequestCSV says what they hold.
var requestCSVColumns = [...]string{"time", "offset_s", "method", "url", "kind", "status", "bytes",
	"decoded_bytes", "latency_ms", "service_ms", "error", "user"}

// RequestCSV writes one CSV row per request (--csv) as results arrive, then passes the batch
// on. It keeps no rows: they go through the csv.Writer's buffer, flushed after every batch, so
// a long run costs disk, not memory. Like every sink it is fed from one goroutine.
//
// The columns, in order:
//   - time: wall clock of the request's intended start, RFC 3339 in UTC with milliseconds
//   - offset_s: the intended start in seconds from the start of the run (restarts with each run
//     of a --repeat series, where time does not)
//   - method, url: the request of the target list it was made for, its password hidden. A
//     resource has no URL of its own in the results, so its row names its page (method GET);
//     a redirect hop is booked under the URL it started from
//   - kind: url (a URL of the list, or a redirect hop), resource (of a page) or login
//   - status: the HTTP status, empty when no response head was read
//   - bytes, decoded_bytes: the body as received and after undoing its Content-Encoding
//   - latency_ms: response time from the intended start (includes waiting for a free user in
//     the open model); service_ms: from the actual send. Both in ms with 3 decimals
//   - error: why the request got no usable response (refused, timeout, ...), empty when it did
//   - user: the virtual user, from 0
//
// Page visits are not requests and get no row, so the rows are the report's requests.
type RequestCSV struct {
	w       *csv.Writer
	next    loader.Sink
	start   time.Time
	methods []string // per target
	urls    []string // per target, redacted
	row     []string
	buf     []byte // scratch for formatting a row
	err     error  // the first write error; rows stop there, results still flow on
}

var _ loader.Sink = (*RequestCSV)(nil)

// WriteRequestCSVHeader writes the header row, once per file.
func WriteRequestCSVHeader(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(requestCSVColumns[:]); err != nil {
		return fmt.Errorf("write request CSV: %w", err)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write request CSV: %w", err)
	}
	return nil
}

// NewRequestCSV wraps next, writing rows (no header) to w. targets is the run's target list
// (loader.Targets: URLs, then login steps); start is the wall-clock moment the run starts, which
// the results' offsets count from.
func NewRequestCSV(w io.Writer, targets []urls.Target, start time.Time, next loader.Sink) *RequestCSV {
	c := &RequestCSV{w: csv.NewWriter(w), next: next, start: start, row: make([]string, len(requestCSVColumns))}
	for _, t := range targets {
		c.methods = append(c.methods, t.Method)
		c.urls = append(c.urls, urls.Redacted(t.URL))
	}
	return c
}

// Record implements loader.Sink.
func (c *RequestCSV) Record(batch []loader.Result) {
	if c.err == nil {
		for i := range batch {
			if batch[i].Kind == loader.KindPage {
				continue // a page visit, not a request
			}
			c.fill(&batch[i])
			if err := c.w.Write(c.row); err != nil {
				c.err = err
				break
			}
		}
		c.w.Flush()
		if err := c.w.Error(); err != nil && c.err == nil {
			c.err = err
		}
	}
	c.next.Record(batch)
}

// Err reports the first error met writing rows (a full disk, say); rows after it were lost.
func (c *RequestCSV) Err() error {
	if c.err != nil {
		return fmt.Errorf("write request CSV: %w", c.err)
	}
	return nil
}

// fill lays one result out in c.row. The formatted fields are appended to one scratch buffer
// and converted to a string once, the row's fields being slices of it: one allocation a row
// instead of one a field.
func (c *RequestCSV) fill(r *loader.Result) {
	method, kind := c.methods[r.Target], "url"
	switch r.Kind {
	case loader.KindResource:
		method, kind = "GET", "resource"
	case loader.KindLogin:
		kind = "login"
	}
	b := c.start.Add(r.Intended).UTC().AppendFormat(c.buf[:0], "2006-01-02T15:04:05.000Z07:00")
	var ends [8]int // where each formatted field ends in b
	ends[0] = len(b)
	b = strconv.AppendFloat(b, r.Intended.Seconds(), 'f', 6, 64)
	ends[1] = len(b)
	if r.Status != 0 {
		b = strconv.AppendUint(b, uint64(r.Status), 10)
	}
	ends[2] = len(b)
	b = strconv.AppendInt(b, r.BodyBytes, 10)
	ends[3] = len(b)
	b = strconv.AppendInt(b, r.Decoded, 10)
	ends[4] = len(b)
	b = appendMillis(b, r.ResponseTime())
	ends[5] = len(b)
	b = appendMillis(b, r.Latency)
	ends[6] = len(b)
	b = strconv.AppendInt(b, int64(r.User), 10)
	ends[7] = len(b)
	c.buf = b
	s := string(b)
	errName := ""
	if r.Err != loader.ErrNone {
		errName = r.Err.String()
	}
	c.row[0] = s[:ends[0]]
	c.row[1] = s[ends[0]:ends[1]]
	c.row[2] = method
	c.row[3] = c.urls[r.Target]
	c.row[4] = kind
	c.row[5] = s[ends[1]:ends[2]]
	c.row[6] = s[ends[2]:ends[3]]
	c.row[7] = s[ends[3]:ends[4]]
	c.row[8] = s[ends[4]:ends[5]]
	c.row[9] = s[ends[5]:ends[6]]
	c.row[10] = errName
	c.row[11] = s[ends[6]:ends[7]]
}

// appendMillis formats a duration as milliseconds with 3 decimals (microsecond resolution).
func appendMillis(b []byte, d time.Duration) []byte {
	return strconv.AppendFloat(b, float64(d)/float64(time.Millisecond), 'f', 3, 64)
}
