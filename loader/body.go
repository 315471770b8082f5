package loader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// decodeCheck is how many decoded bytes pass between two looks at the clock. A compressed body
// can decode for seconds from bytes that have all arrived, where the connection's read deadline
// never fires; reading the clock per read instead would cost on every body.
const decodeCheck = 256 << 10

// maxParsed is how much of an HTML page (decoded) is kept for finding its resources. Pages are
// rarely larger; a longer one is still read and counted to its end, only not parsed past this.
const maxParsed = 2 << 20

// body reads response bodies for one goroutine. It counts each body as received and, when
// the server compressed it, as decoded, and keeps the decoded start of an HTML page for the
// parser. Its decoders are borrowed from the run's for the time of a compressed body (see
// decoders), so plain bodies cost nothing extra.
type body struct {
	maxBody  int64     // Config.MaxBody: a cap on the bytes received and on the bytes decoded, 0 for none
	deadline time.Time // when the request's time is up, set before each read; zero for none
	page     []byte    // the kept start of the last HTML page read with keep set, in buf
	// buf is the page buffer lent by pages from the start of a kept body until release; nil
	// when the body holds none. Held as a pointer so that giving it back allocates nothing.
	buf   *[]byte
	pages *sync.Pool // the page buffers the users share; nil: the body makes its own
	// hold, when above 0, is how many bytes of the decoded body the response's checks read:
	// read keeps that much of it in the page buffer, in held, for the checks to judge once the
	// response's time was taken, so that matching costs the client, never the server's time.
	// 0 for a response without body checks, which is read as fast as before.
	hold int
	held []byte // after read: the decoded body's first hold bytes, all of it when shorter
	keep bool   // read was asked to keep the page: the buffer stays borrowed after the checks

	// decoded, when set, spares decoding a compressed body that uri's last one repeats byte
	// for byte.
	decoded *decodeCache
	uri     *fasthttp.URI // the request's, set before each read

	// rd is what reading the current body takes, lent by dec from begin to end; nil between
	// bodies.
	rd *bodyRead
	// dec lends the decoders, the decode cache's scratch (cmp, the recorder's buffer) and rd
	// for the time of one body; nil: the body makes its own.
	dec *decoders
}

// bodyRead is what reading one body takes and nothing keeps after it: the readers stacked on
// the body, the decoder borrowed, the decode cache's key and scratch. Lent for the time of a
// read rather than kept in body: a user waiting for its answer holds its body all the while,
// and in the open model as many users wait as requests are in flight, 264 bytes each.
type bodyRead struct {
	mem bytes.Reader // a body fasthttp read whole, when a check must see it decoded

	// key and cmp are scratch for the decode cache's key and for the compared bytes, rec
	// records a body to keep while it is decoded.
	key []byte
	cmp *[]byte
	rec recorder

	counted counter
	guard   guard
	lent    lent
}

// begin borrows what reading a body takes, given back by end.
func (b *body) begin() *bodyRead {
	b.rd = b.decoders().read()
	return b.rd
}

// end gives back what begin borrowed; the body read since is no longer read.
func (b *body) end() {
	b.dec.putRead(b.rd)
	b.rd = nil
}

// bodySize is what reading a body found.
type bodySize struct {
	received int64 // bytes of the body as they arrived (de-chunked, still compressed)
	decoded  int64 // bytes after decoding the content encoding; received when there is none
}

// read reads resp's body to its end (or the cap) without keeping it, except the start of it in
// b.page when keep is set and up to b.hold bytes in b.held, in a buffer held until release. A
// body that fails half way makes the whole request a failure, and so does a compressed body that
// does not decode.
func (b *body) read(resp *fasthttp.Response, keep bool) (bodySize, error) {
	b.page, b.held, b.keep = b.page[:0], nil, false
	if b.buf == nil {
		b.page = nil // a page lent by the decode cache, never written to
	}
	stream := resp.BodyStream()
	if stream == nil {
		n := int64(len(resp.Body()))
		if b.hold == 0 {
			return bodySize{n, n}, nil
		}
		rd := b.begin()
		defer b.end()
		rd.mem.Reset(resp.Body())
		rd.counted = counter{r: &rd.mem}
		size, err := b.decode(resp.Header.ContentEncoding(), false)
		return bodySize{n, size.decoded}, err
	}
	var src io.Reader = stream
	if b.maxBody > 0 {
		src = io.LimitReader(stream, b.maxBody+1)
	}
	rd := b.begin()
	defer b.end()
	rd.counted = counter{r: src}
	var size bodySize
	var err error
	if n, ok := b.whole(stream, resp.Header.ContentEncoding(), keep); ok {
		rd.counted.n, size.decoded = n, n
	} else {
		size, err = b.decode(resp.Header.ContentEncoding(), keep)
	}
	size.received = rd.counted.n
	if b.maxBody > 0 && size.received > b.maxBody {
		size.received, err = b.maxBody, errTooLarge
	}
	if b.maxBody > 0 && size.decoded > b.maxBody {
		size.decoded = b.maxBody // the byte past the cap that told the body was longer
	}
	// Closing with an error drops the connection: the rest of the body is still on it.
	if c, ok := stream.(fasthttp.ReadCloserWithError); ok {
		_ = c.CloseWithError(err)
	} else {
		_ = resp.CloseBodyStream()
	}
	return size, err
}

