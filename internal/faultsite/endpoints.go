package faultsite

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

const (
	// hugeChunk is the one buffer /huge writes over and over, so that a response of any
	// size costs the site 64 KiB and no allocation per write.
	hugeChunk = 64 << 10
	// hugeDefault is 2 GiB: past the 32-bit limits that a careless client might have.
	hugeDefault = 2 << 30
	// slowDefault is long enough to trip a short client timeout, short enough for a test.
	slowDefault = 1000
	// maxDelay keeps a typo in ?ms= from turning into a goroutine that waits for days.
	maxDelay = int64(time.Hour / time.Millisecond)
)

// endpoints maps each path to its fault. It is built per Site rather than held in a
// package variable so that nothing global is shared between sites.
func (s *Site) endpoints() map[string]handler {
	return map[string]handler{
		"/ok":                  serveOK,
		"/slow":                serveSlow,
		"/hang":                serveHang,
		"/stall-body":          serveStallBody,
		"/trickle":             serveTrickle,
		"/huge":                s.serveHuge,
		"/close-after":         serveCloseAfter,
		"/burst":               serveBurst,
		"/status":              serveStatus,
		"/reset-before":        serveResetBefore,
		"/reset-after-headers": serveResetAfterHeaders,
		"/bad-status":          serveBadStatus,
		"/garbage":             serveGarbage,
		"/bad-chunked":         serveBadChunked,
		"/short-body":          serveShortBody,
	}
}

func serveOK(w http.ResponseWriter, _ *http.Request, _ int64) {
	writeOK(w)
}

func serveSlow(w http.ResponseWriter, r *http.Request, _ int64) {
	ms, err := param(r.URL.Query(), "ms", slowDefault, 0, maxDelay)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !sleep(r, time.Duration(ms)*time.Millisecond) {
		abortResponse()
	}
	writeOK(w)
}

func serveHang(_ http.ResponseWriter, r *http.Request, _ int64) {
	<-r.Context().Done()
	abortResponse()
}

// serveStallBody promises far more than it sends, so a client is left waiting mid-body.
func serveStallBody(w http.ResponseWriter, r *http.Request, _ int64) {
	w.Header().Set("Content-Length", "100000")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(make([]byte, 100))
	_ = http.NewResponseController(w).Flush()
	<-r.Context().Done()
	abortResponse()
}

// serveTrickle sends the first byte at once and one more each second, so that a client's
// idle timeout never fires while its total timeout must.
func serveTrickle(w http.ResponseWriter, r *http.Request, _ int64) {
	const size = 1000
	w.Header().Set("Content-Length", strconv.Itoa(size))
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	for i := range size {
		if i > 0 && !sleep(r, time.Second) {
			abortResponse()
		}
		if _, err := w.Write([]byte{'t'}); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

// serveHuge streams from the one shared chunk, so the site itself stays small however
// much it sends, and stops at the first failed write when the client has gone.
func (s *Site) serveHuge(w http.ResponseWriter, r *http.Request, _ int64) {
	n, err := param(r.URL.Query(), "bytes", hugeDefault, 0, 1<<62)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
	w.Header().Set("Content-Type", "application/octet-stream")
	w.WriteHeader(http.StatusOK)
	for n > 0 {
		if r.Context().Err() != nil {
			abortResponse()
		}
		k := min(n, int64(len(s.chunk)))
		if _, err := w.Write(s.chunk[:k]); err != nil {
			return
		}
		n -= k
	}
}

// serveCloseAfter counts per connection, not per site, so that the close lands on the
// same connection whatever other clients do.
func serveCloseAfter(w http.ResponseWriter, r *http.Request, _ int64) {
	n, err := param(r.URL.Query(), "n", 1, 1, 1<<62)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	info, _ := r.Context().Value(connKey{}).(*connInfo)
	if info != nil && info.closeAfter.Add(1)%n == 0 {
		// net/http closes the connection after a response that says so.
		w.Header().Set("Connection", "close")
	}
	writeOK(w)
}

// serveBurst decides by the request's ordinal, not by time, so the number of 503s in a
// run is exact and a test can demand it.
func serveBurst(w http.ResponseWriter, r *http.Request, ordinal int64) {
	q := r.URL.Query()
	every, err := param(q, "every", 10, 1, 1<<62)
	if err == nil {
		var burst int64
		burst, err = param(q, "len", 3, 0, 1<<62)
		if err == nil && ordinal%every < burst {
			http.Error(w, "burst", http.StatusServiceUnavailable)
			return
		}
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	writeOK(w)
}

// serveStatus accepts 200-999: net/http panics outside 100-999, and a 1xx would be sent
// as an informational response followed by a 200, not as the status asked for.
func serveStatus(w http.ResponseWriter, r *http.Request, _ int64) {
	code, err := param(r.URL.Query(), "code", http.StatusOK, 200, 999)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	body := fmt.Sprintf("status %d\n", code)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(int(code))
	_, _ = w.Write([]byte(body)) // refused for 204 and 304, which may carry no body
}

// writeOK is the one good answer, with its length set so a client never has to guess.
func writeOK(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Length", "3")
	_, _ = w.Write([]byte("ok\n"))
}

// abortResponse ends a handler whose wait was cut short without letting net/http finish
// the response: returning would send a 200 for a request that never got its answer.
// net/http recovers this sentinel quietly and drops the connection.
func abortResponse() {
	panic(http.ErrAbortHandler)
}

// sleep waits for d unless the client leaves, the site goes down or Close is called,
// all of which cancel the request's context; it reports whether d passed.
func sleep(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// param reads an integer query parameter, so that a mistyped test fails loudly with a
// 400 instead of quietly running with a default.
func param(q url.Values, name string, def, lo, hi int64) (int64, error) {
	s := q.Get(name)
	if s == "" {
		return def, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("parameter %s: %w", name, err)
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("parameter %s=%d outside [%d, %d]", name, v, lo, hi)
	}
	return v, nil
}
