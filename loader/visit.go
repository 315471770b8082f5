package loader

import (
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/webload/webload/page"
)

// visitor is a user that loads pages like a browser: it logs in once, keeps cookies, follows
// redirects and fetches each HTML page's resources over a few parallel connections. Only its
// own goroutine calls visit; the resource fetchers it starts share nothing but the cookie jar,
// which is safe for concurrent use.
type visitor struct {
	l        *Loader
	x        *exchange
	id       int
	cookies  *cookies       // nil without Config.Cookies
	cache    *resourceCache // resources fetched already; nil with NoCache
	started  bool           // the user has begun a login (made none when the run has no login steps)
	loggedIn bool           // the user's latest login went through every step (see logIn)
	visits   int            // URLs visited since the latest login, for Config.ReloginEvery

	results  []Result   // the current visit's URL, hops and logins
	fetchers []*fetcher // made at the first page with resources
	found    []int      // the current page's resources to fetch, as indexes into its list
	pageKey  []byte     // scratch for the parse cache's key
}

// fetcher is one of a visitor's parallel resource connections.
type fetcher struct {
	x       *exchange
	results []Result
	end     time.Duration
}

// newVisitor gives user id its visitor, or nil when the run sends plain requests. shared is the
// cache of the open model's users, nil for a closed-model user, which gets one of its own.
func (l *Loader) newVisitor(x *exchange, id int, shared *resourceCache) *visitor {
	if !l.cfg.browser() {
		return nil
	}
	v := &visitor{l: l, x: x, id: id}
	if l.cfg.Cookies {
		v.cookies = newCookies()
		x.jar = v.cookies
	}
	if l.cfg.Parser && !l.cfg.NoCache {
		v.cache = shared
		if v.cache == nil {
			v.cache = newResourceCache(maxCachedResources)
		}
	}
	return v
}

// visit loads URL ti: the login steps first if this user is not logged in (see logIn), then
// the URL and its redirects, then the page's resources. Every request is a result; a last
// KindPage result spans the whole page. j carries the open model's schedule, nil in the closed
// model.
func (v *visitor) visit(ti int, j *job, b *batcher) {
	l := v.l
	v.results = v.results[:0]
	if !v.loggedIn || l.reloginDue(v.visits) {
		if !v.logIn(ti, j, b) {
			return
		}
		if len(l.cfg.Login) > 0 {
			j = nil // only the first request of a visit waited for its slot
		}
	}
	v.visits++
	first := len(v.results)
	lastURL, end := v.chain(v.x, ti, KindURL, l.templates[ti], l.urlFor(ti), "", 0, j, &v.results)
	v.finish(ti, first, lastURL, end, b)
}

// finish completes a visit whose URL chain is v.results[first:]: the page's resources, then
// where its meta refresh leads (the target's chain and resources in turn), then the page
// result, then everything to the batch. It is apart from visit so that its locals are not on
// the stack while the URL is requested (only a refresh's target is requested under it).
func (v *visitor) finish(ti, first int, lastURL *url.URL, end time.Duration, b *batcher) {
	l := v.l
	complete := true
	var resBytes, resDecoded int64
	for {
		last := &v.results[len(v.results)-1]
		var parsed *pageResources
		if last.Arrived() && !redirectStatus(last.Status) && !last.Refresh && len(v.x.body.page) > 0 {
			parsed, v.pageKey = l.readPage(v.x.body.page, lastURL, v.pageKey)
		}
		// The page is parsed: its buffer serves other users while this one fetches the resources.
		v.x.body.release()
		if parsed == nil {
			break
		}
		if found := v.resources(parsed); len(found) > 0 {
			if l.stopped.Load() {
				complete = false
				break
			}
			resEnd, bytes, decoded, all := v.fetch(ti, parsed, found)
			end = max(end, resEnd)
			resBytes, resDecoded = resBytes+bytes, resDecoded+decoded
			complete = complete && all
		}
		next := v.refresh(last, parsed.refresh, len(v.results)-first-1)
		if next == nil || l.stopped.Load() {
			break
		}
		lastURL, end = v.chain(v.x, ti, KindURL, l.get, next, "", len(v.results)-first, nil, &v.results)
	}
	last := v.results[len(v.results)-1]
	pageRes := Result{
		Start: v.results[first].Start, Intended: v.results[first].Intended, Queued: v.results[first].Queued,
		Target: int32(ti), User: int32(v.id), Kind: KindPage, Status: last.Status, Err: last.Err, HTTP10: last.HTTP10,
		BodyBytes: resBytes, Decoded: resDecoded,
	}
	for _, r := range v.results[first:] {
		pageRes.BodyBytes, pageRes.Decoded = pageRes.BodyBytes+r.bodyBytes(), pageRes.Decoded+r.decodedBytes()
	}
	pageRes.Latency = end - pageRes.Start
	// A page cut short by the stop has no load time worth reporting, but it is still recorded:
	// its resources are counted with it, and without it they would belong to no page.
	pageRes.AfterStop = !complete
	v.results = append(v.results, pageRes)
	v.flush(b, end)
}

