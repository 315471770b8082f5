package content

import (
	"bytes"
	"regexp"

	"github.com/cespare/xxhash/v2"

	"github.com/webload/webload/mask"
)

// MaxSegment is the longest segment, in bytes of the body: a longer line of text is cut at its
// last space before it, so that one changed word does not make a whole paragraph differ.
const MaxSegment = 256

// segment is one piece of a scanned body: its normalised text is text[off:end] of the Scanner
// that cut it.
type segment struct {
	hash     uint64
	off, end int32
}

// Scanner cuts bodies into segments for a learner. It holds one goroutine's scratch space, reused
// from body to body so that a fingerprint allocates nothing once the buffers have grown: it is
// not safe for concurrent use; give each goroutine its own. The zero value is ready.
type Scanner struct {
	text []byte    // the normalised texts of the last body's segments, back to back
	segs []segment // the last body's segments
	raw  []byte    // a segment after the --volatile patterns, before normalising
	attr []byte    // a tag's name and one of its attributes
	set  hashSet   // the last body's segment hashes, for a learner to look up
	own  mask.Set  // the credentials of the user whose body is observed next (see Hide)
}

// Hide sets the credentials of the user whose answer is observed next (its --data values,
// the cookies it was given), to be replaced by "#secret" in every form a page may print them,
// besides the run's own (Options.Secrets). They hold until the next call.
func (s *Scanner) Hide(values ...string) {
	s.own.Reset()
	for _, v := range values {
		s.own.Add(v)
	}
}

// scan cuts body into segments without an HTML parser: a tag's name and each of its attributes
// are segments of their own (so that a value="token" varies alone), and text between tags is cut
// at newlines and at MaxSegment. Each segment is normalised (see normalise) and hashed.
func (s *Scanner) scan(body []byte, hide *hiding) {
	s.text, s.segs = s.text[:0], s.segs[:0]
	for i := 0; i < len(body); {
		if body[i] != '<' {
			j := bytes.IndexByte(body[i:], '<')
			if j < 0 {
				j = len(body) - i
			}
			s.textRun(body[i:i+j], hide)
			i += j
			continue
		}
		if bytes.HasPrefix(body[i:], []byte("<!--")) {
			// A comment is left out: no visitor sees it, and servers write into it what differs
			// between two healthy stacks yet stays the same within a run, so that no run can learn
			// it varies: a cached page's timing report, a cache key naming the database, a host.
			j := bytes.Index(body[i+4:], []byte("-->"))
			if j < 0 {
				j = len(body) - i - 4
			}
			i += 4 + j + 3
			continue
		}
		j := bytes.IndexByte(body[i:], '>')
		if j < 0 {
			j = len(body) - i - 1
		}
		t := body[i : i+j+1]
		s.tag(t, hide)
		i += j + 1
		// A script's or a style's text is left out, as comments are: it is not what a visitor
		// reads, and pages put there what differs between healthy stacks yet stays the same
		// within a run (MediaWiki's parse report with its timings, build and cache ids).
		for _, name := range rawTextTags {
			// A body cut short after "<script" has no byte after the name: it ends the body.
			if len(t) > 1+len(name) && bytes.EqualFold(t[1:1+len(name)], name) && (t[1+len(name)] == '>' || isSpace(t[1+len(name)])) {
				i += closingTag(body[i:], name)
				break
			}
		}
	}
}

// rawTextTags are the elements whose text the scanner leaves out.
var rawTextTags = [][]byte{[]byte("script"), []byte("style")}

// closingTag is the offset in b of the "</name" that ends a raw text element (any case), or
// len(b) when there is none.
func closingTag(b, name []byte) int {
	for k := 0; ; {
		j := bytes.Index(b[k:], []byte("</"))
		if j < 0 {
			return len(b)
		}
		k += j
		if len(b)-k-2 >= len(name) && bytes.EqualFold(b[k+2:k+2+len(name)], name) {
			return k
		}
		k += 2
	}
}

