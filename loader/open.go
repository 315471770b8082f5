package loader

import (
	"math/rand/v2"
	"sync"
	"time"
)

// job is one scheduled arrival of the open model: a request, or in a browser-like run a visit
// of a URL with its redirects and resources.
type job struct {
	target   int
	intended time.Duration
	queued   bool
}

// runOpen is the open model: one dispatcher starts requests at the pacer's times and hands each
// to an idle user, starting a new user when none is idle, up to MaxUsers. When all are busy the
// request waits for the first free one; it keeps its intended time, so the wait is part of its
// response time. Nothing is dropped while the run lasts; requests still waiting when it stops
// are counted as unsent. It returns the number of users started and of requests unsent.
func (l *Loader) runOpen(out chan<- *[]Result) (users int, unsent int64) {
	if users, unsent, ok := l.runOpenLoops(out); ok {
		return users, unsent
	}
	pacer := Rate{PerSecond: l.cfg.Rate, Ramp: l.cfg.Ramp}
	total := l.openTotal()
	picker := openPicker(&l.cfg, len(l.targets), l.mix)

	// The users share one cache (see resourceCache); only the dispatcher hands it out.
	var cache *resourceCache
	if l.cfg.Parser && !l.cfg.NoCache {
		cache = newResourceCache(maxCachedResources)
	}
	jobs := make(chan job)
	var workers sync.WaitGroup
	defer workers.Wait()
	defer close(jobs)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for i := int64(0); total < 0 || i < total; i++ {
		j := job{intended: pacer.Due(i)}
		if l.cfg.Duration > 0 && j.intended >= l.cfg.Duration {
			// Exact at the end: the timer that stops the run may fire a little late.
			return users, 0
		}
		if !l.cfg.ownsRequest(i) {
			picker.Next() // another shard's request: the schedule moves on all the same
			continue
		}
		if !l.waitUntil(j.intended, timer) {
			return users, l.countUnsent(pacer, i, total)
		}
		if l.stopped.Load() {
			return users, l.countUnsent(pacer, i, total)
		}
		j.target = picker.Next()
		select {
		case jobs <- j:
			continue
		default:
		}
		if users < l.cfg.MaxUsers {
			id := users
			users++
			workers.Go(func() { l.worker(id, j, jobs, cache, out) })
			continue
		}
		j.queued = true
		select {
		case jobs <- j:
		case <-l.stopCh:
			return users, l.countUnsent(pacer, i, total)
		}
	}
	return users, 0
}

// waitUntil sleeps until offset from the start of the run; false means the run stopped first.
// The Go runtime's timers can wake up to a millisecond late on an idle process (the poller's
// timeout has millisecond resolution), and that lateness would count in every response time,
// so the last stretch of each wait is a nanosleep, which the kernel ends within microseconds.
func (l *Loader) waitUntil(offset time.Duration, timer *time.Timer) bool {
	const fine = 2 * time.Millisecond
	wait := offset - time.Since(l.start)
	if wait > fine {
		timer.Reset(wait - fine)
		select {
		case <-timer.C:
		case <-l.stopCh:
			return false
		}
		wait = offset - time.Since(l.start)
	}
	if wait > 0 {
		nanosleep(wait)
	}
	return !l.stopped.Load()
}

// countUnsent counts the requests from i on that were due before the run stopped: they were
// scheduled but never found a free user (or the dispatcher was itself late). It is arithmetic,
// not a walk over the schedule, which at a trillion requests a second would outlast the run.
func (l *Loader) countUnsent(p Pacer, i, total int64) int64 {
	end := l.dueBeforeStop(p, total)
	if end <= i {
		return 0
	}
	return ownedBefore(&l.cfg, end) - ownedBefore(&l.cfg, i)
}

// dueBeforeStop is how many of the schedule's requests (total of them, -1 for no end) were due
// before the run stopped.
func (l *Loader) dueBeforeStop(p Pacer, total int64) int64 {
	end := p.Before(l.scheduleStop())
	if total >= 0 {
		end = min(end, total)
	}
	return end
}

// scheduleStop is when the run stopped, as a schedule counts what was due before it: no later
// than the run's Duration, as the timer that stops it may fire a little late.
func (l *Loader) scheduleStop() time.Duration {
	stopAt := l.stopOffset()
	if l.cfg.Duration > 0 {
		stopAt = min(stopAt, l.cfg.Duration)
	}
	return stopAt
}

// openTotal is how many requests the open model's schedule holds: every URL once, -r of them,
// or -1 for as many as the run lasts.
func (l *Loader) openTotal() int64 {
	switch {
	case l.cfg.Once:
		return int64(len(l.targets))
	case l.cfg.Reps > 0:
		return int64(l.cfg.Reps)
	}
	return -1
}

// ownedBefore counts the requests 0..n-1 of the schedule that are this shard's (see
// Config.ownsRequest): shard s of S owns s, s+S, s+2S...
func ownedBefore(c *Config, n int64) int64 {
	if c.Shards <= 1 {
		return n
	}
	s, shards := int64(c.Shard), int64(c.Shards)
	if n <= s {
		return 0
	}
	return (n-s-1)/shards + 1
}

// worker is one user of the open model: it sends the jobs it is handed until there are none.
// cache is the users' shared resource cache.
func (l *Loader) worker(id int, first job, jobs <-chan job, cache *resourceCache, out chan<- *[]Result) {
	x, b, done := l.sender(out)
	defer done()
	// The user keeps its session across the arrivals it serves.
	if l.users != nil {
		x.sess = l.workerSession(id)
	}
	v := l.newVisitor(x, id, cache)
	if v != nil {
		defer v.release()
	}
	// Each request's deepest call chain runs under this frame: what serving a job needs lives
	// in the frames of visit and serveJob, which are not on the stack together (see do).
	served := 0
	for j, ok := first, true; ok; j, ok = <-jobs {
		l.active.Add(1) // busy from here; waiting for the next job is idle
		if v != nil {
			v.visit(j.target, &j, b)
		} else {
			l.serveJob(x, j, id, served, b)
			served++
		}
		l.active.Add(-1)
	}
}

// workerSession makes the session of the open model's user id. Its row is numbered across the
// shards, which each number their users from 0.
func (l *Loader) workerSession(id int) *session {
	row := id*max(l.cfg.Shards, 1) + l.cfg.Shard
	return l.newSession(row, rand.New(rand.NewPCG(l.cfg.Seed, uint64(row))))
}

// serveJob makes job j's request as user id's served-th, without a visitor.
func (l *Loader) serveJob(x *exchange, j job, id, served int, b *batcher) {
	if x.sess != nil && l.reloginDue(served) {
		x.sess.reset()
	}
	res, end := l.send(x, j.target, id)
	res.Intended, res.Queued, res.Arrival = j.intended, j.queued, true
	b.add(res, end)
}
