package loader

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"sync/atomic"

	"github.com/valyala/fasthttp"
	"golang.org/x/net/publicsuffix"
)

// cookies is one user's cookie jar: the standard library's RFC 6265 jar (domains, paths,
// expiry, Secure, public suffixes) fed from and read into fasthttp's headers. A nil *cookies
// is a user without cookies.
type cookies struct {
	jar *cookiejar.Jar
	// any is set once a response set a cookie: until then requests skip the jar, whose lookup
	// costs more than the rest of a small request's preparation.
	any atomic.Bool
}

func newCookies() *cookies {
	// cookiejar.New fails only for options it never rejects.
	jar, _ := cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List})
	return &cookies{jar: jar}
}

// add puts the cookies the jar holds for u on req.
func (c *cookies) add(req *fasthttp.Request, u *url.URL) {
	if c == nil || !c.any.Load() {
		return
	}
	for _, k := range c.jar.Cookies(u) {
		req.Header.SetCookie(k.Name, k.Value)
	}
}

// keep stores the cookies resp sets for u.
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
	if len(set) > 0 {
		c.jar.SetCookies(u, set)
		c.any.Store(true)
	}
}