// wholeBody is a body stream that may hold the whole body already: an HTTP/2 answer whose
// stream ended, which its connection's reader took in.
type wholeBody interface {
	// discardWhole drops the body and returns its length, as reading it to its end would,
	// when it came whole, without fault and within max bytes (0 for no bound); otherwise it
	// reads nothing and returns false.
	discardWhole(max int64) (int64, bool)
}

// whole counts and drops a body that came whole and that nothing reads, the bytes being the
// body (no content coding to decode): reading it through the counter and io.Copy took a
// pooled buffer and two reads under the connection's lock for what is often a few hundred
// bytes. It tells whether it did.
func (b *body) whole(stream io.Reader, encoding []byte, keep bool) (int64, bool) {
	w, ok := stream.(wholeBody)
	if !ok || keep || b.hold > 0 || codingOf(encoding).compressed() {
		return 0, false
	}
	return w.discardWhole(b.maxBody)
}

// decode reads the counted body through the decoder its encoding needs, or takes its figures
// from the decode cache when the body repeats one kept there.
func (b *body) decode(encoding []byte, keep bool) (bodySize, error) {
	coding := codingOf(encoding)
	rd := b.rd
	var src io.Reader = &rd.counted
	var kept *decodedBody
	record := false
	if b.decoded != nil && b.uri != nil && b.hold == 0 && coding.compressed() {
		defer b.giveBackScratch() // only the decode cache's work borrows scratch
		rd.key = b.uri.AppendBytes(rd.key[:0])
		var room bool
		switch kept, room = b.decoded.get(rd.key); {
		case kept == nil:
			record = room
		case !kept.changed && kept.coding == coding && (kept.paged || !keep):
			var same bool
			if same, src = b.compare(kept); same {
				b.decoded.hits.Add(1)
				if keep {
					// Lent, not copied: what reads a kept page only reads it, and the
					// capacity cut to its length keeps an append from writing into it.
					b.release()
					b.page = kept.page[:len(kept.page):len(kept.page)]
				}
				return bodySize{decoded: kept.size}, nil
			}
		default:
			kept = nil // decoded as it comes: a changing body, or one kept otherwise
		}
	}
	if record {
		rd.rec.start(src, b.decoded.limits.body, b.decoders().buffer(0))
		src = &rd.rec
	}
	size, err := b.decodeFrom(src, coding, keep)
	switch {
	case err != nil || (!record && kept == nil):
	case record && !rd.rec.over && len(rd.rec.buf) > 0:
		b.decoded.decodes.Add(1)
		b.decoded.keep(rd.key, coding, rd.rec.buf, size.decoded, b.page, keep)
	case kept != nil && rd.counted.n > 0:
		// An empty body (a HEAD's, a 304's) says nothing of the page that URL serves.
		b.decoded.decodes.Add(1)
		b.decoded.changed(rd.key)
	}
	return size, err
}

// decoders is the run's decoders, or the body's own when it has none.
func (b *body) decoders() *decoders {
	if b.dec == nil {
		b.dec = new(decoders)
	}
	return b.dec
}

// giveBackScratch gives back the scratch buffers the decode cache's work borrowed for a body.
func (b *body) giveBackScratch() {
	rd := b.rd
	if rd.cmp != nil {
		b.dec.putBuffer(rd.cmp)
		rd.cmp = nil
	}
	if rd.rec.lent != nil {
		*rd.rec.lent = rd.rec.buf[:0] // the buffer as it grew
		b.dec.putBuffer(rd.rec.lent)
		rd.rec.lent, rd.rec.buf = nil, nil
	}
}

// contentCoding is a body's Content-Encoding as the body reads it, told apart once a body.
type contentCoding uint8

const (
	codingIdentity contentCoding = iota // none, or "identity": the bytes are the body
	codingGzip                          // gzip and x-gzip
	codingDeflate                       // zlib, or the raw deflate some servers send
	codingBrotli
	codingOther // one this client did not ask for: counted as received, not decoded
)

