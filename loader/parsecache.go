package loader

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/webload/webload/page"
)

// The parse cache's bounds. A page's entry costs about 100 bytes plus about 250 bytes a
// resource URL (the parsed URL and its string), so the cache holds at most about 5 MiB
// however many distinct pages a run meets, plus the copies of bodies below. Past the bounds,
// pages not yet cached are parsed on every visit, as they were before the cache.
const (
	maxParsedPages     = 2048
	maxParsedResources = 1 << 14
	// maxKeptBodies bounds the bytes of the page bodies the cache keeps copies of: 8 MiB
	// holds 50 pages of up to 160 KiB each, the most visited pages a migration test loads.
	// A page past it is recognised by its hash instead.
	maxKeptBodies = 8 << 20
)

// parseLimits are a parse cache's bounds.
type parseLimits struct {
	pages     int // pages cached
	resources int // resource URLs held by the cached pages
	kept      int // bytes of bodies kept to compare with
}

// pageResources is what a page's body makes this run fetch: the resources a browser loads,
// already limited to the hosts the run may send them to. It is shared by every visit of the
// page and read-only: no field or URL in it may be changed.
type pageResources struct {
	// body is a copy of the body the resources were found in, nil when the cache keeps only
	// its hash. Comparing bytes is exact and, at memory speed, several times faster than
	// hashing them again: the check every visit of a cached page pays.
	body []byte
	sum  uint64     // maphash of the body when body is nil
	size int        // the body's length, a first check
	urls []*url.URL // in document order
	keys []string   // urls[i].String(), the resource cache's keys, made once
	// refresh is where the page's meta refresh leads, nil for none or a reload of the page;
	// whether the run may go there is the redirect rules' to say.
	refresh *url.URL
}

// parseCache keeps, per page URL, the resources of the last body seen there, so that a page
// served again unchanged is not parsed again. Most answers of one URL are byte for byte the
// same page, and parsing HTML costs several times what the rest of a request does. The first
// body of a URL is kept and compared byte for byte, within a bound on the bytes kept; a URL
// whose body has changed once, and one past the bound, is recognised by a 64-bit hash and
// the length of its body, so that a page that changes on every visit costs no copy each time.
// Finding the resources is a pure function of body and URL, so a hit gives what a parse
// would. Safe for concurrent use; the open model's workers and the closed model's users share
// the Loader's one cache.
type parseCache struct {
	seed maphash.Seed
	find func(body []byte, pageURL *url.URL) page.Found // the parse, and the run's host filter

	mu    sync.RWMutex
	pages map[string]*pageResources // by the page URL's binary form
	held  int                       // resource URLs in pages
	kept  int                       // bytes of the bodies kept in pages

	limits parseLimits
	parses atomic.Int64 // calls of find: how often a page was parsed
}

func newParseCache(find func(body []byte, pageURL *url.URL) page.Found, limits parseLimits) *parseCache {
	return &parseCache{
		seed:   maphash.MakeSeed(),
		find:   find,
		pages:  map[string]*pageResources{},
		limits: limits,
	}
}

// resources returns the resources of body served at pageURL, parsing body only when pageURL's
// last cached body differs from it. key is scratch space for the URL's cache key, returned
// for reuse, so that a hit allocates nothing. The result is shared: read it, never change it.
func (c *parseCache) resources(body []byte, pageURL *url.URL, key []byte) (*pageResources, []byte) {
	key = appendPageKey(key[:0], pageURL)
	sum := bodySum{seed: c.seed, body: body}
	c.mu.RLock()
	old := c.pages[string(key)] // no allocation: the conversion is only for the lookup
	c.mu.RUnlock()
	if old != nil && old.matches(&sum) {
		return old, key
	}
	p := c.parse(body, pageURL)
	c.mu.Lock()
	defer c.mu.Unlock()
	old = c.pages[string(key)]
	if old != nil && old.matches(&sum) {
		return old, key // another user cached this very body meanwhile
	}
	held := c.held + len(p.urls)
	if old != nil {
		held -= len(old.urls)
	}
	if (old == nil && len(c.pages) >= c.limits.pages) || held > c.limits.resources {
		return p, key
	}
	kept := c.kept
	if old != nil {
		kept -= len(old.body)
	}
	if old == nil && kept+len(body) <= c.limits.kept {
		p.body = slices.Clone(body)
	} else {
		p.sum = sum.get()
	}
	c.pages[string(key)] = p
	c.held, c.kept = held, kept+len(p.body)
	return p, key
}

