package stats

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/webload/webload/loader"
)

// Tally counts requests by outcome under siege's rules: a request with no response, a 408 or a
// 5xx is a failure; every other response is a transaction, successful when below 400 or a
// 401/407. Its zero value is empty; two tallies add field by field.
type Tally struct {
	Requests     int64 // every request that ended
	Transactions int64
	Successful   int64
	Failed       int64
	// Bytes are the response bodies as received, of the requests that got a whole response
	// (failed checks and answers that lacked a value included): a body that failed half way is
	// no data transferred.
	Bytes int64
}

// Record counts one result and says whether it was a transaction.
func (t *Tally) Record(res *loader.Result) (transaction bool) {
	t.Requests++
	if res.Arrived() {
		t.Bytes += res.BodyBytes
	}
	if res.Failed() {
		t.Failed++
		return false
	}
	t.Transactions++
	if res.Successful() {
		t.Successful++
	}
	return true
}

// Add adds o's counts.
func (t *Tally) Add(o Tally) {
	t.Requests += o.Requests
	t.Transactions += o.Transactions
	t.Successful += o.Successful
	t.Failed += o.Failed
	t.Bytes += o.Bytes
}

// statuses counts one URL's responses by status code. A URL sees few codes, so a short list
// costs less than a map (a long URL list has one per URL reached) and is searched as fast; nil
// until the first response.
type statuses []statusCount

type statusCount struct {
	code uint16
	n    int64
}

func (s *statuses) add(code uint16, n int64) {
	for i := range *s {
		if (*s)[i].code == code {
			(*s)[i].n += n
			return
		}
	}
	*s = append(*s, statusCount{code, n})
}

// addSaved adds counts read from a saved result, keyed by the code in decimal.
func (s *statuses) addSaved(saved map[string]int64) error {
	for code, n := range saved {
		c, err := strconv.ParseUint(code, 10, 16)
		if err != nil {
			return fmt.Errorf("status code %q: %w", code, err)
		}
		s.add(uint16(c), n)
	}
	return nil
}

// view gives the counts as the JSON writes them; nil for none.
func (s statuses) view() StatusCounts {
	if len(s) == 0 {
		return nil
	}
	out := make(StatusCounts, len(s))
	for _, c := range s {
		out[strconv.Itoa(int(c.code))] = c.n
	}
	return out
}

// allStatuses counts a whole run's responses by status code: an array, which the recorder's
// hot path indexes faster than a map, keyed by the code modulo 1000 (codes have three digits).
type allStatuses [1000]int64

func (s *allStatuses) addSaved(saved map[string]int64) error {
	for code, n := range saved {
		c, err := strconv.ParseUint(code, 10, 16)
		if err != nil || c >= uint64(len(s)) {
			return fmt.Errorf("status code %q: not a code of three digits at most", code)
		}
		s[c] += n
	}
	return nil
}

func (s *allStatuses) view() map[string]int64 {
	out := map[string]int64{}
	for code, n := range s {
		if n > 0 {
			out[strconv.Itoa(code)] = n
		}
	}
	return out
}

// errorCounts counts requests that got no response, by kind.
type errorCounts [loader.NumErrKinds]int64

// addSaved adds counts read from a saved result, keyed by the kind's name.
func (e *errorCounts) addSaved(saved map[string]int64) error {
	for name, n := range saved {
		i := slices.IndexFunc(loader.ErrKinds(), func(k loader.ErrKind) bool { return k.String() == name })
		if i < 0 {
			return fmt.Errorf("unknown error kind %q", name)
		}
		e[loader.ErrKinds()[i]] += n
	}
	return nil
}

func (e *errorCounts) view() map[string]int64 {
	out := map[string]int64{}
	for _, k := range loader.ErrKinds() {
		if n := e[k]; n > 0 {
			out[k.String()] = n
		}
	}
	return out
}

// total sums durations: recorded ones exactly in nanoseconds, saved ones as the seconds they
// were written with (see Latency).
type total struct {
	d time.Duration
	s float64
}

func (t total) seconds() float64 {
	if t.s != 0 {
		return t.s
	}
	return t.d.Seconds()
}

// mean is the total over n values, in seconds; 0 for none.
func (t total) mean(n int64) float64 {
	switch {
	case n == 0:
		return 0
	case t.s != 0:
		return t.s / float64(n)
	}
	return (t.d / time.Duration(n)).Seconds()
}

// failedStatus tells whether a status code, as a result's status_codes keys it, is a failed
// response under siege's rules (408 and 5xx), as Tally.Record counts it.
func FailedStatus(code string) bool {
	c, _ := strconv.Atoi(code)
	return c == 408 || c >= 500
}
