package loader

import (
	"bufio"
	"bytes"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/urls"
)

// The event loop is a second engine for the bare path, on Linux: a run of plain HTTP/1.1
// requests whose answers need nothing but their figures, in the closed model or the open one.
// Its users are not goroutines but states of a few loops (see loopsFor), each of which waits on
// all of its connections at once (epoll) and answers each as its bytes arrive: no goroutine is
// parked or woken, and no request passes through the connection pool. On loopback that takes
// about two thirds of the goroutine engine's client CPU a request, about wrk's (see
// docs/speed.md). Runs that need anything more take the goroutine engine, which is why loopable
// is a list of what the loop does not do.

// loopable tells whether the run can go through the event loop: what it asks of an answer is
// its status, size, time and (for the content fingerprints) the body of a sample, nothing the
// user must remember or act on.
func (l *Loader) loopable() bool {
	c := &l.cfg
	switch {
	case c.noLoop, c.HTTP2, c.Proxy != "", len(c.Resolve) > 0, len(c.ConnectTo) > 0,
		// The open model's ramp is its pacer's; the closed model's starts users over time.
		l.schedule != nil, c.Ramp > 0 && !c.open(), c.Delay > 0,
		// Browser-like visits: cookies, redirects, resources, logins.
		c.browser(),
		// Answers the client would decode: the loop counts bodies as they come.
		c.AcceptEncoding != "",
		len(c.Checks) > 0, l.users != nil, c.probe:
		return false
	}
	for _, h := range c.Headers {
		if strings.EqualFold(h.Name, fasthttp.HeaderAcceptEncoding) {
			return false
		}
	}
	for i := range l.targets {
		t := &l.targets[i]
		if len(t.Checks) > 0 || len(t.Extracts) > 0 || t.URLVars != nil || t.BodyVars != nil ||
			!strings.HasPrefix(strings.ToLower(t.URL), "http://") {
			return false
		}
	}
	return true
}

// loopWire is what the loop sends for each target: the request's bytes as the goroutine engine
// writes them, made once per target for lists up to keptURLs; longer lists lay them out per
// request.
type loopWire struct {
	l     *Loader
	kept  []wireRequest
	addrs []netip.AddrPort // where each target's connections go
}

// newLoopWire lays out every target's request and resolves every host. ok is false when a host
// does not resolve: the goroutine engine then reports each request's failure as usual.
func (l *Loader) newLoopWire(resolve func(host string) (netip.Addr, bool)) (*loopWire, bool) {
	w := &loopWire{l: l, addrs: make([]netip.AddrPort, len(l.targets))}
	hosts := map[string]netip.AddrPort{}
	for i := range l.targets {
		hp := urls.DialHostPort(l.urlFor(i)) // New parsed every URL
		a, seen := hosts[hp]
		if !seen {
			var ok bool
			if a, ok = loopAddr(hp, resolve); !ok {
				return nil, false
			}
			hosts[hp] = a
		}
		w.addrs[i] = a
	}
	if len(l.targets) <= keptURLs {
		var lay wireLayout
		w.kept = make([]wireRequest, len(l.targets))
		for i := range l.targets {
			r := lay.layout(l, i)
			r.head = bytes.Clone(r.head)
			w.kept[i] = r
		}
	}
	return w, true
}

// oneAddr tells whether every target's connections go to one address. A user of the closed
// model keeps one connection; with several hosts it would open one per switch, where the
// goroutine engine's pool keeps one per host. The open model keeps its idle users by address.
func (w *loopWire) oneAddr() bool {
	for _, a := range w.addrs {
		if a != w.addrs[0] {
			return false
		}
	}
	return true
}

// loopAddr is where connections to hostport (urls.DialHostPort's) go: the address itself, or
// the first IPv4 address of its name, as the goroutine engine's dialer takes.
func loopAddr(hostport string, resolve func(host string) (netip.Addr, bool)) (netip.AddrPort, bool) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return netip.AddrPort{}, false
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil || p == 0 {
		return netip.AddrPort{}, false
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		var ok bool
		if ip, ok = resolve(host); !ok {
			return netip.AddrPort{}, false
		}
	}
	return netip.AddrPortFrom(ip.Unmap(), uint16(p)), true
}

// wireRequest is a request's bytes: its head, then its body, which is the target's own (shared
// by every request to it, never copied); and what its answer is read by, from the request the
// goroutine engine would send: a HEAD takes no body, an idempotent request may be resent, and
// one that asks for a protocol switch takes a 101 as its answer (see checkStatus).
type wireRequest struct {
	head, body                  []byte
	isHead, idempotent, upgrade bool
}

// wire is target ti's request: the kept one, or else laid out by lay.
func (w *loopWire) wire(ti int, lay *wireLayout) wireRequest {
	if w.kept != nil {
		return w.kept[ti]
	}
	return lay.layout(w.l, ti)
}

// wireLayout lays out requests, reusing its request and buffers.
type wireLayout struct {
	req fasthttp.Request
	buf bytes.Buffer
	bw  *bufio.Writer
}

// layout is target ti's request as the run's fasthttp client writes it, its User-Agent
// included; its head is valid until the next call.
func (lay *wireLayout) layout(l *Loader, ti int) wireRequest {
	if lay.bw == nil {
		lay.bw = bufio.NewWriter(&lay.buf)
	}
	lay.req.Reset()
	l.prepare(ti, &lay.req)
	// As the run's client sends them: the URL as written, without /../ or // folded.
	lay.req.URI().DisablePathNormalizing = true
	if len(lay.req.Header.UserAgent()) == 0 && l.cfg.UserAgent != "" {
		lay.req.Header.SetUserAgent(l.cfg.UserAgent)
	}
	body := l.targetBody(ti)
	lay.buf.Reset()
	lay.buf.Grow(len(body) + 4<<10) // at once: a large body is not copied while it grows
	_ = lay.req.Write(lay.bw)       // to memory: it cannot fail
	_ = lay.bw.Flush()
	h := &lay.req.Header
	r := wireRequest{head: lay.buf.Bytes(), isHead: h.IsHead(), idempotent: idempotent(h),
		upgrade: len(h.Peek(fasthttp.HeaderUpgrade)) > 0}
	if n := len(body); n > 0 && len(r.head) >= n && bytes.Equal(r.head[len(r.head)-n:], body) {
		r.head, r.body = r.head[:len(r.head)-n], body
	}
	return r
}