// appendPageKey appends a key that tells URLs apart to key: url.URL's fields in turn, each after
// its length, rather than u.String(), which would allocate the string on every visit of a
// page. A user name, rare in a page's URL, still costs its String.
func appendPageKey(key []byte, u *url.URL) []byte {
	for _, f := range [...]string{u.Scheme, u.Opaque, u.Host, u.Path, u.RawPath, u.RawQuery, u.Fragment, u.RawFragment} {
		key = append(binary.AppendUvarint(key, uint64(len(f))), f...)
	}
	if u.ForceQuery {
		key = append(key, '?')
	}
	if u.OmitHost {
		key = append(key, '/')
	}
	if u.User != nil {
		key = append(key, u.User.String()...)
	}
	return key
}

// matches tells whether the body of sum is the one p's resources were found in.
func (p *pageResources) matches(sum *bodySum) bool {
	if p.size != len(sum.body) {
		return false
	}
	if p.body != nil {
		return bytes.Equal(p.body, sum.body)
	}
	return p.sum == sum.get()
}

// bodySum is a body's hash, made at most once however often a visit asks for it: a page that
// changes on every visit is looked up, looked up again under the lock and then stored by it.
type bodySum struct {
	seed maphash.Seed
	body []byte
	sum  uint64
	done bool
}

func (s *bodySum) get() uint64 {
	if !s.done {
		s.sum, s.done = maphash.Bytes(s.seed, s.body), true
	}
	return s.sum
}

// parse finds the resources of body at pageURL.
func (c *parseCache) parse(body []byte, pageURL *url.URL) *pageResources {
	c.parses.Add(1)
	found := c.find(body, pageURL)
	p := &pageResources{size: len(body), urls: found.Resources, refresh: found.Refresh}
	p.keys = make([]string, len(p.urls))
	for i, u := range p.urls {
		p.keys[i] = u.String()
	}
	return p
}

// readPage is what the page body at pageURL makes a visit do, through the parse cache: nil when
// the run reads no pages (see Config.readsPages). Without the parser a page is read for its
// meta refresh only, so one that never says "refresh" is neither parsed nor cached: a quick
// search of its bytes costs a small part of a parse.
func (l *Loader) readPage(body []byte, pageURL *url.URL, key []byte) (*pageResources, []byte) {
	if l.parsed == nil || !l.cfg.Parser && !mentionsRefresh(body) {
		return nil, key
	}
	return l.parsed.resources(body, pageURL, key)
}

// mentionsRefresh tells whether body may hold a <meta http-equiv=refresh>: whether it says
// http-equiv="refresh" (in any case, quoted or not, with blanks around the "="), which the
// parser then reads as a browser does. It looks at each q of the body, a letter pages seldom
// use, rather than at each r of "refresh": a third of the time on a page of text.
func mentionsRefresh(body []byte) bool {
	const name, value = "http-equiv", "refresh"
	const q = 6 // the index of the q in name
	for _, c := range [...]byte{'q', 'Q'} {
		for from := q; from < len(body); {
			i := bytes.IndexByte(body[from:], c)
			if i < 0 {
				break
			}
			at := from + i - q
			from += i + 1
			if at+len(name) > len(body) || !bytes.EqualFold(body[at:at+len(name)], []byte(name)) {
				continue
			}
			rest := bytes.TrimLeft(body[at+len(name):], " \t\r\n\f")
			if len(rest) == 0 || rest[0] != '=' {
				continue
			}
			rest = bytes.TrimLeft(rest[1:], " \t\r\n\f")
			if len(rest) > 0 && (rest[0] == '"' || rest[0] == '\'') {
				rest = rest[1:]
			}
			if len(rest) >= len(value) && bytes.EqualFold(rest[:len(value)], []byte(value)) {
				return true
			}
		}
	}
	return false
}
