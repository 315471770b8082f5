//go:build linux

package loader

import (
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// runOpenLoops runs the open model on event loops, as runOpen does with goroutines: each
// arrival of the schedule goes to an idle user when it is due, to a new user while there may
// be more, or else waits, keeping its time, for the first user to free. A waiting user is a
// connection and about a kilobyte, not a goroutine. ok is false, having sent nothing, when
// the run is not loopable or a loop cannot start.
func (l *Loader) runOpenLoops(results chan<- *[]Result) (users int, unsent int64, ok bool) {
	if !l.loopable() {
		return 0, 0, false
	}
	w, ok := l.newLoopWire(lookupIPv4)
	if !ok {
		return 0, 0, false
	}
	loops, ok := l.newLoops(w, min(loopsFor(runtime.GOMAXPROCS(0)), l.cfg.MaxUsers), results)
	if !ok {
		return 0, 0, false
	}
	var ids atomic.Int32 // users are numbered in the order they start, across the loops
	for k, lp := range loops {
		lp.arr = newArrivals(l, w, k, len(loops), &ids)
	}
	var wg sync.WaitGroup
	for _, lp := range loops {
		wg.Go(lp.run)
	}
	wg.Wait()
	for _, lp := range loops {
		users += len(lp.users)
		unsent += lp.arr.unsent
	}
	return users, unsent, true
}

// arrivals is loop k's share of the open model's schedule, of n loops: every n-th arrival the
// shard owns, from its k-th, and as many of the users.
type arrivals struct {
	cfg      *Config
	pacer    Rate
	picker   Picker // the whole schedule's: every loop walks it all, so targets are as runOpen's
	total    int64  // arrivals in the schedule; -1 while the run lasts
	i        int64  // the schedule's next arrival not yet taken
	o        int64  // the shard's arrivals before i
	k, n     int64
	maxUsers int
	ids      *atomic.Int32 // the next user's number
	// idle holds the idle users by the address of their connections (addrOf a target's), as
	// the goroutine engine's pool keeps connections per host; idlers counts them.
	idle   [][]*loopUser
	idlers int
	addrOf []int
	busy   int
	// pending is the arrival taken from the schedule while every user was busy (stalled): the
	// first user to free serves it, and later arrivals wait behind it. pendingO is its place
	// among the shard's arrivals.
	pending  job
	pendingO int64
	stalled  bool
	done     bool          // no more arrivals: the schedule ended or the run stopped
	unsent   int64         // arrivals due before the run stopped that no user took
	next     time.Duration // when the next arrival is due, while not stalled or done
}

func newArrivals(l *Loader, w *loopWire, k, n int, ids *atomic.Int32) *arrivals {
	a := &arrivals{cfg: &l.cfg, pacer: Rate{PerSecond: l.cfg.Rate, Ramp: l.cfg.Ramp},
		picker: openPicker(&l.cfg, len(l.targets), l.mix), total: l.openTotal(), k: int64(k), n: int64(n),
		maxUsers: l.cfg.MaxUsers / n, ids: ids}
	if k < l.cfg.MaxUsers%n {
		a.maxUsers++
	}
	seen := map[netip.AddrPort]int{}
	a.addrOf = make([]int, len(w.addrs))
	for ti, addr := range w.addrs {
		ai, ok := seen[addr]
		if !ok {
			ai = len(seen)
			seen[addr] = ai
		}
		a.addrOf[ti] = ai
	}
	a.idle = make([][]*loopUser, len(seen))
	return a
}

// seek moves to the loop's next arrival in the schedule, moving the picker past the others';
// false when the schedule has no more.
func (a *arrivals) seek() bool {
	for a.total < 0 || a.i < a.total {
		if a.cfg.ownsRequest(a.i) {
			if a.o%a.n == a.k {
				return true
			}
			a.o++
		}
		a.picker.Next()
		a.i++
	}
	return false
}

// mine counts the loop's arrivals among the shard's first o.
func (a *arrivals) mine(o int64) int64 {
	if o <= a.k {
		return 0
	}
	return (o - a.k + a.n - 1) / a.n
}

// stop ends the loop's arrivals when the run stopped: those due before it that no user took,
// the stalled one among them, are unsent, counted as runOpen's countUnsent counts them.
func (a *arrivals) stop(l *Loader) {
	if a.done {
		return
	}
	from := a.o
	if a.stalled {
		from = a.pendingO
	}
	end := l.dueBeforeStop(a.pacer, a.total)
	a.unsent = max(0, a.mine(ownedBefore(a.cfg, end))-a.mine(from))
	a.done, a.stalled = true, false
}

// dispatch hands each arrival that is due to a user: an idle one, else a new one while the
// loop may start more. An arrival due while every user is busy is pending (queued): the first
// user to free serves it, and the schedule waits behind it, as runOpen's dispatcher does.
func (lp *loop) dispatch() {
	a, l := lp.arr, lp.l
	for !a.done {
		if l.stopped.Load() {
			a.stop(l)
			return
		}
		if !a.stalled {
			if !a.seek() {
				a.done = true
				return
			}
			due := a.pacer.Due(a.i)
			if l.cfg.Duration > 0 && due >= l.cfg.Duration {
				a.done = true // exact at the end: the timer that stops the run may fire late
				return
			}
			if due > time.Since(l.start) {
				a.next = due
				return
			}
			a.pending, a.pendingO = job{target: a.picker.Next(), intended: due}, a.o
			a.i++
			a.o++
		}
		u := lp.freeUser(a.pending.target)
		if u == nil {
			a.stalled, a.pending.queued = true, true
			return
		}
		a.stalled = false
		a.busy++
		l.active.Add(1)
		u.idle, u.intended, u.arrivalQueue = false, a.pending.intended, a.pending.queued
		lp.start(u, a.pending.target, time.Since(l.start))
	}
}

// freeUser is a user for a request to target ti: an idle one with a connection to its address,
// the one freed last (its connection the likeliest still open), or a new one while the loop
// may start more, or else an idle one whose connection goes elsewhere and is closed; nil when
// every user is busy.
func (lp *loop) freeUser(ti int) *loopUser {
	a := lp.arr
	if u := a.popIdle(a.addrOf[ti]); u != nil {
		return u
	}
	if len(lp.users) >= a.maxUsers {
		if a.idlers == 0 {
			return nil
		}
		for ai := range a.idle {
			if u := a.popIdle(ai); u != nil {
				lp.closeConn(u)
				return u
			}
		}
		return nil
	}
	u := &loopUser{me: a.ids.Add(1) - 1, fd: -1}
	lp.users = append(lp.users, u)
	lp.add(u, len(lp.users)-1)
	return u
}

// popIdle takes the idle user freed last among those with a connection to address ai.
func (a *arrivals) popIdle(ai int) *loopUser {
	n := len(a.idle[ai])
	if n == 0 {
		return nil
	}
	u := a.idle[ai][n-1]
	a.idle[ai] = a.idle[ai][:n-1]
	a.idlers--
	return u
}

// free makes u idle when its arrival's request has ended; its connection stays open for the
// next arrival to the same address.
func (lp *loop) free(u *loopUser) {
	a := lp.arr
	a.busy--
	lp.l.active.Add(-1)
	u.idle = true
	ai := a.addrOf[u.ti]
	a.idle[ai] = append(a.idle[ai], u)
	a.idlers++
}
