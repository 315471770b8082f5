package loader

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/valyala/fasthttp"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// h2FrameHeaderLen is the length of a frame's header (RFC 9113 4.1).
const h2FrameHeaderLen = 9

// h2InternMax and h2InternMaxValue bound the strings a connection keeps to hand hpack without
// allocating (see keptStrings).
const (
	h2InternMax      = 1024
	h2InternMaxValue = 512
)

// send opens s on the connection for req: it writes the request's head and body, the body as
// the server's flow-control windows allow and until the request's timer fires. The
// connection's slot was reserved.
func (c *h2Conn) send(s *h2Stream, req *fasthttp.Request) error {
	body := req.Body()
	c.lockWrite()
	c.encodeHead(req, len(body))
	c.mu.Lock()
	if c.err != nil || c.goAway {
		c.mu.Unlock()
		_ = c.unlockWrite(nil) // what other writers left goes to the flusher
		return errH2Unusable
	}
	// Stream IDs must go out in order, hence taken under the write lock.
	s.id = c.nextID
	c.nextID += 2
	s.sendWindow = c.initWindow
	maxFrame := int(c.maxFrame)
	c.streams[s.id] = s
	c.mu.Unlock()
	err := c.unlockWrite(c.writeHead(s.id, maxFrame, len(body) == 0))
	if err != nil {
		c.conn.Close() // a frame may be cut: the connection is done for
		return fmt.Errorf("http2: writing the request: %w", err)
	}
	for len(body) > 0 {
		n, err := c.sendRoom(s, min(len(body), maxFrame))
		if err != nil {
			return err
		}
		if n == 0 {
			// The whole answer came before the whole body went: the stream ends here, as the
			// server wants no more of it (RFC 9113 8.1).
			id := s.id
			_ = c.write(func() error { return c.fr.WriteRSTStream(id, http2.ErrCodeNo) })
			return nil
		}
		c.lockWrite()
		err = c.armWrite()
		if err == nil {
			err = c.fr.WriteData(s.id, n == len(body), body[:n])
		}
		if err = c.unlockWrite(err); err != nil {
			c.conn.Close()
			return fmt.Errorf("http2: writing the request's body: %w", err)
		}
		body = body[n:]
	}
	return nil
}

// sendRoom waits until the stream and the connection have room for up to want bytes of body
// and takes them from both windows. It returns 0 when the answer already ended (the server
// answered without reading the whole body).
func (c *h2Conn) sendRoom(s *h2Stream, want int) (int, error) {
	c.mu.Lock()
	for {
		switch {
		case c.err != nil:
			err := c.err
			c.mu.Unlock()
			return 0, err
		case s.err != nil:
			err := s.err
			c.mu.Unlock()
			return 0, err
		case s.headers && s.ended:
			c.mu.Unlock()
			return 0, nil
		}
		if n := min(want, int(c.sendWindow), int(s.sendWindow)); n > 0 {
			c.sendWindow -= int32(n)
			s.sendWindow -= int32(n)
			c.mu.Unlock()
			return n, nil
		}
		if c.flowWait == nil {
			c.flowWait = make(chan struct{})
		}
		grown := c.flowWait
		c.mu.Unlock()
		if s.late {
			return 0, errH2Timeout
		}
		select {
		case <-grown:
		case <-s.wake:
			// The answer, or a failure, came: looked at above. awaitHead and read look at
			// the stream before they wait, so the signal is not given again, which would
			// wake this loop at once, for ever, while the window stays shut.
		case <-s.timer.C:
			s.late = true
			return 0, errH2Timeout
		}
		c.mu.Lock()
	}
}