// refresh returns where the meta refresh of the page answered in res leads (target, from the
// parse) when the visit follows it, as siege does: from a 2xx page (the parser kept it only
// if it was HTML), whether or not HTTP redirects are followed, and at once, whatever its
// delay. The hosts and the hop limit are those of redirects; hop is res's place in the visit.
func (v *visitor) refresh(res *Result, target *url.URL, hop int) *url.URL {
	if target == nil || res.Err != ErrNone || res.Status/100 != 2 {
		return nil
	}
	res.Refresh = true
	if !v.hopAllowed(res, target, hop, "sent on by a meta refresh") {
		return nil
	}
	return target
}

// flush hands the visit's results to the batch.
func (v *visitor) flush(b *batcher, end time.Duration) {
	for i := range v.results {
		b.add(v.results[i], end)
	}
	for _, f := range v.fetchers {
		for i := range f.results {
			b.add(f.results[i], end)
		}
		f.results = f.results[:0]
	}
}

// chain sends the request of template base to u and follows its redirects, appending a result
// per hop to out. uri is u.String() when the caller has it already (a page's resources), or "".
// first is the number of hops made before u in the same visit (a meta refresh's target
// continues its page's count), so that one limit bounds them all. It returns the last hop's
// URL and when it ended.
func (v *visitor) chain(x *exchange, ti int, kind Kind, base *fasthttp.Request, u *url.URL, uri string, first int, j *job, out *[]Result) (*url.URL, time.Duration) {
	l := v.l
	// The URL's own request is sent as it is when it was the last one sent, unchanged.
	fresh := base == l.templates[ti] && len(l.secrets) == 0
	if !fresh || !x.prepared(ti) {
		l.fill(&x.req, base, ti)
	}
	x.ready = 0
	if base == l.get {
		if uri == "" {
			uri = u.String()
		}
		x.req.SetRequestURI(uri)
	}
	// The URL the run's credentials are for; a resource's is its page's. Long lists parse it
	// again (see urlFor), so only when there are credentials to keep.
	var origin *url.URL
	if len(l.secrets) > 0 {
		origin = l.urlFor(ti)
	}
	if x.sess != nil {
		if !v.personalize(x, base, ti, kind, j, out) {
			return u, (*out)[len(*out)-1].Start
		}
		if base != l.get && l.filledURL(ti) {
			// The URL as filled in: its cookies and resources are the user's.
			if filled := sentURL(x); filled != nil {
				u, origin = filled, filled
			}
		}
	}
	for hop := first; ; hop++ {
		x.req.SetTimeout(l.cfg.Timeout)
		l.dropSecrets(&x.req, u, origin)
		fresh = fresh && hop == first && v.cookies.sendsNone()
		v.cookies.add(&x.req, u)
		// The result is written in its place in out, so no copy of it sits in this frame.
		*out = append(*out, Result{})
		res := &(*out)[len(*out)-1]
		x.at = u
		end := l.do(x, ti, v.id, kind, res)
		x.at = nil
		res.Kind = kind
		if l.cfg.NameRequests && (hop > 0 || kind == KindResource) {
			method := "GET"
			if base != l.get {
				method = l.targetMethod(ti)
			}
			res.Req = l.names.id(method, u.String())
		}
		if j != nil && hop == first {
			res.Intended, res.Queued, res.Arrival = j.intended, j.queued, true
		}
		v.cookies.keep(&x.resp, u)
		next := v.redirect(res, &x.resp, u, hop)
		if next == nil || l.stopped.Load() {
			if fresh {
				l.keepPrepared(x, ti, res)
			}
			return u, end
		}
		// Browsers resend the method and body on 307 and 308 only; the others become a GET.
		if res.Status != fasthttp.StatusTemporaryRedirect && res.Status != fasthttp.StatusPermanentRedirect {
			base = l.get
		}
		l.fill(&x.req, base, ti)
		if x.sess != nil && !v.personalize(x, base, ti, kind, nil, out) {
			return u, (*out)[len(*out)-1].Start
		}
		x.req.SetRequestURI(next.String())
		u = next
	}
}

