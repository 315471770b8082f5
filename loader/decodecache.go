package loader

import (
	"slices"
	"sync"
	"sync/atomic"
)

// The decode cache's bounds: the bytes it holds (compressed bodies and their decoded pages),
// and the largest compressed body it keeps. 8 MiB holds the 50 most visited pages of most
// sites with their styles and scripts; past it, bodies are decoded on every visit, as they
// were before the cache.
const (
	maxDecodedBytes = 8 << 20
	maxDecodedBody  = 1 << 20
	// maxDecodedURLs bounds the URLs held, those marked as changing included, for a run over
	// more distinct URLs than the bytes' bound ever fills.
	maxDecodedURLs = 4096
)

// decodeCache keeps, per request URL, the compressed bytes of the last body decoded there and
// what they decoded to, so that a compressed body served again byte for byte is not decoded
// again. Decoding is a pure function of the bytes and the encoding, so a hit is exact whatever
// the key: the URL only picks which kept body to compare with. On 50 gzip'd pages of 30 KiB
// decoding took about a tenth of the client's CPU, and the page it decoded to is lent to the
// parser rather than copied. A URL whose body has changed once is decoded on every visit from
// then on, with no copy kept. Safe for concurrent use.
type decodeCache struct {
	mu     sync.RWMutex
	bodies map[string]*decodedBody // by the request's full URI
	held   int                     // bytes of the kept bodies and pages
	limits decodeLimits

	decodes atomic.Int64 // bodies decoded with a copy kept or compared: the cache's misses
	hits    atomic.Int64 // bodies not decoded, their figures taken from a kept one
}

// decodedBody is a compressed body and what it decoded to. It is shared and read-only.
type decodedBody struct {
	coding     contentCoding
	compressed []byte
	size       int64  // bytes decoded
	page       []byte // the start of the decoded body kept for the parser (body.page)
	paged      bool   // page holds it: the body was read with keep set
	// changed marks a URL whose body changed since it was kept: it holds no bytes, and its
	// bodies are decoded as they arrive, without comparing or copying.
	changed bool
}

// decodeLimits are a decode cache's bounds.
type decodeLimits struct {
	bytes int // bytes of compressed bodies and decoded pages held
	body  int // the largest compressed body kept
	urls  int // URLs held
}

func newDecodeCache(limits decodeLimits) *decodeCache {
	return &decodeCache{bodies: map[string]*decodedBody{}, limits: limits}
}

// get returns what is kept for key, nil for nothing, and whether there is room for more: a
// body is recorded for keeping only then, so that a full cache costs no copies.
func (c *decodeCache) get(key []byte) (d *decodedBody, room bool) {
	c.mu.RLock()
	d = c.bodies[string(key)] // no allocation: the conversion is only for the lookup
	room = c.held < c.limits.bytes && len(c.bodies) < c.limits.urls
	c.mu.RUnlock()
	return d, room
}

// keep stores a body that decoded without error, unless key already holds one (another user
// kept it meanwhile) or the bound is reached.
func (c *decodeCache) keep(key []byte, coding contentCoding, compressed []byte, size int64, page []byte, paged bool) {
	n := len(compressed) + len(page)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bodies[string(key)] != nil || c.held+n > c.limits.bytes || len(c.bodies) >= c.limits.urls {
		return
	}
	c.bodies[string(key)] = &decodedBody{
		coding:     coding,
		compressed: slices.Clone(compressed),
		size:       size,
		page:       slices.Clone(page),
		paged:      paged,
	}
	c.held += n
}

// changed marks key's body as one that changes, freeing its copy.
func (c *decodeCache) changed(key []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := c.bodies[string(key)]; d != nil && !d.changed {
		c.held -= len(d.compressed) + len(d.page)
		c.bodies[string(key)] = &decodedBody{changed: true}
	}
}