// encodeHead encodes req's head into c.hbuf; c.wmu is held. A head the same as the last one,
// whose block referred to the encoder's table only, is that block again: such a block leaves
// the table as it was, so encoding the same head anew would give the same bytes. Users that
// send the same URL over one connection send the same head, and encoding it was the largest
// part of sending a request.
func (c *h2Conn) encodeHead(req *fasthttp.Request, bodyLen int) {
	h := &req.Header
	https := string(req.URI().Scheme()) == "https"
	method := string(h.Method()) // compared, not kept: no allocation
	withLength := bodyLen > 0 || method == "POST" || method == "PUT" || method == "PATCH"
	// The key holds every part the block is made of, each after its length, so that no two
	// heads share a key whatever bytes their values hold.
	key := binary.AppendUvarint(c.headKey[:0], uint64(len(h.Method())))
	key = append(key, h.Method()...)
	key = binary.AppendUvarint(key, uint64(len(h.Host())))
	key = append(key, h.Host()...)
	key = binary.AppendUvarint(key, uint64(len(h.RequestURI())))
	key = append(key, h.RequestURI()...)
	switch {
	case https && withLength:
		key = binary.AppendUvarint(append(key, 3), uint64(bodyLen))
	case https:
		key = append(key, 2)
	case withLength:
		key = binary.AppendUvarint(append(key, 1), uint64(bodyLen))
	default:
		key = append(key, 0)
	}
	for k, v := range h.All() {
		key = binary.AppendUvarint(key, uint64(len(k)))
		key = append(key, k...)
		key = binary.AppendUvarint(key, uint64(len(v)))
		key = append(key, v...)
	}
	if c.headIndexed && string(key) == string(c.lastHead) {
		c.headKey = key
		c.hbuf.Reset()
		c.hbuf.Write(c.headBlock)
		return
	}
	c.hbuf.Reset()
	c.field(":method", h.Method())
	if https {
		c.writeField(":scheme", "https")
	} else {
		c.writeField(":scheme", "http")
	}
	c.field(":authority", h.Host())
	c.field(":path", h.RequestURI())
	for k, v := range h.All() {
		if connectionHeader(k) {
			continue
		}
		c.lower = append(c.lower[:0], k...)
		for i, b := range c.lower {
			if 'A' <= b && b <= 'Z' {
				c.lower[i] = b + 'a' - 'A'
			}
		}
		c.writeField(c.intern.str(c.lower), c.intern.str(v))
	}
	if withLength {
		c.lower = strconv.AppendInt(c.lower[:0], int64(bodyLen), 10)
		c.writeField("content-length", c.intern.str(c.lower))
	}
	c.headKey, c.lastHead = c.lastHead, key // the buffers change places
	c.headBlock = append(c.headBlock[:0], c.hbuf.Bytes()...)
	c.headIndexed = hpackIndexedOnly(c.headBlock)
}

// hpackIndexedOnly tells whether a header block holds indexed fields only (RFC 7541 6.1):
// no literal that the decoder's table takes, and no change of the table's size.
func hpackIndexedOnly(block []byte) bool {
	for len(block) > 0 {
		if block[0]&0x80 == 0 {
			return false
		}
		_, rest, err := hpackInt(7, block)
		if err != nil {
			return false
		}
		block = rest
	}
	return true
}

// field encodes one pseudo-field of the head.
func (c *h2Conn) field(name string, value []byte) { c.writeField(name, c.intern.str(value)) }

func (c *h2Conn) writeField(name, value string) {
	_ = c.enc.WriteField(hpack.HeaderField{Name: name, Value: value}) // writes to a bytes.Buffer
}

// writeHead writes the encoded head as a HEADERS frame and as many CONTINUATION frames as
// the server's frame size needs; c.wmu is held. A head that bw holds reaches the socket
// through the flusher, which bounds its own writes: the write deadline is looked at only
// when bw would have to write the head out itself, which spares most requests two clock
// readings.
func (c *h2Conn) writeHead(id uint32, maxFrame int, endStream bool) error {
	block := c.hbuf.Bytes()
	frames := max(1, (len(block)+maxFrame-1)/maxFrame)
	if len(block)+frames*h2FrameHeaderLen > c.bw.Available() {
		if err := c.armWrite(); err != nil {
			return err
		}
	}
	frag := block[:min(len(block), maxFrame)]
	block = block[len(frag):]
	err := c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: frag,
		EndStream: endStream, EndHeaders: len(block) == 0})
	for err == nil && len(block) > 0 {
		frag = block[:min(len(block), maxFrame)]
		block = block[len(frag):]
		err = c.fr.WriteContinuation(id, len(block) == 0, frag)
	}
	return err
}
