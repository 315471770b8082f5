package loader

import (
	"math/rand/v2"
	"net/url"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/check"
)

// user is one virtual user's loop in the closed model: send (or visit), record, pause, until its
// plan is done or the run stops. It owns its exchange, batch and session (s, nil when nothing
// is per-user), so nothing here is shared.
func (l *Loader) user(id int, p plan, rng *rand.Rand, s *session, out chan<- *[]Result) {
	if l.cfg.Ramp > 0 {
		// Users join evenly over the ramp: user id starts at id/Users of it.
		if !l.sleepUntil(time.Duration(int64(l.cfg.Ramp) * int64(id) / int64(l.cfg.Users))) {
			return
		}
	}
	l.active.Add(1)
	defer l.active.Add(-1)
	x, b, done := l.sender(out)
	defer done()
	x.sess = s
	// A shard's users are numbered from 0 in its results; their plans keep the whole run's ids.
	lo, _ := l.cfg.shardUsers()
	me := id - lo
	v := l.newVisitor(x, me, nil)
	if v != nil {
		defer v.release()
	}
	for i := 0; p.reps < 0 || i < p.reps; i++ {
		if l.stopped.Load() {
			break
		}
		if v != nil {
			v.visit(p.picker.Next(), nil, b)
		} else {
			l.sendNext(x, p, i, me, b)
		}
		if l.cfg.Delay > 0 && (p.reps < 0 || i+1 < p.reps) {
			l.pause(time.Duration(rng.Int64N(int64(l.cfg.Delay))))
		}
	}
}

// sendNext makes user me's i-th request, without a visitor. It is a function of its own so
// that its Result is not in user's frame, which is under every request's deepest call chain.
func (l *Loader) sendNext(x *exchange, p plan, i, me int, b *batcher) {
	if x.sess != nil && l.reloginDue(i) {
		x.sess.reset() // no login steps to make without a visitor: only the values go
	}
	b.add(l.send(x, p.picker.Next(), me))
}

// exchange is what one goroutine needs to make requests: its own request, response and body
// reader. The request and response are its own fields, not fasthttp's pooled ones: a user
// waiting for an answer holds its exchange, and one allocation of 1 792 bytes (a size class)
// where three took 320, 1 024 and 576 is 128 bytes less, 13 MB at 100 000 requests in
// flight. TestWaitingUserSizeClasses keeps it there.
type exchange struct {
	req  fasthttp.Request
	resp fasthttp.Response
	body body
	eval *check.Eval              // the response checks, made with the first checked response
	peek func(name string) []byte // received, for the checks
	// cost is what this exchange's checks cost so far, added to costs, the run's, on release.
	cost  checkCost
	costs *runCheckCost
	// sess is the values of the user this exchange sends for; nil when nothing is per-user.
	sess *session
	// jar is the cookie jar of the user this exchange sends for, whose values are hidden in
	// fingerprints; nil without cookies.
	jar *cookies
	// at is the URL of the request in flight within a visit, which a redirect's Location is
	// relative to; nil for plain requests, which follow no redirect.
	at *url.URL
	// fill and filledBody are scratch for the per-user URL, headers and body, reused from
	// request to request; req points at filledBody until the next request is prepared.
	fill, filledBody []byte
	// ready is 1 + the target whose request req holds as prepare made it, 0 when it holds
	// none (see prepared).
	ready int
}

// sender gives a goroutine that sends requests what it owns: an exchange and a batch of
// results; done releases them and hands over the last results.
func (l *Loader) sender(out chan<- *[]Result) (*exchange, *batcher, func()) {
	x := l.newExchange()
	b := l.newBatcher(out)
	return x, b, func() {
		b.close()
		x.release()
	}
}

func (l *Loader) newExchange() *exchange {
	return &exchange{costs: &l.checkCost,
		body: body{maxBody: l.cfg.MaxBody, pages: &l.pages, decoded: l.decoded, dec: &l.decoders}}
}

func (x *exchange) release() {
	x.costs.merge(x.cost)
	x.cost = checkCost{}
	x.body.release()
	x.req.Reset()
	x.resp.Reset() // closes a body stream still open
}

// send makes one request to target ti and describes it as a Result. It returns when the request
// ended, as an offset from the run's start, so the caller need not read the clock again.
func (l *Loader) send(x *exchange, ti, user int) (Result, time.Duration) {
	if !x.prepared(ti) {
		l.prepare(ti, &x.req)
	}
	x.ready = 0
	var res Result
	if x.sess != nil && !l.personalizeSend(x, ti, user, &res) {
		return res, res.Start
	}
	x.req.SetTimeout(l.cfg.Timeout) // not part of what CopyTo copies
	end := l.do(x, ti, user, KindURL, &res)
	l.keepPrepared(x, ti, &res)
	x.body.release() // a body kept for a fingerprint that failed half way
	return res, end
}

