package loader

import (
	"container/list"
	"sync"
	"sync/atomic"
	"time"
)

// visitorQueue is how many arrivals of one visitor may wait for it before the dispatcher
// itself waits: a visitor's requests are sent one after the other, as its browser sent them.
const visitorQueue = 8

// maxIdleVisitors is how many visitors with nothing to send keep their cookies. A log's
// visitors come and go; the most recently seen are kept, so memory does not grow with the log.
const maxIdleVisitors = 50_000

// guest is one visitor of a Schedule: its cookies (in v) and the arrivals waiting for it.
type guest struct {
	key  string
	v    *visitor // nil when requests are plain (no cookies, redirects or pages)
	jobs chan job // nil while idle
	// pending counts the arrivals handed to it and not yet served, under guests.mu: at 0 it
	// leaves its user, which may then serve another visitor.
	pending int
	idle    *list.Element // its place among the idle, nil while it has arrivals
}

// guests are a schedule's visitors: those with arrivals to serve, and the idle ones kept
// for their cookies, least recently active first.
type guests struct {
	mu       sync.Mutex
	active   map[string]*guest
	idle     map[string]*guest
	order    list.List
	maxIdle  int
	stranded atomic.Int64 // arrivals a user took after the run stopped, not sent
}

func newGuests(maxIdle int) *guests {
	return &guests{active: map[string]*guest{}, idle: map[string]*guest{}, maxIdle: maxIdle}
}

// take counts one more arrival for the visitor key. fresh says the visitor had none waiting:
// it needs a user to serve it.
func (gs *guests) take(key string) (g *guest, fresh bool) {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if g := gs.active[key]; g != nil {
		g.pending++
		return g, false
	}
	if g = gs.idle[key]; g != nil {
		delete(gs.idle, key)
		gs.order.Remove(g.idle)
		g.idle = nil
	} else {
		g = &guest{key: key}
	}
	g.jobs, g.pending = make(chan job, visitorQueue), 1
	gs.active[key] = g
	return g, true
}

// served counts an arrival of g as served. When it was g's last, g leaves its user (unbind
// runs under the lock, before another user can take g) and true is returned.
func (gs *guests) served(g *guest, unbind func(*guest)) bool {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if g.pending--; g.pending > 0 {
		return false
	}
	unbind(g)
	delete(gs.active, g.key)
	g.jobs = nil
	g.idle = gs.order.PushBack(g)
	gs.idle[g.key] = g
	if len(gs.idle) > gs.maxIdle {
		old := gs.order.Remove(gs.order.Front()).(*guest)
		delete(gs.idle, old.key)
	}
	return true
}

// waiting counts the arrivals still queued for visitors once every user has stopped.
func (gs *guests) waiting() int64 {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	var n int64
	for _, g := range gs.active {
		n += int64(len(g.jobs))
	}
	return n
}

// runSchedule is the open model with arrivals from l.schedule: one dispatcher takes each at its
// due time and hands it to its visitor. A visitor that has arrivals waiting is served by one
// user, its arrivals in their order; a request due while its visitor is busy waits (queued), and
// its wait counts in its response time, which runs from the due time. A visitor with nothing
// waiting needs a user: an idle one, a new one up to MaxUsers, or else the first to be free,
// which the dispatcher waits for (its lateness, told to the schedule). Arrivals left when the run
// stops, due before the stop, are counted as unsent. It returns the users started and the unsent.
func (l *Loader) runSchedule(out chan<- *[]Result) (users int, unsent int64) {
	gs := newGuests(maxIdleVisitors)
	var cache *resourceCache
	if l.cfg.Parser && !l.cfg.NoCache {
		cache = newResourceCache(maxCachedResources)
	}
	tasks := make(chan *guest)
	var workers sync.WaitGroup
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		a, ok := l.schedule.Next()
		if !ok {
			break
		}
		if l.cfg.Duration > 0 && a.Due >= l.cfg.Duration {
			break // exact at the end: the timer that stops the run may fire a little late
		}
		if !l.waitUntil(a.Due, timer) {
			unsent += l.scheduleUnsent(a)
			break
		}
		j := job{target: a.Target, intended: a.Due}
		counted := false // a is among the unsent
		g, fresh := gs.take(a.Visitor)
		switch {
		case !fresh:
			j.queued = true // behind its visitor's earlier requests
			select {
			case g.jobs <- j:
			case <-l.stopCh:
				unsent, counted = unsent+l.scheduleUnsent(a), true
			}
		case handOver(g, tasks):
		case users < l.cfg.MaxUsers:
			id := users
			users++
			workers.Go(func() { l.guestWorker(id, g, tasks, gs, cache, out) })
		default:
			j.queued = true // every user is busy: it waits for the first free
			select {
			case tasks <- g:
			case <-l.stopCh:
				unsent, counted = unsent+l.scheduleUnsent(a), true
			}
		}
		if fresh && !counted {
			g.jobs <- j // never blocks: a fresh visitor's queue is empty
		}
		if l.stopped.Load() {
			if !counted {
				if next, ok := l.schedule.Next(); ok {
					unsent += l.scheduleUnsent(next)
				}
			}
			break
		}
		l.schedule.Dispatched(time.Since(l.start) - a.Due)
	}
	close(tasks)
	workers.Wait()
	return users, unsent + gs.waiting() + gs.stranded.Load()
}

// handOver gives visitor g to an idle user, if one is waiting.
func handOver(g *guest, tasks chan<- *guest) bool {
	select {
	case tasks <- g:
		return true
	default:
		return false
	}
}

// scheduleUnsent counts a, which the dispatcher held when the run stopped, and the arrivals
// after it, that were due before the stop. The walk is short: it ends at the stop's moment.
func (l *Loader) scheduleUnsent(a Arrival) int64 {
	stopAt := l.scheduleStop()
	var n int64
	for ok := true; ok && a.Due < stopAt; a, ok = l.schedule.Next() {
		n++
	}
	return n
}

// guestWorker is one user of a schedule: it serves the visitors it is handed, first the first,
// until there are none or the run stops.
func (l *Loader) guestWorker(id int, first *guest, tasks <-chan *guest, gs *guests, cache *resourceCache, out chan<- *[]Result) {
	x, b, done := l.sender(out)
	defer done()
	for g, ok := first, true; ok; g, ok = <-tasks {
		if !l.serveGuest(id, x, b, g, gs, cache) {
			return
		}
	}
}

// serveGuest sends g's arrivals as user id until g has none left; false when the run stopped.
func (l *Loader) serveGuest(id int, x *exchange, b *batcher, g *guest, gs *guests, cache *resourceCache) bool {
	if g.v == nil {
		g.v = l.newVisitor(x, id, cache)
	}
	if g.v != nil {
		g.v.x, g.v.id, x.jar = x, id, g.v.cookies
	}
	unbind := func(g *guest) {
		if g.v != nil {
			g.v.release() // its resource fetchers' exchanges; made again at its next page
			g.v.x, x.jar = nil, nil
		}
	}
	for {
		var j job
		select {
		case j = <-g.jobs:
		case <-l.stopCh:
			return false
		}
		if l.stopped.Load() {
			gs.stranded.Add(1)
			return false
		}
		l.active.Add(1)
		if g.v != nil {
			g.v.visit(j.target, &j, b)
		} else {
			res, end := l.send(x, j.target, id)
			res.Intended, res.Queued, res.Arrival = j.intended, j.queued, true
			b.add(res, end)
		}
		l.active.Add(-1)
		if gs.served(g, unbind) {
			return true
		}
	}
}
