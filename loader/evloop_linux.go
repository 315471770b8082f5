//go:build linux

package loader

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/valyala/fasthttp"
	"golang.org/x/sys/unix"
)

// loopReadBuffer is what each loop reads answers into. Bodies are counted and dropped, so one
// buffer serves all of a loop's connections; a head that spans reads is kept by its answer.
const loopReadBuffer = 64 << 10

// runLoops runs the closed model's users on event loops (see loopsFor for how many). It
// returns false, having sent nothing, when the run is not loopable or a loop cannot start: the
// goroutine engine then runs it.
func (l *Loader) runLoops(results chan<- *[]Result) bool {
	if !l.loopable() {
		return false
	}
	w, ok := l.newLoopWire(lookupIPv4)
	if !ok || !w.oneAddr() {
		return false
	}
	lo, hi := l.cfg.shardUsers()
	if hi <= lo {
		return false
	}
	loops, ok := l.newLoops(w, min(loopsFor(runtime.GOMAXPROCS(0)), hi-lo), results)
	if !ok {
		return false
	}
	for id := lo; id < hi; id++ {
		rng := rand.New(rand.NewPCG(l.cfg.Seed, uint64(id)))
		p := planFor(&l.cfg, id, len(l.targets), rng, l.mix, false)
		lp := loops[(id-lo)%len(loops)]
		lp.users = append(lp.users, &loopUser{me: int32(id - lo), plan: p, fd: -1})
	}
	var wg sync.WaitGroup
	for _, lp := range loops {
		wg.Go(lp.run)
	}
	wg.Wait()
	return true
}

// newLoops makes n loops over w's requests, each with its epoll set; false when one cannot be
// made (none is then left open).
func (l *Loader) newLoops(w *loopWire, n int, results chan<- *[]Result) ([]*loop, bool) {
	loops := make([]*loop, n)
	for i := range loops {
		ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
		if err != nil {
			closeLoops(loops[:i])
			return nil, false
		}
		loops[i] = &loop{l: l, w: w, ep: ep, out: results, buf: make([]byte, loopReadBuffer),
			events: make([]unix.EpollEvent, 256), maxHead: l.cfg.headerBuffer(), noPwait2: l.cfg.noPwait2}
	}
	return loops, true
}

// closeLoops closes the epoll sets of loops that will not run.
func closeLoops(loops []*loop) {
	for _, lp := range loops {
		unix.Close(lp.ep)
	}
}

// loopsFor is how many event loops a run gets when it may use cpus: half of them, at least one.
// A request's CPU is mostly the kernel's (its TCP stack runs for the loop's reads and writes),
// and loops that each wait on fewer connections wait more often: on 2 CPUs with nginx beside,
// one loop took 11 µs of client CPU a request where two took 13 to 16, at the same rate.
func loopsFor(cpus int) int { return max(1, cpus/2) }

// lookupIPv4 is the first IPv4 address of host, as fasthttp's dialer takes for names.
func lookupIPv4(host string) (netip.Addr, bool) {
	ips, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip4", host)
	if err != nil || len(ips) == 0 {
		return netip.Addr{}, false
	}
	return ips[0], true
}

// loop is one event loop: its users, and the connections they wait on. Only its goroutine
// touches it.
type loop struct {
	l       *Loader
	w       *loopWire
	lay     wireLayout
	ep      int
	users   []*loopUser // an event names its user by index
	events  []unix.EpollEvent
	buf     []byte
	out     chan<- *[]Result
	b       *batcher
	due     dueList
	ready   []*loopUser // users whose next request is to be sent
	left    int         // users not finished
	maxHead int
	body    body // decodes the bodies a server coded unasked
	// keepBudget is what the users' answers may still keep (see loopKeepBudget).
	keepBudget int
	// arr is the loop's share of the open model's schedule; nil in the closed model, whose
	// users each follow a plan.
	arr *arrivals
	// noPwait2 is set when epoll_pwait2 is missing or refused (see wait).
	noPwait2 bool
}