// do sends the request prepared in x and describes it in *res, booked under target ti; it
// returns when the request ended. When the run parses pages, the start of an HTML answer to
// anything but a resource (kind) is kept in x.body.page, until the caller releases it. The
// result is written in place, not returned: do is on the stack under every request's deepest
// call chain, and each byte of its callers' frames counts in every user's stack (4 or 8 KiB,
// times the users).
func (l *Loader) do(x *exchange, ti, user int, kind Kind, res *Result) time.Duration {
	// Offsets from the run's start read only the monotonic clock, half the cost of time.Now,
	// which is a measurable share of the client's time at tens of thousands of requests per second.
	offset := time.Since(l.start)
	resent, err := l.roundTrip(x, offset)
	*res = Result{Start: offset, Intended: offset, Target: int32(ti), User: int32(user), Resent: resent}
	return l.answered(x, ti, kind, res, err)
}

// answered reads and judges the answer to the request do sent at res.Start, err being how the
// round trip ended, and returns when the request ended. It is apart from do so that its
// locals are not on the stack while the request waits for its answer (see do).
func (l *Loader) answered(x *exchange, ti int, kind Kind, res *Result, err error) time.Duration {
	offset := res.Start
	if err == nil {
		err = checkStatus(x)
	}
	parse, learn, checked := l.parsed != nil && kind != KindResource, false, false
	if err == nil {
		res.Status = uint16(x.resp.StatusCode())
		res.HTTP10 = !x.resp.Header.IsHTTP11()
		checked = l.startCheck(x, ti, kind, res)
		var size bodySize
		// The same deadline as the request's, from the clock reading above: decoding is bounded
		// by it too.
		x.body.deadline = l.start.Add(offset + l.cfg.Timeout)
		learn = kind == KindURL && l.sampleContent(x, ti)
		x.body.uri = x.req.URI()
		size, err = x.body.read(&x.resp, parse && isHTML(x.resp.Header.ContentType()) || learn || l.extracting(ti, kind))
		res.BodyBytes, res.Decoded = size.received, size.decoded
	}
	// One clock reading ends the request, at the body's last byte: what the client does with
	// the answer next (checks, rules, fingerprints) is its own time.
	endOffset := time.Since(l.start)
	res.Latency = endOffset - offset
	if err != nil {
		res.Err = classify(err)
		l.failed(res.Err, err)
	} else if checked {
		l.endCheck(x, ti, res)
	}
	if l.users != nil && kind != KindResource {
		l.extractAnswer(x, ti, res, learn)
	}
	if err == nil && learn {
		l.learnContent(x, ti, parse)
	}
	// Checked after the request: if the run stopped while it was in flight, say so.
	res.AfterStop = l.stopped.Load()
	return endOffset
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

// sleepUntil waits until offset from the start of the run; false means the run stopped first.
func (l *Loader) sleepUntil(offset time.Duration) bool {
	if wait := offset - time.Since(l.start); wait > 0 {
		l.pause(wait)
	}
	return !l.stopped.Load()
}

// batcher collects one goroutine's results and hands them to the collector when the batch is
// full or has waited FlushInterval, so the sink sees fresh results without a send per request.
type batcher struct {
	l   *Loader
	out chan<- *[]Result
	// batch is taken from the pool with the first result after a hand-over, not before: a user
	// waiting for its first answer, or its next after handing results over, holds none (at
	// 10 000 users a batch is 6 results, 384 bytes; see batchSize).
	batch     *[]Result
	lastFlush time.Duration // offset from the run's start
	every     time.Duration
}

func (l *Loader) newBatcher(out chan<- *[]Result) *batcher {
	return &batcher{l: l, out: out, lastFlush: time.Since(l.start), every: l.cfg.flushInterval()}
}

// add takes a result that ended at offset end from the run's start.
func (b *batcher) add(res Result, end time.Duration) {
	if b.batch == nil {
		b.batch = b.l.batches.Get().(*[]Result)
	}
	*b.batch = append(*b.batch, res)
	if len(*b.batch) == cap(*b.batch) || end-b.lastFlush >= b.every {
		b.out <- b.batch
		b.batch = nil
		b.lastFlush = end
	}
}

// close hands over what is left.
func (b *batcher) close() {
	if b.batch == nil {
		return
	}
	if len(*b.batch) > 0 {
		b.out <- b.batch
		return
	}
	b.l.batches.Put(b.batch)
}
