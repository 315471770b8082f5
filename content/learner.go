// Package content fingerprints what the URLs of a run answer, so that two runs (the old stack
// and the new, yesterday and today) can say which pages no longer answer the same. For each URL
// a Learner counts the content types and fingerprints the 2xx answers' decoded bodies: the body
// is cut into small segments (tags, attributes, lines of text), common volatile parts are
// normalised (dates, times, tokens), and the segments of the first answer are kept with a flag
// that later answers clear when they lack the segment. What is left stable was in every answer;
// what varied within the run (a CSRF token, "served in 0.012 s", an ad slot) is learned as
// volatile from the run's own repeated answers, with no pattern to configure. An answer that is
// another page altogether (an error page served now and then with status 200) is counted apart
// as odd instead of wiping out what is stable. The run's credentials are never kept. Compare
// then aligns two runs' segments and names the first stable difference, or a rise of odd
// answers.
package content

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"

	"github.com/webload/webload/mask"
)

// Bounds of what is fingerprinted and kept. A page is fingerprinted up to MaxBody bytes of its
// decoded body. A Learner keeps at most MaxSegments segments and MaxText bytes of their text,
// and at most Options.Keep bytes in all, counting 12 bytes a segment (its hash and end) besides
// its text: 112 KiB at most, about 2.5 times the text of the segments it keeps.
const (
	MaxBody     = 256 << 10
	MaxSegments = 4096
	MaxText     = 64 << 10
	MaxKeep     = MaxText + segmentCost*MaxSegments
)

// keepBudget is what the learners of one run keep at most in all, as allocated (see Learners).
const keepBudget = 256 << 20

// minKeep is the least a learner keeps, however long the URL list: the start of a page. A
// learner that finds less than that left of its run's budget fingerprints nothing.
const minKeep = 2 << 10

// segmentCost is what a kept segment costs besides its text: its hash and end.
const segmentCost = 12

// KeepFor is Options.Keep for a run of urls URLs: MaxKeep, less for lists of more than about
// 2 000 URLs, so that the learners of a long list, each at least 2 KiB (the start of its page),
// share the run's 256 MiB.
func KeepFor(urls int) int {
	if urls <= 0 {
		return MaxKeep
	}
	return min(max(keepBudget/urls, minKeep), MaxKeep)
}

// Options shape what a Learner learns.
type Options struct {
	// Volatile are patterns for what also varies, within one segment (a tag's attribute or a
	// line of text). They are shared, not copied.
	Volatile []*regexp.Regexp
	// Keep bounds the bytes one learner keeps (see MaxKeep); 0 means MaxKeep.
	Keep int
	// Budget bounds the bytes all the learners of one Learners keep, as the allocator gives
	// them (its size classes round each slice up); 0 means 256 MiB.
	Budget int
	// Secrets are the run's credentials (header values, passwords) in every form a page may
	// print them: a page that echoes one, as a debugging endpoint does, has it replaced by
	// "#secret" before anything is kept. A user's own (its --data values, its cookies) are
	// given to the Scanner (Scanner.Hide). Shared, not copied; nil hides none.
	Secrets *mask.Set
	// Hosts are the hosts (with their ports and without) the run's URLs name and its
	// connections go to (--resolve, --connect-to, the proxy): a page's links to its own site
	// name the stack's address, which two stacks under test do not share, so each is replaced
	// by "#host" and the pages of two stacks compare alike. Names shorter than 4 bytes are left
	// alone.
	Hosts []string
}

// Sampling: the first FirstSamples 2xx answers of a URL are fingerprinted, then one in
// SampleEvery, chosen by count (deterministic). Cutting a 31 KiB page costs about as much
// client CPU as requesting it on loopback, so fingerprinting every answer would double a run's
// cost; the first answers teach what varies, and the later ones catch what varies slowly.
const (
	FirstSamples = 8
	SampleEvery  = 64
)

// Learners makes the learners of one run, which share its options and one budget: together they
// keep at most Options.Budget bytes of segments, counted as allocated, however long the URL
// list and however many of its URLs are reached. A learner that finds too little of the budget
// left fingerprints nothing (its Profile has no samples), and says nothing in a comparison.
// Each learner also costs about 250 bytes of its own outside the budget, as a URL's statistics
// do. Safe for concurrent use.
type Learners struct {
	hide    hiding
	keepMax int
	budget  int64
	left    atomic.Int64 // of budget
}

// NewLearners prepares the learners of one run.
func NewLearners(o Options) *Learners {
	if o.Keep <= 0 || o.Keep > MaxKeep {
		o.Keep = MaxKeep
	}
	if o.Budget <= 0 {
		o.Budget = keepBudget
	}
	h := hiding{volatile: o.Volatile, secrets: o.Secrets}
	for _, v := range o.Hosts {
		if len(v) >= 4 {
			h.hosts = append(h.hosts, []byte(v))
		}
	}
	// The longest first, so that "example.com:8080" is replaced whole before "example.com".
	slices.SortFunc(h.hosts, func(a, b []byte) int { return len(b) - len(a) })
	g := &Learners{hide: h, keepMax: o.Keep, budget: int64(o.Budget)}
	g.left.Store(g.budget)
	return g
}

// New makes a learner for one URL.
func (g *Learners) New() *Learner { return &Learner{group: g} }

// Kept is the bytes the learners keep now, as allocated: at most Options.Budget.
func (g *Learners) Kept() int64 { return g.budget - g.left.Load() }

// take books n bytes of the budget, if that many are left.
func (g *Learners) take(n int) bool {
	for {
		v := g.left.Load()
		if int64(n) > v {
			return false
		}
		if g.left.CompareAndSwap(v, v-int64(n)) {
			return true
		}
	}
}

