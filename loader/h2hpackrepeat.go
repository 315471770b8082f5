package loader

import (
	"bytes"

	"golang.org/x/net/http2/hpack"
)

// A server answering the same URL sends the same header block again and again: nginx's
// differ only when its Date does, once a second. Decoding such a block again gives the same
// fields and does the same to the table whenever what it reads of the table is the same, so
// hpackReader.block gives the fields of the last block again and replays its additions to
// the table instead of decoding it: the mirror of what encodeHead does for the requests.

// hpackMaxRepeat bounds the block kept for repeating: a frame's worth, as only blocks that
// come whole in one HEADERS frame are kept.
const hpackMaxRepeat = h2MaxReadFrame

// hpackBlock is a whole header block as decoding it went.
type hpackBlock struct {
	bytes  []byte
	fields []hpack.HeaderField // the fields it gave, in order
	adds   []hpack.HeaderField // the fields it added to the dynamic table, in order
	// static tells that it refers to no entry of the dynamic table, only to the static one
	// and to literals: its fields are the same whatever the table holds.
	static bool
	// gen is the table's generation when it was decoded: a block that reads the dynamic
	// table gives the same fields only from the same table.
	gen uint64
	// id names the fields, for those who draw conclusions from them (see block); 0 for none.
	id uint64
}

// hpackRecording is what decoding a whole block keeps of it as it goes, for hpackReader.last.
type hpackRecording struct {
	on    bool
	unfit bool // it cannot be repeated: a size update, or fields the decoder did not give
	block hpackBlock
	ids   uint64 // the last id given
}

// block decodes p, a whole header block, as Write and Close would. When p repeats the last
// whole block byte for byte, and that block's fields do not depend on what changed in the
// table since, it gives that block's fields again and adds to the table what that block
// added, without decoding. id is non-zero when the fields emitted are the last block's
// (repeated, or just decoded and kept): the same id, the same fields, so conclusions drawn
// from them hold.
func (d *hpackReader) block(p []byte) (id uint64, err error) {
	if !d.first || len(d.saved) > 0 {
		// Not at a block's start: the block did not come whole after all.
		if err := d.Write(p); err != nil {
			return 0, err
		}
		return 0, d.Close()
	}
	if l := &d.last; l.id != 0 && (l.static || l.gen == d.gen) && bytes.Equal(p, l.bytes) {
		for _, f := range l.adds {
			d.add(f)
		}
		for _, f := range l.fields {
			if err := d.take(f); err != nil {
				return 0, err // never: the same fields passed the same bounds
			}
		}
		return l.id, nil
	}
	r := &d.rec
	r.on, r.unfit = true, len(p) > hpackMaxRepeat || !d.emitEnabled
	r.block.bytes, r.block.fields, r.block.adds = r.block.bytes[:0], r.block.fields[:0], r.block.adds[:0]
	r.block.static, r.block.gen = true, d.gen
	err = d.Write(p)
	if err == nil {
		err = d.Close()
	}
	r.on = false
	if err != nil || r.unfit {
		return 0, err
	}
	r.ids++
	r.block.bytes = append(r.block.bytes, p...)
	r.block.id = r.ids
	d.last, r.block = r.block, d.last // the buffers change places
	return d.last.id, nil
}

// recordField notes a field taken while a block is recorded, before it is emitted.
func (d *hpackReader) recordField(f hpack.HeaderField) {
	if d.emitEnabled {
		d.rec.block.fields = append(d.rec.block.fields, f)
	} else {
		d.rec.unfit = true // a field the decoder did not give: the record would lack it
	}
}

// changed notes a change of the dynamic table: blocks that read it must be decoded again.
func (d *hpackReader) changed(add hpack.HeaderField) {
	d.gen++
	if d.rec.on {
		d.rec.block.adds = append(d.rec.block.adds, add)
	}
}