// loopUser is a user of an event loop: its plan, its connection and the request in flight.
type loopUser struct {
	me   int32 // the user's number in the results
	ix   int32 // its index in loop.users
	gen  int32 // counts its connections: an event of an earlier one is stale
	plan plan
	made int
	fd   int  // -1 without a connection
	used bool // the connection carried an answer: a later request is on a kept-alive one
	// connecting is set until a new connection is made; writing until the request is written.
	connecting, writing bool
	ti                  int
	req                 wireRequest   // the request in flight
	own                 []byte        // its head when laid out for it, not kept per target
	wrote               int           // bytes of it written
	start, deadline     time.Duration // from the run's start
	resent              bool
	// writeErr is why writing the request failed: the server stopped reading, maybe after
	// answering early, so its answer is still read.
	writeErr error
	ans      h1Answer
	// sample is set when the content fingerprints take the answer's body, coded when the
	// server applied a content coding to it, which is undone to count it as the goroutine
	// engine does.
	sample, coded bool
	prev          *loopUser
	next          *loopUser
	queued        bool // in the loop's due list
	// ready is set while the user is in the loop's ready list: a request that times out before
	// it was sent begins the next one there, without a second place in the list.
	ready    bool
	finished bool
	// input is set when the connection's events told of input not read yet, hup when they told
	// that the server closed it or it failed: both are looked at once the request is written.
	input, hup bool
	// In the open model: the arrival the request serves (its time in the schedule, and whether
	// it found every user busy), and whether the user waits for an arrival, its connection
	// kept open for it.
	intended     time.Duration
	arrivalQueue bool
	idle         bool
}

func (lp *loop) run() {
	l := lp.l
	defer unix.Close(lp.ep)
	lp.b = l.newBatcher(lp.out)
	defer lp.b.close()
	lp.body = body{maxBody: l.cfg.MaxBody, pages: &l.pages, dec: &l.decoders}
	lp.keepBudget = loopKeepBudget
	lp.left = len(lp.users)
	for i, u := range lp.users {
		lp.add(u, i)
		l.active.Add(1)
		lp.begin(u, time.Since(l.start))
	}
	for lp.more() {
		if lp.arr != nil {
			if lp.dispatch(); !lp.more() {
				break
			}
		}
		lp.sendReady()
		n, err := lp.wait()
		if err != nil && !errors.Is(err, unix.EINTR) {
			lp.abandon(fmt.Errorf("waiting for the connections: %w", err))
			return
		}
		for _, ev := range lp.events[:max(n, 0)] {
			if u := lp.users[ev.Fd]; u.gen == ev.Pad {
				lp.handle(u, ev.Events)
			}
		}
		lp.expire()
	}
	for _, u := range lp.users {
		lp.closeConn(u) // the open model's idle users keep theirs to the end
	}
}

// add readies u, the loop's user at index ix (by which an event names it), for its requests.
func (lp *loop) add(u *loopUser, ix int) {
	u.ix = int32(ix)
	u.ans.keepFor = func() int { return lp.keepFor(u) }
	u.ans.budget = &lp.keepBudget
}

// more tells whether the loop has work left: users whose plans go on, or arrivals to come and
// requests in flight.
func (lp *loop) more() bool {
	if lp.arr != nil {
		return !lp.arr.done || lp.arr.busy > 0
	}
	return lp.left > 0
}

// sendReady sends the requests begun since the last round. Those begun meanwhile (after a
// failure found at once, such as a refused connection) wait for the next round, so that a
// user failing without end does not keep the loop from the others' answers.
func (lp *loop) sendReady() {
	n := len(lp.ready)
	for i := 0; i < n; i++ {
		u := lp.ready[i]
		if u.ready = false; !u.finished {
			lp.send(u)
		}
	}
	lp.ready = lp.ready[:copy(lp.ready, lp.ready[n:])]
}

// wait waits for events until the first deadline or the next arrival, at most a second, and
// not at all when requests are ready to send.
func (lp *loop) wait() (int, error) {
	wait := time.Second
	now := time.Since(lp.l.start)
	if lp.due.head != nil {
		wait = min(wait, lp.due.head.deadline-now)
	}
	if a := lp.arr; a != nil && !a.done && !a.stalled {
		wait = min(wait, a.next-now)
	}
	if len(lp.ready) > 0 || wait < 0 {
		wait = 0
	}
	if !lp.noPwait2 {
		n, err := epollPwait2(lp.ep, lp.events, wait)
		if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
			return n, err
		}
		lp.noPwait2 = true
	}
	// Before Linux 5.11, or where a seccomp filter that predates epoll_pwait2 refuses it (with
	// ENOSYS, or EPERM in older container runtimes), the wait is in milliseconds: an arrival
	// may go up to one late, which counts in its response time.
	return unix.EpollWait(lp.ep, lp.events, int((wait+time.Millisecond-1)/time.Millisecond))
}

