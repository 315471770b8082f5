package loader

import "sync"

// maxCachedResources bounds a resource cache. Past it, resources not yet cached are fetched on
// every visit: a site that names endless distinct asset URLs (cache-busting queries, signed
// links) would otherwise grow the cache, about 100 bytes a URL, for the whole run.
const maxCachedResources = 1 << 16

// resourceCache is the set of resources a visitor has fetched and would find in its browser's
// cache, keyed by absolute URL. A closed-model user has its own, as a browser has; the open
// model's users share one, because its arrivals are visitors returning to a site whose assets
// they already hold, and a user is only a worker that carries them. Safe for concurrent use.
type resourceCache struct {
	mu    sync.Mutex
	seen  map[string]struct{}
	limit int
}

func newResourceCache(limit int) *resourceCache {
	return &resourceCache{seen: map[string]struct{}{}, limit: limit}
}

// fetch reports whether the resource at key is to be fetched, that is not cached; it is cached
// from this call on, while the cache has room, so that concurrent visits of a page do not fetch
// it twice.
func (c *resourceCache) fetch(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.seen[key]; ok {
		return false
	}
	if len(c.seen) < c.limit {
		c.seen[key] = struct{}{}
	}
	return true
}