// tag cuts one tag, from '<' to '>', into its name and its attributes, each attribute after
// the tag's name (`<input value="..."`): it reads as markup, and says where it was.
func (s *Scanner) tag(t []byte, hide *hiding) {
	k := 1
	for k < len(t) && !isSpace(t[k]) && t[k] != '>' {
		k++
	}
	name := t[:min(k, MaxSegment/4)]
	if k < len(t) && t[k] == '>' {
		k++ // "</div>" and "<p>" are whole
	}
	s.add(t[:k], hide)
	for k < len(t) {
		for k < len(t) && (isSpace(t[k]) || t[k] == '>' || t[k] == '/') {
			k++
		}
		start := k
		for k < len(t) && !isSpace(t[k]) && t[k] != '>' {
			if q := t[k]; q == '"' || q == '\'' {
				end := bytes.IndexByte(t[k+1:], q)
				if end < 0 {
					k = len(t)
					break
				}
				k += end + 1
			}
			k++
		}
		if k > start {
			s.attr = append(append(append(s.attr[:0], name...), ' '), t[start:min(k, len(t))]...)
			s.add(s.attr, hide)
		}
	}
}

// textRun cuts text between tags at newlines, and lines at MaxSegment.
func (s *Scanner) textRun(t []byte, hide *hiding) {
	for len(t) > 0 {
		line := t
		if j := bytes.IndexByte(t, '\n'); j >= 0 {
			line, t = t[:j], t[j+1:]
		} else {
			t = nil
		}
		for len(line) > MaxSegment {
			cut := bytes.LastIndexByte(line[:MaxSegment], ' ')
			if cut <= 0 {
				cut = MaxSegment
			}
			s.add(line[:cut], hide)
			line = line[cut:]
		}
		s.add(line, hide)
	}
}

// add normalises one segment and keeps it unless nothing but space is left of it. A tag's
// name or attribute longer than MaxSegment is cut into pieces of that length.
func (s *Scanner) add(seg []byte, hide *hiding) {
	for len(seg) > MaxSegment {
		s.add(seg[:MaxSegment], hide)
		seg = seg[MaxSegment:]
	}
	if hide != nil && (len(hide.volatile) > 0 || !hide.secrets.Empty() || !s.own.Empty() || len(hide.hosts) > 0) {
		seg = hide.apply(s.raw[:0], seg, &s.own)
		s.raw = seg
	}
	off := len(s.text)
	s.text = normalise(s.text, seg)
	if len(s.text) == off {
		return
	}
	s.segs = append(s.segs, segment{hash: hashText(s.text[off:]), off: int32(off), end: int32(len(s.text))})
}

// hiding is what is taken out of segments before they are normalised: the --volatile patterns'
// matches, the run's secrets and its hosts.
type hiding struct {
	volatile []*regexp.Regexp
	secrets  *mask.Set
	hosts    [][]byte // longest first
}

// apply appends seg to dst with the run's secrets and the user's own (in every form) replaced
// by "#secret", the hosts by "#host" and the patterns' matches by "#v", and returns it.
func (h *hiding) apply(dst, seg []byte, own *mask.Set) []byte {
	dst = h.secrets.Append(dst, seg)
	dst = own.Bytes(dst)
	for _, v := range h.hosts {
		if bytes.Contains(dst, v) {
			dst = bytes.ReplaceAll(dst, v, []byte("#host"))
		}
	}
	for _, re := range h.volatile {
		if re.Match(dst) {
			dst = re.ReplaceAll(dst, []byte("#v"))
		}
	}
	return dst
}

// hashText is a segment's hash. Zero marks a volatile segment in a Profile, so no text hashes
// to it.
func hashText(b []byte) uint64 {
	h := xxhash.Sum64(b)
	if h == volatileHash {
		h = 1
	}
	return h
}

// volatileHash stands for a segment that varied within its run.
const volatileHash = 0

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// hashSet is a set of segment hashes: open addressing over a table reused from body to body.
// Hash 0 marks an empty slot; a segment's hash is never 0 (see hashText).
type hashSet struct {
	slots []uint64
	mask  uint64
}

// fill makes the set hold exactly segs' hashes.
func (h *hashSet) fill(segs []segment) {
	size := 16
	for size < 2*len(segs) {
		size *= 2
	}
	if cap(h.slots) < size {
		h.slots = make([]uint64, size)
	} else {
		h.slots = h.slots[:size]
		clear(h.slots)
	}
	h.mask = uint64(size - 1)
	for i := range segs {
		v := segs[i].hash
		for j := v & h.mask; ; j = (j + 1) & h.mask {
			if h.slots[j] == v {
				break
			}
			if h.slots[j] == 0 {
				h.slots[j] = v
				break
			}
		}
	}
}

// has tells whether v is in the set.
func (h *hashSet) has(v uint64) bool {
	if len(h.slots) == 0 {
		return false
	}
	for j := v & h.mask; ; j = (j + 1) & h.mask {
		switch h.slots[j] {
		case v:
			return true
		case 0:
			return false
		}
	}
}
