package loader

import (
	"math"
	"sync"
)

// maxRequestNames bounds the distinct requests a run names: URLs that carry a token or a
// cache-busting query would otherwise grow the table for the whole run.
const maxRequestNames = 1 << 20

// unnamed is the Result.Req of a request that came after the table was full.
const unnamed = math.MaxUint32

// requestNames interns the method and URL of each redirect hop and resource, so that a Result,
// which holds no pointers, can say what it requested by a number (Result.Req). Only runs with
// Config.NameRequests use it; its zero value is ready. Safe for concurrent use.
type requestNames struct {
	mu   sync.Mutex
	ids  map[string]uint32 // method+" "+URL → index+1 in list
	list []namedRequest
}

// namedRequest is what one request asked for.
type namedRequest struct{ method, url string }

// id returns the number of the request for method and rawURL, from 1, or unnamed when the
// table is full.
func (n *requestNames) id(method, rawURL string) uint32 {
	key := method + " " + rawURL
	n.mu.Lock()
	defer n.mu.Unlock()
	if id, ok := n.ids[key]; ok {
		return id
	}
	if len(n.list) >= maxRequestNames {
		return unnamed
	}
	if n.ids == nil {
		n.ids = map[string]uint32{}
	}
	n.list = append(n.list, namedRequest{method, rawURL})
	id := uint32(len(n.list))
	n.ids[key] = id
	return id
}

// Request returns the method and absolute URL that r requested: a redirect hop's or a
// resource's own when the run had Config.NameRequests, else those of its target. ok is false
// for a hop or resource of such a run that came after the run had named 2^20 distinct
// requests; method and url are then its target's. Credentials in the URL are not hidden: see
// urls.Redacted. Safe for concurrent use, during the run too.
func (l *Loader) Request(r *Result) (method, url string, ok bool) {
	ti := int(r.Target)
	method, url, ok = l.targetMethod(ti), l.targetURL(ti), r.Req != unnamed
	if r.Req == 0 || r.Req == unnamed {
		return method, url, ok
	}
	l.names.mu.Lock()
	defer l.names.mu.Unlock()
	if i := int(r.Req) - 1; i < len(l.names.list) {
		return l.names.list[i].method, l.names.list[i].url, true
	}
	return method, url, false
}

// targetMethod is the method of target ti, login steps included.
func (l *Loader) targetMethod(ti int) string {
	if ti < len(l.targets) {
		return l.targets[ti].Method
	}
	return l.cfg.Login[ti-len(l.targets)].Method
}
