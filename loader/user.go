package loader

import (
	"math/rand/v2"
	"time"

	"github.com/valyala/fasthttp"
)

// user is one virtual user's loop: send, record, pause, until its plan is done or the run stops.
// It owns its request, response and batch, so nothing here is shared with other users.
func (l *Loader) user(id int, p plan, rng *rand.Rand, out chan<- *[]Result) {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)

	batch := l.batches.Get().(*[]Result)
	lastFlush := time.Now()
	flushEvery := l.cfg.flushInterval()
	for i := 0; p.reps < 0 || i < p.reps; i++ {
		if l.stopped.Load() {
			break
		}
		res, end := l.send(req, resp, p.picker.Next(), id)
		*batch = append(*batch, res)
		if len(*batch) == cap(*batch) || end.Sub(lastFlush) >= flushEvery {
			out <- batch
			batch = l.batches.Get().(*[]Result)
			lastFlush = end
		}
		if l.cfg.Delay > 0 && (p.reps < 0 || i+1 < p.reps) {
			l.pause(time.Duration(rng.Int64N(int64(l.cfg.Delay))))
		}
	}
	if len(*batch) > 0 {
		out <- batch
	} else {
		l.batches.Put(batch)
	}
}

// send makes one request to target ti and describes it as a Result. It returns the time the
// request ended so the caller need not read the clock again.
func (l *Loader) send(req *fasthttp.Request, resp *fasthttp.Response, ti, user int) (Result, time.Time) {
	l.templates[ti].CopyTo(req)
	req.SetTimeout(l.cfg.Timeout) // not part of what CopyTo copies
	start := time.Now()
	err := l.client.Do(req, resp)
	end := time.Now()
	res := Result{
		Start:   start.Sub(l.start),
		Latency: end.Sub(start),
		Target:  int32(ti),
		User:    int32(user),
	}
	if err != nil {
		res.Err = classify(err)
		l.sample(res.Err, err)
	} else {
		res.Status = uint16(resp.StatusCode())
		res.BodyBytes = int64(len(resp.Body()))
		res.HTTP10 = !resp.Header.IsHTTP11()
	}
	// Checked after the request: if the run stopped while it was in flight, say so.
	res.AfterStop = l.stopped.Load()
	return res, end
}

// pause sleeps for d or until the run stops, whichever is first.
func (l *Loader) pause(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-l.stopCh:
	}
}