// personalize fills a request of a chain, prepared in x from base for target ti, with the
// user's values (see Loader.personalize). When it cannot be filled, its result (ErrExtract,
// nothing sent; the arrival of j, for the chain's first request) is appended to out and
// personalize returns false. It is apart from chain so that the result is not in chain's
// frame, which is on the stack under every request of a visit.
func (v *visitor) personalize(x *exchange, base *fasthttp.Request, ti int, kind Kind, j *job, out *[]Result) bool {
	l := v.l
	err := l.personalize(x, base, ti)
	if err == nil {
		return true
	}
	*out = append(*out, l.unfilled(ti, v.id, kind, err))
	if j != nil {
		res := &(*out)[len(*out)-1]
		res.Intended, res.Queued, res.Arrival = j.intended, j.queued, true
	}
	return false
}

// redirect returns where a redirect answer leads when it is to be followed, and marks res when
// it is not followed because of its host or because the URL's hops are used up.
func (v *visitor) redirect(res *Result, resp *fasthttp.Response, from *url.URL, hop int) *url.URL {
	l := v.l
	if !l.cfg.FollowRedirects || !redirectStatus(res.Status) {
		return nil
	}
	next := location(resp, from)
	if next == nil {
		return nil
	}
	if res.Err != ErrNone {
		// A redirect whose checks or rules failed was judged as the visit's end (see
		// passesOn), or got no whole answer: it is not followed, and only its host is told.
		res.OffHost = (res.Err == ErrCheck || res.Err == ErrExtract) && !l.cfg.FollowAnyHost && !l.hosts.has(next)
		return nil
	}
	if !v.hopAllowed(res, next, hop, "redirected") {
		return nil
	}
	return next
}

// location returns where the Location of the redirect answer in resp, to a request for from,
// leads when a request can go there: an http or https URL with a host requests can carry,
// without its fragment. nil for no Location, one that does not parse, another scheme
// (javascript:, file:, mailto:) or no host: a browser stays on such an answer too.
func location(resp *fasthttp.Response, from *url.URL) *url.URL {
	loc := resp.Header.Peek(fasthttp.HeaderLocation)
	if len(loc) == 0 || from == nil {
		return nil
	}
	next, err := from.Parse(string(loc))
	if err != nil || (next.Scheme != "http" && next.Scheme != "https") || next.Host == "" {
		return nil
	}
	next.Fragment = ""
	if !sendableHost(next) {
		return nil
	}
	return next
}

// leftByRefresh tells whether the page just read into x is one a visit leaves by its meta
// refresh for a host it may go to (see refresh), so that the URL's checks apply to where it
// leads instead, as they do past a followed redirect. It is asked only of a page that failed
// a check, so no other answer pays for the parse, which the visit's own then finds cached.
func (l *Loader) leftByRefresh(x *exchange, res *Result) bool {
	if res.Status/100 != 2 || len(x.body.page) == 0 || !isHTML(x.resp.Header.ContentType()) {
		return false
	}
	u, err := url.Parse(string(x.req.URI().FullURI()))
	if err != nil {
		return false
	}
	p, _ := l.readPage(x.body.page, u, nil)
	return p != nil && p.refresh != nil && (l.cfg.FollowAnyHost || l.hosts.has(p.refresh))
}