func codingOf(encoding []byte) contentCoding {
	switch {
	case len(encoding) == 0, bytes.EqualFold(encoding, []byte("identity")):
		return codingIdentity
	case bytes.EqualFold(encoding, []byte("gzip")), bytes.EqualFold(encoding, []byte("x-gzip")):
		return codingGzip
	case bytes.EqualFold(encoding, []byte("deflate")):
		return codingDeflate
	case bytes.EqualFold(encoding, []byte("br")):
		return codingBrotli
	}
	return codingOther
}

func (c contentCoding) String() string {
	switch c {
	case codingIdentity:
		return "identity"
	case codingGzip:
		return "gzip"
	case codingDeflate:
		return "deflate"
	case codingBrotli:
		return "br"
	}
	return "other"
}

// compressed tells whether the body decodes bodies of this coding.
func (c contentCoding) compressed() bool {
	return c == codingGzip || c == codingDeflate || c == codingBrotli
}

// compare reads the counted body while it repeats kept's compressed bytes. same tells that it
// did to its end; otherwise rest gives the whole body again: the bytes read, which are kept's
// so far and the chunk that differed, then the rest of it as the counted body goes on.
func (b *body) compare(kept *decodedBody) (same bool, rest io.Reader) {
	const size = 4 << 10
	rd := b.rd
	if rd.cmp == nil {
		rd.cmp = b.decoders().buffer(size)
	}
	buf := (*rd.cmp)[:size]
	want, off := kept.compressed, 0
	for {
		n, err := rd.counted.Read(buf)
		if n > len(want)-off || !bytes.Equal(buf[:n], want[off:off+n]) {
			return false, b.resume(want[:off], buf[:n], err)
		}
		off += n
		if errors.Is(err, io.EOF) && off == len(want) {
			return true, nil
		}
		if err != nil {
			return false, b.resume(want[:off], nil, err)
		}
	}
}

// resume is a body read in part: read, then more, then whatever the counted body still has
// unless err ended it.
func (b *body) resume(read, more []byte, err error) io.Reader {
	parts := []io.Reader{bytes.NewReader(read), bytes.NewReader(more)}
	switch {
	case err == nil:
		parts = append(parts, &b.rd.counted)
	case !errors.Is(err, io.EOF):
		parts = append(parts, failed{err})
	}
	return io.MultiReader(parts...)
}

// failed is a reader that failed with err.
type failed struct{ err error }

func (f failed) Read([]byte) (int, error) { return 0, f.err }

// recorder copies the bytes read through it, up to a bound past which it gives up.
type recorder struct {
	r    io.Reader
	buf  []byte
	lent *[]byte // the scratch buf began as, given back when the body is read
	max  int
	over bool
}

func (r *recorder) start(src io.Reader, max int, scratch *[]byte) {
	r.r, r.buf, r.lent, r.max, r.over = src, (*scratch)[:0], scratch, max, false
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if !r.over {
		if len(r.buf)+n > r.max {
			r.over, r.buf = true, r.buf[:0]
		} else {
			r.buf = append(r.buf, p[:n]...)
		}
	}
	return n, err
}

// decodeFrom reads src, the counted body or what stands for it, through the decoder its
// coding needs, borrowed for the time of the body.
func (b *body) decodeFrom(src io.Reader, coding contentCoding, keep bool) (bodySize, error) {
	r, decoding := src, coding.compressed()
	if decoding {
		rd := b.rd
		d, err := b.decoders().reader(src, coding, &rd.lent)
		defer b.dec.giveBack(&rd.lent)
		if err != nil {
			if b.empty() {
				return bodySize{}, nil
			}
			if coding == codingGzip && rd.counted.err != nil {
				return bodySize{}, rd.counted.err // the connection broke in the gzip header
			}
			return bodySize{}, fmt.Errorf("decoding %s body: %w", coding, errBadEncoding{err})
		}
		rd.guard = guard{r: d, max: b.maxBody, deadline: b.deadline, check: decodeCheck}
		r = &rd.guard
	}
	n, err := b.drain(r, keep)
	if err == nil && decoding {
		// A brotli or deflate decoder stops at the end of its stream; what follows it in the
		// body (the end of a chunked body, or bytes a server sent after the stream) is read
		// too, as received, or the connection could not carry the next request.
		_, err = io.Copy(io.Discard, src)
	}
	if err != nil && decoding && b.empty() {
		return bodySize{}, nil
	}
	if err != nil && decoding && b.rd.counted.err == nil && !errors.Is(err, errTooLarge) &&
		!errors.Is(err, errDecodeTimeout) {
		err = errBadEncoding{err} // the bytes arrived but do not decode
	}
	return bodySize{decoded: n}, err
}

// guard ends the decoding of a body at MaxBody decoded bytes or at the request's deadline.
type guard struct {
	r        io.Reader
	n        int64 // bytes decoded so far
	max      int64 // 0 for no cap
	deadline time.Time
	check    int64 // n at which the clock is read next
}

