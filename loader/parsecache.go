package loader

import (
	"hash/maphash"
	"net/url"
	"sync"
	"sync/atomic"

	"github.com/webload/webload/page"
)

// The parse cache's bounds. A page's entry costs about 100 bytes plus about 250 bytes a
// resource URL (the parsed URL and its string), so the cache holds at most about 5 MiB
// however many distinct pages a run meets. Past the bounds, pages not yet cached are parsed
// on every visit, as they were before the cache.
const (
	maxParsedPages     = 2048
	maxParsedResources = 1 << 14
)

// pageResources is what a page's body makes this run fetch: the resources a browser loads,
// already limited to the hosts the run may send them to. It is shared by every visit of the
// page and read-only: no field or URL in it may be changed.
type pageResources struct {
	sum  uint64     // maphash of the decoded body
	size int        // the body's length, a second check against a hash collision
	urls []*url.URL // in document order
	keys []string   // urls[i].String(), the resource cache's keys, made once
	// refresh is where the page's meta refresh leads, nil for none or a reload of the page;
	// whether the run may go there is the redirect rules' to say.
	refresh *url.URL
}

// parseCache keeps, per page URL, the resources of the last body seen there, so that a page
// served again unchanged is not parsed again. Most answers of one URL are byte for byte the
// same page, and parsing HTML costs several times what the rest of a request does. A body is
// recognised by a 64-bit hash and its length; finding the resources is a pure function of
// body and URL, so a hit gives what a parse would. Safe for concurrent use; the open model's
// workers and the closed model's users share the Loader's one cache.
type parseCache struct {
	seed maphash.Seed
	find func(body []byte, pageURL *url.URL) page.Found // the parse, and the run's host filter

	mu    sync.RWMutex
	pages map[string]*pageResources // by the page URL's binary form
	held  int                       // resource URLs in pages

	maxPages, maxHeld int
	parses            atomic.Int64 // calls of find: how often a page was parsed
}

func newParseCache(find func(body []byte, pageURL *url.URL) page.Found, maxPages, maxHeld int) *parseCache {
	return &parseCache{
		seed:     maphash.MakeSeed(),
		find:     find,
		pages:    map[string]*pageResources{},
		maxPages: maxPages,
		maxHeld:  maxHeld,
	}
}

// resources returns the resources of body served at pageURL, parsing body only when pageURL's
// last cached body differs from it. key is scratch space for the URL's cache key, returned
// for reuse, so that a hit allocates nothing. The result is shared: read it, never change it.
func (c *parseCache) resources(body []byte, pageURL *url.URL, key []byte) (*pageResources, []byte) {
	key, err := pageURL.AppendBinary(key[:0])
	if err != nil {
		// url.URL's binary form cannot fail today; parsing without the cache is still right.
		return c.parse(body, pageURL, maphash.Bytes(c.seed, body)), key
	}
	sum := maphash.Bytes(c.seed, body)
	c.mu.RLock()
	p := c.pages[string(key)] // no allocation: the conversion is only for the lookup
	c.mu.RUnlock()
	if p != nil && p.sum == sum && p.size == len(body) {
		return p, key
	}
	p = c.parse(body, pageURL, sum)
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.pages[string(key)]
	held := c.held + len(p.urls)
	if old != nil {
		held -= len(old.urls)
	}
	if (old != nil || len(c.pages) < c.maxPages) && held <= c.maxHeld {
		c.pages[string(key)] = p
		c.held = held
	}
	return p, key
}

// parse finds the resources of body at pageURL.
func (c *parseCache) parse(body []byte, pageURL *url.URL, sum uint64) *pageResources {
	c.parses.Add(1)
	found := c.find(body, pageURL)
	p := &pageResources{sum: sum, size: len(body), urls: found.Resources, refresh: found.Refresh}
	p.keys = make([]string, len(p.urls))
	for i, u := range p.urls {
		p.keys[i] = u.String()
	}
	return p
}