// hopAllowed applies the rules of redirects to the visit's hop-th hop, from the answer in res
// to next: only to the URL list's hosts unless FollowAnyHost (else res is marked OffHost), and
// no more than MaxRedirects hops (else res fails with ErrTooManyHops). how says what sends
// the visit on, for the failure's message.
func (v *visitor) hopAllowed(res *Result, next *url.URL, hop int, how string) bool {
	l := v.l
	if !l.cfg.FollowAnyHost && !l.hosts.has(next) {
		res.OffHost = true
		return false
	}
	if hop >= l.cfg.maxRedirects() {
		// Browsers fail such a page; counting it as loaded would hide a redirect loop.
		res.Err = ErrTooManyHops
		// The message names no URL: a Location header or a refresh may carry a token.
		l.failed(res.Err, fmt.Errorf("still %s after %d redirects: a loop, or a longer chain than is followed", how, hop))
		return false
	}
	return true
}

// findPage returns what a page's body at pageURL makes this run do: fetch the resources a
// browser would load, with a host requests can carry, on the page's host or an allowed
// resource host; and go where its meta refresh leads, unless that is a reload of the page
// itself (a browser reloads only after the delay, which a visit does not wait for) or has no
// host requests can carry. It depends on body and pageURL only, so its answer can be cached
// per page.
func (l *Loader) findPage(body []byte, pageURL *url.URL) page.Found {
	found := page.Options{LazyImages: l.cfg.LazyImages}.Find(body, pageURL)
	keep := found.Resources[:0]
	for _, u := range found.Resources {
		if sendableHost(u) && (sameHost(u, pageURL) || l.resourceHosts.has(u)) {
			keep = append(keep, u)
		}
	}
	found.Resources = keep
	if !l.cfg.Parser {
		found.Resources = nil // read for its refresh only
	}
	if r := found.Refresh; r != nil {
		self := *pageURL
		self.Fragment, self.RawFragment = "", ""
		if !sendableHost(r) || r.String() == self.String() {
			found.Refresh = nil
		}
	}
	return found
}

// resources returns the indexes in p of the resources that this user fetches now: those not
// in its cache. The list is the visitor's and is reused by its next page.
func (v *visitor) resources(p *pageResources) []int {
	keep := v.found[:0]
	for i, key := range p.keys {
		if v.cache != nil && !v.cache.fetch(key) {
			continue
		}
		keep = append(keep, i)
	}
	v.found = keep
	return keep
}

// fetch gets the resources of p at the indexes in list over up to ParallelResources
// connections, as a browser does, and returns when the last one ended and the bytes they
// brought. all is false when the run stopped before every resource was requested.
func (v *visitor) fetch(ti int, p *pageResources, list []int) (end time.Duration, bytes, decoded int64, all bool) {
	l := v.l
	n := min(len(list), l.cfg.parallelResources())
	for len(v.fetchers) < n {
		f := &fetcher{x: l.newExchange()}
		f.x.sess = v.x.sess // the per-user headers go with the page's resources too
		v.fetchers = append(v.fetchers, f)
	}
	var next atomic.Int64
	var skipped atomic.Bool
	var wg sync.WaitGroup
	for _, f := range v.fetchers[:n] {
		f.end = 0
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(list) {
					return
				}
				if l.stopped.Load() {
					skipped.Store(true)
					return
				}
				r := list[i]
				_, e := v.chain(f.x, ti, KindResource, l.get, p.urls[r], p.keys[r], 0, nil, &f.results)
				f.end = max(f.end, e)
			}
		})
	}
	wg.Wait()
	for _, f := range v.fetchers[:n] {
		end = max(end, f.end)
		for _, r := range f.results {
			bytes, decoded = bytes+r.bodyBytes(), decoded+r.decodedBytes()
		}
	}
	return end, bytes, decoded, !skipped.Load()
}

// release gives back the fetchers' requests and responses.
func (v *visitor) release() {
	for _, f := range v.fetchers {
		f.x.release()
	}
	v.fetchers = nil
}
