package loader

import (
	"bufio"
	"io"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	brrr "github.com/molecule-man/go-brrr"
)

// decoders lends a run's users the decoders of compressed bodies, and the scratch buffers of
// the decode cache, for the time of one body. A decoder is large (a brotli reader that decoded
// a 70 KB page keeps about 210 KB, a gzip reader its 32 KB window and its tables) and a user
// decodes for a small part of its time: kept by each user from its first compressed answer to
// the end of the run, they made the memory of a run on a site that compresses its pages grow
// with its users, where lent, about as many exist as bodies decode at once. Pools hand back
// what the collector has not taken since, so a busy run makes few.
type decoders struct {
	gzip    sync.Pool // *gzip.Reader
	deflate sync.Pool // *deflater
	brotli  sync.Pool // *brrr.Reader
	scratch sync.Pool // *[]byte
	reads   sync.Pool // *bodyRead
	// out counts the decoders and scratch buffers lent and not given back: one a body kept
	// would be held by its user for the rest of the run, unseen (the tests read it). Only
	// compressed bodies and the decode cache's work borrow them.
	out atomic.Int64
}

// maxScratch is the largest scratch buffer given back for reuse: a larger one, grown for a
// large body, is left to the collector rather than held for the run.
const maxScratch = 64 << 10

// lent is what a body borrowed from decoders for the body it reads, given back by giveBack.
type lent struct {
	gz *gzip.Reader
	df *deflater
	br *brrr.Reader
}

// reader returns the reader that decodes src as coding says (a compressed one), borrowing its
// decoder into l.
func (d *decoders) reader(src io.Reader, coding contentCoding, l *lent) (io.Reader, error) {
	if coding.compressed() {
		d.out.Add(1)
	}
	switch coding {
	case codingGzip:
		l.gz, _ = d.gzip.Get().(*gzip.Reader)
		if l.gz == nil {
			l.gz = new(gzip.Reader)
		}
		return l.gz, l.gz.Reset(src)
	case codingDeflate:
		l.df, _ = d.deflate.Get().(*deflater)
		if l.df == nil {
			l.df = new(deflater)
		}
		return l.df.reader(src)
	case codingBrotli:
		l.br, _ = d.brotli.Get().(*brrr.Reader)
		if l.br == nil {
			l.br = brrr.NewReader(src)
		} else {
			l.br.Reset(src)
		}
		return l.br, nil
	}
	return src, nil
}

// giveBack returns what l borrowed, which the body no longer reads.
func (d *decoders) giveBack(l *lent) {
	switch {
	case l.gz != nil:
		d.gzip.Put(l.gz)
	case l.df != nil:
		d.deflate.Put(l.df)
	case l.br != nil:
		d.brotli.Put(l.br)
	default:
		return
	}
	d.out.Add(-1)
	*l = lent{}
}

// buffer lends a scratch buffer, empty, of at least n bytes' capacity.
func (d *decoders) buffer(n int) *[]byte {
	d.out.Add(1)
	p, _ := d.scratch.Get().(*[]byte)
	if p == nil {
		p = new([]byte)
	}
	if cap(*p) < n {
		*p = make([]byte, 0, n)
	}
	*p = (*p)[:0]
	return p
}

// putBuffer gives back a scratch buffer, as it grew; nil does nothing.
func (d *decoders) putBuffer(p *[]byte) {
	if p == nil {
		return
	}
	d.out.Add(-1)
	if cap(*p) <= maxScratch {
		d.scratch.Put(p)
	}
}

// read lends what reading a body takes (see bodyRead).
func (d *decoders) read() *bodyRead {
	if rd, ok := d.reads.Get().(*bodyRead); ok {
		return rd
	}
	return new(bodyRead)
}

// putRead gives back what read lent, keeping only the key's buffer.
func (d *decoders) putRead(rd *bodyRead) {
	*rd = bodyRead{key: rd.key[:0]}
	d.reads.Put(rd)
}

// deflater reads an HTTP "deflate" body: zlib as the standard says, or the raw deflate stream
// some servers send instead, told apart by the zlib header, which peek looks at.
type deflater struct {
	peek   *bufio.Reader
	zl, fl io.ReadCloser
}

func (f *deflater) reader(src io.Reader) (io.Reader, error) {
	if f.peek == nil {
		f.peek = bufio.NewReaderSize(src, 512)
	} else {
		f.peek.Reset(src)
	}
	head, _ := f.peek.Peek(2)
	if len(head) == 2 && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
		if f.zl == nil {
			zl, err := zlib.NewReader(f.peek)
			f.zl = zl
			return zl, err
		}
		return f.zl, f.zl.(zlib.Resetter).Reset(f.peek, nil)
	}
	if f.fl == nil {
		f.fl = flate.NewReader(f.peek)
		return f.fl, nil
	}
	return f.fl, f.fl.(flate.Resetter).Reset(f.peek, nil)
}
