package loader

import (
	"container/list"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
	"golang.org/x/net/publicsuffix"
)

// The jar holds at most maxCookiesPerSite cookies per site (registrable domain) and
// maxCookies in all, Chrome's limits (RFC 6265 asks for at least 50 and 3000); past them the
// oldest cookie is evicted. Without a cap, a site that sets a new cookie with every answer
// grows every later request's Cookie header, and its building time, without end.
const (
	maxCookiesPerSite = 180
	maxCookies        = 3000
)

// cookies is one user's cookie jar: the standard library's RFC 6265 jar (domains, paths,
// expiry, Secure, public suffixes) fed from and read into fasthttp's headers, with browsers'
// caps on top. A nil *cookies is a user without cookies. A user's resource fetchers share it,
// so every method is safe for concurrent use.
type cookies struct {
	jar *cookiejar.Jar // nil until the first cookie, like byID and sites
	// any is set once a response set a cookie: until then requests skip the jar, whose lookup
	// costs more than the rest of a small request's preparation.
	any atomic.Bool

	mu sync.Mutex
	// The jar cannot list or count what it holds, so the cookies it was given are kept here
	// too, oldest first, overall and per site. An entry stays until the server deletes or the
	// caps evict it: one that expired meanwhile still counts, which only makes eviction early.
	byID  map[cookieID]*keptCookie
	all   list.List             // of *keptCookie
	sites map[string]*list.List // site -> its *keptCookie
	buf   []byte                // the Cookie header being built
}

// cookieID names a cookie as the jar does: a cookie set again with the same one replaces it.
type cookieID struct{ domain, path, name string }

// keptCookie is what it takes to count a cookie and, later, delete it from the jar.
type keptCookie struct {
	id         cookieID
	site       string
	setAt      *url.URL // the jar derives a cookie's place from the URL that set it
	domainAttr string
	pathAttr   string
	value      string // hidden wherever a page shows it
	inAll      *list.Element
	inSite     *list.Element
}

// newCookies makes an empty jar. What holds cookies is made with the first cookie (see keep):
// a user of a site that sets none, or one waiting for its first answer, holds about 300 bytes
// less, 3 MB at 10 000 users.
func newCookies() *cookies { return &cookies{} }

// add puts the cookies the jar holds for u on req, in one Cookie header built in one pass;
// they replace cookies of the same name the run's own headers (-H) put there.
func (c *cookies) add(req *fasthttp.Request, u *url.URL) {
	if c == nil || !c.any.Load() {
		return
	}
	jarred := c.jar.Cookies(u)
	if len(jarred) == 0 {
		return
	}
	own := false
	for range req.Header.Cookies() {
		own = true
		break
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	buf := c.buf[:0]
	for i, k := range jarred {
		if own {
			req.Header.DelCookie(k.Name)
		}
		if i > 0 {
			buf = append(buf, "; "...)
		}
		buf = append(buf, k.Name...)
		buf = append(buf, '=')
		buf = append(buf, k.Value...)
	}
	// A Cookie header adds its cookies to those the request has; fasthttp copies them.
	req.Header.SetBytesKV([]byte(fasthttp.HeaderCookie), buf)
	c.buf = buf
}

// keep stores the cookies resp sets for u, then evicts the oldest past the caps.
func (c *cookies) keep(resp *fasthttp.Response, u *url.URL) {
	if c == nil {
		return
	}
	var set []*http.Cookie
	for _, v := range resp.Header.Cookies() { // the whole Set-Cookie value of each cookie
		if k, err := http.ParseSetCookie(string(v)); err == nil {
			set = append(set, k)
		}
	}
	if len(set) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.jar == nil {
		// cookiejar.New fails only for options it never rejects.
		c.jar, _ = cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List})
		c.byID, c.sites = map[cookieID]*keptCookie{}, map[string]*list.List{}
	}
	c.jar.SetCookies(u, set)
	c.any.Store(true) // after the jar is made: add and values look at it only once this is set
	now := time.Now()
	for _, k := range set {
		c.track(k, u, now)
	}
}