// give returns n bytes to the budget.
func (g *Learners) give(n int) { g.left.Add(int64(n)) }

// Learner learns what one URL answers during a run. It is safe for concurrent use: the users
// fingerprinting the same URL cut their bodies apart, each with its own Scanner, and take its
// lock only to count and to clear flags.
type Learner struct {
	group *Learners

	mu       sync.Mutex
	answers  int64 // 2xx answers seen, fingerprinted or not
	samples  int64 // answers fingerprinted
	types    typeCounts
	first    bool   // the first sample is kept
	claimed  bool   // a user is cutting the first sample apart, whose body hash is bodyHash
	noRoom   bool   // the run's budget had no room for the first sample: nothing is learned
	bodyHash uint64 // of the first sample's body, so identical answers skip the cutting
	segs     segList
	held     int    // bytes of segs as allocated, booked in the group's budget
	refSegs  int    // segments of the first sample, kept or not
	odd      int64  // samples that were another page (see oddOne)
	oddText  string // an excerpt of the first of them
}

// NewLearner makes a learner of its own, in a group of one (see Learners).
func NewLearner(o Options) *Learner { return NewLearners(o).New() }

// Sample books an answer with its status and Content-Type, and tells whether its body is to be
// fingerprinted with Observe: a 2xx answer among the first FirstSamples, then one in
// SampleEvery.
func (l *Learner) Sample(status int, contentType []byte) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.types.add(contentType)
	if status < 200 || status > 299 {
		return false
	}
	n := l.answers
	l.answers++
	return !l.noRoom && (n < FirstSamples || n%SampleEvery == 0)
}

// Observe fingerprints the decoded body of an answer Sample chose, up to MaxBody bytes of it,
// using s for scratch.
func (l *Learner) Observe(s *Scanner, body []byte) {
	body = body[:min(len(body), MaxBody)]
	h := xxhash.Sum64(body)
	l.mu.Lock()
	if l.noRoom {
		l.mu.Unlock()
		return
	}
	// An answer identical to the first teaches nothing, whether that one is kept or still being
	// cut apart by another user: the users of a run often ask for a URL at the same moment.
	if (l.first || l.claimed) && h == l.bodyHash {
		l.samples++
		l.mu.Unlock()
		return
	}
	if !l.first && !l.claimed {
		l.claimed, l.bodyHash = true, h
	}
	l.mu.Unlock()
	s.scan(body, &l.group.hide)
	s.set.fill(s.segs)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.noRoom {
		return
	}
	l.samples++
	if !l.first {
		l.keep(s, h)
		return
	}
	if l.oddOne(s) {
		return
	}
	l.forget(s)
}

// keep makes the scanned body the first sample, up to the bounds and within what is left of the
// run's budget; with less than minKeep left, the URL is not fingerprinted.
func (l *Learner) keep(s *Scanner, bodyHash uint64) {
	l.group.give(l.held)
	l.segs, l.held = segList{}, 0
	l.first, l.bodyHash, l.refSegs = true, bodyHash, len(s.segs)
	for want := l.group.keepMax; ; {
		n, size := 0, 0
		for _, sg := range s.segs {
			t := int(sg.end - sg.off)
			if n == MaxSegments || size+t > MaxText || size+t+segmentCost*(n+1) > want {
				break
			}
			n, size = n+1, size+t
		}
		var b segBuilder
		b.grow(n, size)
		for _, sg := range s.segs[:n] {
			b.addBytes(sg.hash, s.text[sg.off:sg.end])
		}
		segs, cost := b.done()
		if l.group.take(cost) {
			l.segs, l.held = segs, cost
			return
		}
		// Less is left than this takes: what is, less the allocator's rounding, if it is the
		// start of a page.
		if want = min(want/2, int(l.group.left.Load())*7/8); want < minKeep {
			break
		}
	}
	l.first, l.noRoom = false, true
	l.samples, l.odd, l.oddText = 0, 0, ""
}

// forget marks volatile the kept segments that the sample scanned into s lacks. The list is
// made anew, without their text, as the list a profile holds is never changed.
func (l *Learner) forget(s *Scanner) {
	size, missing := 0, false
	for i, v := range l.segs.hashes {
		switch {
		case v == volatileHash:
		case s.set.has(v):
			size += len(l.segs.textOf(i))
		default:
			missing = true
		}
	}
	if !missing {
		return
	}
	var b segBuilder
	b.grow(l.segs.len(), size)
	for i, v := range l.segs.hashes {
		if v != volatileHash && s.set.has(v) {
			b.add(v, l.segs.textOf(i))
		} else {
			b.addVolatile()
		}
	}
	segs, cost := b.done()
	l.group.give(l.held - cost) // never less than before: only text is dropped
	l.segs, l.held = segs, cost
}

// Profile is what the learner has learned so far. It may be called while answers still arrive;
// it shares the learner's segment list, which is never changed, so it copies nothing.
func (l *Learner) Profile() Profile {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Profile{Samples: l.samples, Types: l.types.list(), Odd: l.odd, OddExcerpt: l.oddText, segs: l.segs}
}

// CompileVolatile compiles the --volatile patterns. A pattern that matches the empty string
// ("", "x*") is refused: it would mark every place of every answer, hiding nothing in
// particular and turning each segment into noise.
func CompileVolatile(patterns []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(patterns))
	for _, p := range patterns {
		if p == "" {
			return nil, errors.New(`empty pattern: give a regular expression of what varies, such as "order [0-9]+"`)
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, err
		}
		if re.MatchString("") {
			return nil, fmt.Errorf("pattern %q matches the empty string, so it would mark every place of every answer: give one that matches what varies, such as \"order [0-9]+\"", p)
		}
		out = append(out, re)
	}
	return out, nil
}
