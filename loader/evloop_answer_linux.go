//go:build linux

package loader

import (
	"time"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/content"
)

// complete books the whole answer to u's request and starts its next one.
func (lp *loop) complete(u *loopUser) {
	l := lp.l
	end := time.Since(l.start)
	lp.due.remove(u)
	a := &u.ans
	res := lp.result(u, end)
	res.Status, res.HTTP10, res.BodyBytes, res.Decoded = uint16(a.status), a.http10, a.body, a.body
	if a.status == 101 && !u.req.upgrade {
		// No answer to a request that asked for no protocol switch, as checkStatus says on the
		// goroutine engine; the parser failed codes below 100 already.
		res.Status, res.BodyBytes, res.Decoded = 0, 0, 0
		res.Err = classify(errBadStatus)
		l.failed(res.Err, errBadStatus)
		lp.closeConn(u)
	} else {
		lp.finishBody(u, &res)
		if u.used = res.Err == ErrNone; !u.used || a.close {
			lp.closeConn(u)
		}
	}
	lp.b.add(res, end)
	lp.begin(u, end)
}

// loopMaxCoded is the most bytes of a body in a content coding the loop keeps to decode it
// once it is whole, and loopKeepBudget the most all of a loop's answers keep at once, samples
// for the content fingerprints included. The loop asks for no coding, so only a server that
// applies one unasked sends them; a body past either bound is counted as received, not
// decoded, and a sample past the budget is not taken.
const (
	loopMaxCoded   = 64 << 20
	loopKeepBudget = 256 << 20
)

// keepFor is called when the final head of u's answer is whole: it books the answer with the
// content fingerprints (status and type) and says how many bytes of the body to keep, 0 for
// none: the start of a sample they asked for, or the whole of a body to decode.
func (lp *loop) keepFor(u *loopUser) int {
	l, a := lp.l, &u.ans
	u.sample, u.coded = false, codingOf(a.cenc).compressed()
	if u.ti < len(l.content.of) && (a.status != 101 || u.req.upgrade) {
		u.sample = l.content.learner(u.ti).Sample(a.status, a.ctype)
	}
	switch {
	case u.coded:
		return loopMaxCoded
	case u.sample:
		return content.MaxBody
	}
	return 0
}

// finishBody decodes the kept body of u's whole answer and hands a sample to the content
// fingerprints, as the goroutine engine does as it reads the body; res gets the decoded size,
// or the failure of a body that does not decode.
func (lp *loop) finishBody(u *loopUser, res *Result) {
	a := &u.ans
	if !u.sample && !u.coded || a.starved {
		return
	}
	page := a.kept
	if u.coded && a.keptAll {
		b := &lp.body
		rd := b.begin()
		defer b.end()
		rd.mem.Reset(a.kept)
		rd.counted = counter{r: &rd.mem}
		if lp.l.cfg.Timeout > 0 {
			b.deadline = lp.l.start.Add(u.start + lp.l.cfg.Timeout)
		}
		size, err := b.decode(a.cenc, u.sample)
		if err != nil {
			// As the goroutine engine counts a body that stops decoding: what the decoder read.
			b.release()
			res.BodyBytes, res.Decoded = rd.counted.n, size.decoded
			res.Err = classify(err)
			lp.l.failed(res.Err, err)
			return
		}
		res.Decoded = size.decoded
		if b.maxBody > 0 && res.Decoded > b.maxBody {
			res.Decoded = b.maxBody
		}
		page = b.page
		defer b.release()
	} else if u.coded {
		return // too long to keep: counted as received, and no sample of bytes not decoded
	}
	if u.sample {
		s := lp.l.content.scanners.Get().(*content.Scanner)
		lp.l.content.learner(u.ti).Observe(s, page)
		lp.l.content.scanners.Put(s)
	}
}

// fail books u's request as failed with err, or sends it again on a new connection where the
// goroutine engine would: a kept-alive connection closed or reset before any byte of answer,
// for an idempotent request, with time left.
func (lp *loop) fail(u *loopUser, err error) {
	l := lp.l
	kind := classify(err)
	wasUsed := u.used
	lp.closeConn(u)
	if (kind == ErrClosed || kind == ErrReset) && wasUsed && !u.ans.started() && !u.resent &&
		u.req.idempotent && (l.cfg.Timeout <= 0 || u.deadline > time.Since(l.start)) {
		u.resent = true
		lp.send(u)
		return
	}
	lp.book(u, kind, err)
}

// book books u's request as failed with err, of kind, and begins its next one.
func (lp *loop) book(u *loopUser, kind ErrKind, err error) {
	l := lp.l
	lp.closeConn(u)
	end := time.Since(l.start)
	lp.due.remove(u)
	res := lp.result(u, end)
	res.Err = kind
	if a := &u.ans; a.headDone() && a.status >= 100 {
		// A response whose body failed keeps its status; what arrived of the body counts nowhere.
		res.Status, res.HTTP10, res.BodyBytes, res.Decoded = uint16(a.status), a.http10, a.body, a.body
	}
	l.failed(kind, err)
	lp.b.add(res, end)
	lp.begin(u, end)
}

// result describes u's request, ended at end, as far as every request is described: what the
// answer says is the caller's.
func (lp *loop) result(u *loopUser, end time.Duration) Result {
	res := Result{Start: u.start, Intended: u.start, Latency: end - u.start, Target: int32(u.ti), User: u.me,
		Resent: u.resent, AfterStop: lp.l.stopped.Load()}
	if lp.arr != nil {
		res.Intended, res.Queued, res.Arrival = u.intended, u.arrivalQueue, true
	}
	return res
}

// expire fails the requests whose time is up; they are not sent again.
func (lp *loop) expire() {
	if lp.due.head == nil {
		return
	}
	now := time.Since(lp.l.start)
	for u := lp.due.head; u != nil && u.deadline <= now; u = lp.due.head {
		lp.due.remove(u)
		var err error = fasthttp.ErrTimeout
		if u.connecting {
			err = fasthttp.ErrDialTimeout
		}
		lp.book(u, ErrTimeout, err)
	}
}

// abandon ends every user when the loop itself failed (its epoll wait did), and stops the run:
// the requests in flight are closed unbooked, and the failure's sample says why.
func (lp *loop) abandon(err error) {
	for _, u := range lp.users {
		lp.closeConn(u)
		if !u.finished && !u.idle {
			lp.l.active.Add(-1)
		}
	}
	lp.l.failed(ErrOther, err)
	lp.l.stop(Interrupted)
	lp.left = 0
	if lp.arr != nil {
		lp.arr.stop(lp.l)
		lp.arr.busy = 0
	}
}