// track books cookie k, just given to the jar for u, and evicts what the caps require.
func (c *cookies) track(k *http.Cookie, u *url.URL, now time.Time) {
	id, ok := idOf(k, u)
	if !ok {
		return // the jar refused it too
	}
	old := c.byID[id]
	if k.MaxAge < 0 || k.MaxAge == 0 && !k.Expires.IsZero() && !k.Expires.After(now) {
		if old != nil {
			c.forget(old) // the server deleted it
		}
		return
	}
	if old != nil {
		old.value = k.Value
		return // replaced in place: the jar keeps its creation time, so its age stays
	}
	e := &keptCookie{id: id, site: siteOf(id.domain), setAt: u, domainAttr: k.Domain, pathAttr: k.Path, value: k.Value}
	c.byID[id] = e
	e.inAll = c.all.PushBack(e)
	site := c.sites[e.site]
	if site == nil {
		site = list.New()
		c.sites[e.site] = site
	}
	e.inSite = site.PushBack(e)
	for site.Len() > maxCookiesPerSite {
		c.evict(site.Front().Value.(*keptCookie))
	}
	for c.all.Len() > maxCookies {
		c.evict(c.all.Front().Value.(*keptCookie))
	}
}

// evict deletes e from the jar as the server would: the same name, Domain and Path, set again
// from the same URL with a negative Max-Age.
func (c *cookies) evict(e *keptCookie) {
	c.jar.SetCookies(e.setAt, []*http.Cookie{{Name: e.id.name, Domain: e.domainAttr, Path: e.pathAttr, MaxAge: -1}})
	c.forget(e)
}

// forget drops e from the books.
func (c *cookies) forget(e *keptCookie) {
	delete(c.byID, e.id)
	c.all.Remove(e.inAll)
	site := c.sites[e.site]
	site.Remove(e.inSite)
	if site.Len() == 0 {
		delete(c.sites, e.site)
	}
}

// values appends the values of the cookies the books hold to dst, for hiding wherever a page
// shows one; dst as it is for a nil *cookies.
func (c *cookies) values(dst []string) []string {
	if c == nil || !c.any.Load() {
		return dst
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.all.Front(); e != nil; e = e.Next() {
		dst = append(dst, e.Value.(*keptCookie).value)
	}
	return dst
}

// count is how many cookies the books hold.
func (c *cookies) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.all.Len()
}

// idOf returns the jar's name for cookie k set by a response from u; ok is false for a cookie
// the jar refuses because of its Domain.
func idOf(k *http.Cookie, u *url.URL) (id cookieID, ok bool) {
	host := strings.ToLower(u.Hostname())
	domain := host
	if k.Domain != "" {
		domain = strings.ToLower(strings.TrimPrefix(k.Domain, "."))
		if domain != host && (!strings.HasSuffix(host, "."+domain) || isPublicSuffix(domain)) {
			return cookieID{}, false
		}
	}
	path := k.Path
	if path == "" || path[0] != '/' {
		path = defaultPath(u.Path)
	}
	return cookieID{domain: domain, path: path, name: k.Name}, true
}

func isPublicSuffix(domain string) bool {
	suffix, _ := publicsuffix.PublicSuffix(domain)
	return suffix == domain
}

// defaultPath is RFC 6265's default cookie path for a request path: its directory.
func defaultPath(path string) string {
	if path == "" || path[0] != '/' {
		return "/"
	}
	i := strings.LastIndex(path, "/")
	if i == 0 {
		return "/"
	}
	return path[:i]
}

// siteOf is the unit of the per-site cap: the registrable domain (example.com for
// www.example.com), or the host itself for an IP address or a name like localhost.
func siteOf(domain string) string {
	if site, err := publicsuffix.EffectiveTLDPlusOne(domain); err == nil {
		return site
	}
	return domain
}