func (g *guard) Read(p []byte) (int, error) {
	if g.max > 0 && int64(len(p)) > g.max-g.n+1 {
		p = p[:g.max-g.n+1] // one byte past the cap tells that the body is longer
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	if g.max > 0 && g.n > g.max {
		return n, errTooLarge
	}
	if g.n >= g.check && !g.deadline.IsZero() {
		g.check = g.n + decodeCheck
		if time.Now().After(g.deadline) {
			return n, errDecodeTimeout
		}
	}
	return n, err
}

// empty tells whether the body ended cleanly before its first byte. Browsers take an empty body
// as empty whatever its Content-Encoding says, though no decoder accepts zero bytes.
func (b *body) empty() bool { return b.rd.counted.n == 0 && b.rd.counted.err == nil }

// drain reads r to its end, keeping up to maxParsed bytes in b.page when keep is set and up
// to b.hold bytes in b.held for the checks. Both are views of one buffer, filled once.
func (b *body) drain(r io.Reader, keep bool) (int64, error) {
	limit := b.hold
	if keep {
		limit = max(limit, maxParsed)
	}
	if limit == 0 {
		return io.Copy(io.Discard, r)
	}
	if b.buf == nil {
		b.take()
	}
	b.keep = keep
	n, err := b.fill(r, limit)
	if b.hold > 0 {
		b.held = b.page[:min(len(b.page), b.hold)]
	}
	if keep {
		b.page = b.page[:min(len(b.page), maxParsed)]
	} else {
		b.page = b.page[:0] // nothing for the parser: a JSON answer is no page
	}
	return n, err
}

// fill reads r to its end into b.page, keeping its first limit bytes there and counting the
// rest. The buffer grows as the body does, so a short body takes little of a pooled one.
func (b *body) fill(r io.Reader, limit int) (int64, error) {
	var n int64
	for {
		if len(b.page) == limit {
			m, err := io.Copy(io.Discard, r)
			return n + m, err
		}
		if len(b.page) == cap(b.page) {
			b.page = slices.Grow(b.page, min(max(cap(b.page), 32<<10), limit-len(b.page)))
		}
		m, err := r.Read(b.page[len(b.page):min(cap(b.page), limit)])
		b.page = b.page[:len(b.page)+m]
		n += int64(m)
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// checked lets go of the body held for the checks once they are judged: its buffer serves
// other users at once, unless it holds a page kept for the parser, the rules or a fingerprint.
func (b *body) checked() {
	b.hold, b.held = 0, nil
	if !b.keep {
		b.release()
	}
}

// take borrows a page buffer for the body about to be kept.
func (b *body) take() {
	if b.pages != nil {
		if buf, ok := b.pages.Get().(*[]byte); ok {
			b.buf, b.page = buf, (*buf)[:0]
			return
		}
	}
	b.buf, b.page = new([]byte), nil
}

// release gives the page buffer back once the kept page is parsed or fingerprinted; b.page
// is empty after it. A user needs a buffer only from the start of an HTML body to the end of
// its parse, a small part of its time, so a few buffers serve hundreds of users, where each
// keeping its own held 64 KiB or more for the whole run.
func (b *body) release() {
	if b.buf == nil {
		b.page = nil // none, or one lent by the decode cache
		return
	}
	*b.buf = b.page[:0] // the buffer as it grew
	if b.pages != nil {
		b.pages.Put(b.buf)
	}
	b.buf, b.page = nil, nil
}

// counter counts the bytes read through it and remembers a read error, which tells a broken
// connection from a body that does not decode.
type counter struct {
	r   io.Reader
	n   int64
	err error
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && !errors.Is(err, io.EOF) {
		c.err = err
	}
	return n, err
}

// errBadEncoding marks a body whose bytes arrived but do not decode as its Content-Encoding
// says; it is classified as a bad response.
type errBadEncoding struct{ err error }

func (e errBadEncoding) Error() string { return "body does not decode: " + e.err.Error() }
func (e errBadEncoding) Unwrap() error { return e.err }

// errTooLarge marks a body cut off at MaxBody.
var errTooLarge = fasthttp.ErrBodyTooLarge

// errDecodeTimeout marks a body whose decoding ran past the request's timeout; it is a timeout.
var errDecodeTimeout = fmt.Errorf("decoding the body: %w", fasthttp.ErrTimeout)

// isHTML tells whether a Content-Type is an HTML page, whose resources a browser fetches.
func isHTML(contentType []byte) bool {
	return hasPrefixFold(contentType, "text/html") || hasPrefixFold(contentType, "application/xhtml+xml")
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && bytes.EqualFold(b[:len(prefix)], []byte(prefix))
}