// epollPwait2 is epoll_pwait2(2), an epoll wait whose timeout is in nanoseconds: an arrival
// of the open model goes when it is due, not at the next millisecond.
func epollPwait2(ep int, events []unix.EpollEvent, timeout time.Duration) (int, error) {
	ts := unix.NsecToTimespec(int64(timeout))
	n, _, errno := unix.Syscall6(unix.SYS_EPOLL_PWAIT2, uintptr(ep), uintptr(unsafe.Pointer(&events[0])),
		uintptr(len(events)), uintptr(unsafe.Pointer(&ts)), 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// begin starts the user's next request at now, or ends the user when its plan is done or the
// run stopped.
func (lp *loop) begin(u *loopUser, now time.Duration) {
	l := lp.l
	if lp.arr != nil {
		lp.free(u)
		return
	}
	if l.stopped.Load() || (u.plan.reps >= 0 && u.made >= u.plan.reps) {
		lp.closeConn(u)
		u.finished = true
		l.active.Add(-1)
		lp.left--
		return
	}
	u.made++
	lp.start(u, u.plan.picker.Next(), now)
}

// start begins u's request to target ti at now: it is sent with the loop's next round.
func (lp *loop) start(u *loopUser, ti int, now time.Duration) {
	l := lp.l
	u.ti = ti
	if u.req = lp.w.wire(u.ti, &lp.lay); lp.w.kept == nil {
		u.own = append(u.own[:0], u.req.head...) // the layout is the loop's, reused by the next user
		u.req.head = u.own
	}
	u.start, u.resent = now, false
	if l.cfg.Timeout > 0 {
		u.deadline = now + l.cfg.Timeout
		lp.due.push(u)
	}
	if !u.ready {
		u.ready = true
		lp.ready = append(lp.ready, u)
	}
}

// send writes the request, on a new connection when the user has none.
func (lp *loop) send(u *loopUser) {
	u.wrote, u.writing, u.writeErr = 0, true, nil
	u.ans.reset(u.req.isHead, lp.maxHead, lp.l.cfg.MaxBody)
	if u.fd < 0 {
		if err := lp.dial(u); err != nil {
			lp.fail(u, err)
		}
		return // the connection's first event writes the request
	}
	lp.write(u)
}

// dial opens the user's connection without waiting for it.
func (lp *loop) dial(u *loopUser) error {
	a := lp.w.addrs[u.ti]
	var sa unix.Sockaddr
	family := unix.AF_INET
	if a.Addr().Is4() {
		sa = &unix.SockaddrInet4{Port: int(a.Port()), Addr: a.Addr().As4()}
	} else {
		family = unix.AF_INET6
		sa = &unix.SockaddrInet6{Port: int(a.Port()), Addr: a.Addr().As16()}
	}
	fd, err := unix.Socket(family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return dialError(a, os.NewSyscallError("socket", err))
	}
	// As Go's own dialer: each request is one write, and must not wait for the last one's ACK.
	_ = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
	if err := unix.Connect(fd, sa); err != nil && !errors.Is(err, unix.EINPROGRESS) {
		unix.Close(fd)
		return dialError(a, os.NewSyscallError("connect", err))
	}
	// Edge-triggered: an event says something changed, and the handler reads until the answer
	// is whole or the socket is drained.
	u.gen++
	ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLOUT | unix.EPOLLRDHUP | unix.EPOLLET, Fd: u.ix, Pad: u.gen}
	if err := unix.EpollCtl(lp.ep, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
		unix.Close(fd)
		return dialError(a, os.NewSyscallError("epoll_ctl", err))
	}
	u.fd, u.connecting, u.used = fd, true, false
	return nil
}

// dialError is err as the goroutine engine's dialer words it.
func dialError(a netip.AddrPort, err error) error {
	return &net.OpError{Op: "dial", Net: "tcp", Addr: net.TCPAddrFromAddrPort(a), Err: err}
}

// handle acts on the events of u's connection.
func (lp *loop) handle(u *loopUser, events uint32) {
	if u.fd < 0 {
		return // closed earlier in this round
	}
	// Edge-triggered: what an event says is not said again. Input that is not read now is
	// read once the request is written (see write).
	if events&(unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLHUP|unix.EPOLLERR) != 0 {
		u.input = true
	}
	if events&(unix.EPOLLRDHUP|unix.EPOLLHUP|unix.EPOLLERR) != 0 {
		u.hup = true
	}
	if u.idle {
		// A server that closed an idle connection is found out by the next request sent on
		// it, which goes again on a new one: counted as resent, as the goroutine engine does.
		return
	}
	if u.connecting {
		if events&(unix.EPOLLOUT|unix.EPOLLERR|unix.EPOLLHUP) == 0 {
			return
		}
		if code, err := unix.GetsockoptInt(u.fd, unix.SOL_SOCKET, unix.SO_ERROR); err != nil || code != 0 {
			if err == nil {
				err = unix.Errno(code)
			}
			lp.fail(u, dialError(lp.w.addrs[u.ti], os.NewSyscallError("connect", err)))
			return
		}
		u.connecting = false
		lp.l.conns.opened.Add(1)
		lp.write(u)
		return
	}
	if u.writing {
		if events&unix.EPOLLOUT != 0 {
			lp.write(u)
		}
		return
	}
	if u.input {
		lp.read(u)
	}
}

// write writes what is left of the request, and waits for the socket to take more when it is
// full.
func (lp *loop) write(u *loopUser) {
	for total := len(u.req.head) + len(u.req.body); u.wrote < total; {
		var n int
		var err error
		switch head := u.req.head; {
		case u.wrote >= len(head):
			n, err = rawWrite(u.fd, u.req.body[u.wrote-len(head):])
		case len(u.req.body) == 0:
			n, err = rawWrite(u.fd, head[u.wrote:])
		default:
			n, err = unix.Writev(u.fd, [][]byte{head[u.wrote:], u.req.body})
		}
		if n > 0 {
			u.wrote += n
			lp.l.conns.bytesOut.Add(int64(n))
		}
		switch {
		case err == nil:
		case errors.Is(err, unix.EAGAIN):
			return // EPOLLOUT says when it takes more
		case errors.Is(err, unix.EINTR):
		case errors.Is(err, unix.EPIPE), errors.Is(err, unix.ECONNRESET):
			// The server stopped reading, perhaps after answering early (a 413 to a body too
			// large): its answer decides, and without one the write's error does.
			u.writeErr = fmt.Errorf("writing the request: %w", os.NewSyscallError("write", err))
			u.wrote = total
		default:
			lp.fail(u, fmt.Errorf("writing the request: %w", os.NewSyscallError("write", err)))
			return
		}
	}
	u.writing = false
	// Input whose event came before the request was whole (an early 413, the server closing a
	// kept-alive connection, bytes left past the last answer) is read now, as its edge has
	// passed; otherwise the answer's own event says when to read, which spares a read that
	// would find nothing.
	if u.input || u.hup || u.writeErr != nil {
		lp.read(u)
	}
}

// read reads what the connection has of the answer, until it is whole or the socket is empty.
func (lp *loop) read(u *loopUser) {
	u.input = false
	for {
		n, err := rawRead(u.fd, lp.buf)
		switch {
		case errors.Is(err, unix.EAGAIN):
			return
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			lp.fail(u, lp.noAnswer(u, os.NewSyscallError("read", err)))
			return
		case n == 0:
			done, err := u.ans.closed()
			if err != nil {
				lp.fail(u, lp.noAnswer(u, err))
				return
			}
			if done {
				lp.closeConn(u)
				lp.complete(u)
			}
			return
		}
		lp.l.conns.bytesIn.Add(int64(n))
		p := lp.buf[:n]
		used, done, err := u.ans.feed(p)
		if err != nil {
			lp.fail(u, err)
			return
		}
		if done {
			// Bytes read past the answer are dropped, as fasthttp drops what its buffer holds
			// past one: the connection carries the next request all the same. The socket may
			// hold more of them (or a full buffer more of anything): looked at once the next
			// request is written.
			u.input = used < n || n == len(lp.buf)
			lp.complete(u)
			return
		}
	}
}

// noAnswer is why u's request failed when reading its answer failed with err: fasthttp's
// closed connection when no byte of answer came (resets included), or the failed write's
// error, as the goroutine engine reports them.
func (lp *loop) noAnswer(u *loopUser, err error) error {
	switch {
	case u.ans.started():
		return err
	case u.writeErr != nil:
		return u.writeErr
	}
	return fasthttp.ErrConnectionClosed
}

// closeConn closes u's connection, which takes it out of the loop's epoll set.
func (lp *loop) closeConn(u *loopUser) {
	if u.fd >= 0 {
		unix.Close(u.fd)
		u.fd, u.used, u.connecting, u.input, u.hup = -1, false, false, false, false
	}
}
