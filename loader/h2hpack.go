package loader

import (
	"errors"

	"golang.org/x/net/http2/hpack"
)

// hpackReader decodes the server's header blocks (RFC 7541), as hpack.Decoder does, with one
// difference that matters to a load generator: the strings it decodes are kept, so that the
// fields a server repeats in every answer (server, content-type, cache headers, the length)
// are neither Huffman-decoded nor allocated again. Decoding was a tenth of the client's CPU
// on a busy HTTP/2 connection. Its rules are hpack.Decoder's, which FuzzHPACKReader checks
// block by block: the same fields, the same table, an error where it errs.
type hpackReader struct {
	emit        func(hpack.HeaderField)
	emitEnabled bool
	maxString   int // the longest name or value taken, encoded or decoded; 0 for no bound

	// The dynamic table: table[head:], the newest entry last. Eviction moves head on, and an
	// add moves the entries back to the start of the array only when that frees half of it,
	// so an add costs little whatever the table holds: servers such as nginx add several
	// fields to it in every answer, and copying the whole table down on each add was about a
	// third of decoding theirs.
	table   []hpack.HeaderField
	head    int
	size    uint32 // as RFC 7541 4.1 counts it
	maxSize uint32 // the table's size now, as the server's size updates set it
	allowed uint32 // the most a size update may set: the client's SETTINGS_HEADER_TABLE_SIZE

	first bool   // the next field is the block's first
	saved []byte // the start of a field the next fragment ends

	// Strings decoded before, by their encoded bytes: Huffman-coded and raw apart, each half
	// of hpackKeptMax.
	huffman, raw keptStrings

	// gen counts the dynamic table's changes; last is the last whole block decoded, rec the
	// one being decoded (see block).
	gen  uint64
	last hpackBlock
	rec  hpackRecording
}

// hpackKeptMax bounds the strings a reader keeps, and hpackKeptMaxLen their length: the
// values a server repeats are few and short.
const (
	hpackKeptMax    = 1024
	hpackKeptMaxLen = 512
)

var (
	errHPACKIndex      = errors.New("hpack: index out of range")
	errHPACKEncoding   = errors.New("hpack: invalid encoding")
	errHPACKVarint     = errors.New("hpack: integer overflow")
	errHPACKSizeUpdate = errors.New("hpack: dynamic table size update not at the beginning of a header block")
	errHPACKTableSize  = errors.New("hpack: dynamic table size update too large")
	errHPACKTruncated  = errors.New("hpack: truncated header block")
	errHPACKNeedMore   = errors.New("hpack: need more data") // not an error: the field goes on in the next fragment
)

func newHPACKReader(tableSize uint32, emit func(hpack.HeaderField)) *hpackReader {
	return &hpackReader{
		emit: emit, emitEnabled: true, first: true,
		maxSize: tableSize, allowed: tableSize,
		huffman: newKeptStrings(hpackKeptMax/2, hpackKeptMaxLen),
		raw:     newKeptStrings(hpackKeptMax/2, hpackKeptMaxLen),
	}
}

// SetEmitEnabled turns the calls to emit on or off; fields are decoded all the same where
// the table needs them.
func (d *hpackReader) SetEmitEnabled(v bool) { d.emitEnabled = v }

// SetMaxStringLength bounds the names and values taken (hpack.ErrStringLength beyond).
func (d *hpackReader) SetMaxStringLength(n int) { d.maxString = n }

// Write decodes the fields p completes, with what an earlier fragment left, and keeps the
// start of the field p does not end.
func (d *hpackReader) Write(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	buf := p
	if len(d.saved) > 0 {
		d.saved = append(d.saved, p...)
		buf = d.saved
	}
	for len(buf) > 0 {
		rest, err := d.field(buf)
		if errors.Is(err, errHPACKNeedMore) {
			// Bounded: a string longer than maxString fails before its bytes arrive.
			const varintRoom = 8
			if d.maxString != 0 && int64(len(buf)) > 2*(int64(d.maxString)+varintRoom) {
				return hpack.ErrStringLength
			}
			d.saved = append(d.saved[:0], buf...)
			return nil
		}
		d.first = false
		if err != nil {
			return err
		}
		buf = rest
	}
	d.saved = d.saved[:0]
	return nil
}

// Close ends a header block: a field left unfinished is an error.
func (d *hpackReader) Close() error {
	d.first = true
	if len(d.saved) > 0 {
		d.saved = d.saved[:0]
		return errHPACKTruncated
	}
	return nil
}

// field decodes the field at the start of p and returns what follows it.
func (d *hpackReader) field(p []byte) ([]byte, error) {
	b := p[0]
	switch {
	case b&0x80 != 0: // indexed (RFC 7541 6.1)
		i, rest, err := hpackInt(7, p)
		if err != nil {
			return nil, err
		}
		f, ok := d.at(i)
		if !ok {
			return nil, errHPACKIndex
		}
		return rest, d.take(hpack.HeaderField{Name: f.Name, Value: f.Value})
	case b&0xc0 == 0x40: // literal, added to the table (6.2.1)
		return d.literal(6, p, true, false)
	case b&0xf0 == 0x00: // literal, not added (6.2.2)
		return d.literal(4, p, false, false)
	case b&0xf0 == 0x10: // literal, never to be added (6.2.3)
		return d.literal(4, p, false, true)
	case b&0xe0 == 0x20: // dynamic table size update (6.3)
		// RFC 7541 4.2 wants it at the start of a block; like hpack.Decoder, this takes it
		// later too while the table is empty, where it changes nothing held.
		if !d.first && d.size > 0 {
			return nil, errHPACKSizeUpdate
		}
		size, rest, err := hpackInt(5, p)
		if err != nil {
			return nil, err
		}
		if size > uint64(d.allowed) {
			return nil, errHPACKTableSize
		}
		d.maxSize = uint32(size)
		d.evict()
		d.gen++
		d.rec.unfit = true // rare, and a replay would have to check it again
		return rest, nil
	}
	return nil, errHPACKEncoding
}

// literal decodes a literal field whose name index has an n-bit prefix.
func (d *hpackReader) literal(n byte, p []byte, indexed, never bool) ([]byte, error) {
	nameIdx, p, err := hpackInt(n, p)
	if err != nil {
		return nil, err
	}
	var f hpack.HeaderField
	var name, value []byte
	var nameHuff, valueHuff bool
	if nameIdx > 0 {
		known, ok := d.at(nameIdx)
		if !ok {
			return nil, errHPACKIndex
		}
		f.Name = known.Name
	} else if name, nameHuff, p, err = d.stringAt(p); err != nil {
		return nil, err
	}
	if value, valueHuff, p, err = d.stringAt(p); err != nil {
		return nil, err
	}
	if d.emitEnabled || indexed {
		if nameIdx == 0 {
			if f.Name, err = d.decode(name, nameHuff); err != nil {
				return nil, err
			}
		}
		if f.Value, err = d.decode(value, valueHuff); err != nil {
			return nil, err
		}
	}
	if indexed {
		d.add(f)
	}
	f.Sensitive = never
	return p, d.take(f)
}

// take checks a decoded field's length and hands it on.
func (d *hpackReader) take(f hpack.HeaderField) error {
	if d.maxString != 0 && (len(f.Name) > d.maxString || len(f.Value) > d.maxString) {
		return hpack.ErrStringLength
	}
	if d.rec.on {
		d.recordField(f)
	}
	if d.emitEnabled {
		d.emit(f)
	}
	return nil
}

// stringAt reads the string at the start of p, still encoded.
func (d *hpackReader) stringAt(p []byte) (s []byte, huffman bool, rest []byte, err error) {
	if len(p) == 0 {
		return nil, false, nil, errHPACKNeedMore
	}
	huffman = p[0]&0x80 != 0
	n, p, err := hpackInt(7, p)
	if err != nil {
		return nil, false, nil, err
	}
	if d.maxString != 0 && n > uint64(d.maxString) {
		return nil, false, nil, hpack.ErrStringLength
	}
	if uint64(len(p)) < n {
		return nil, false, nil, errHPACKNeedMore
	}
	return p[:n], huffman, p[n:], nil
}

// decode returns the string b encodes, the one kept for it when it came before.
func (d *hpackReader) decode(b []byte, huffman bool) (string, error) {
	if !huffman {
		return d.raw.str(b), nil
	}
	if s, ok := d.huffman.lookup(b); ok {
		return s, nil
	}
	s, err := hpack.HuffmanDecodeToString(b)
	if err != nil {
		return "", err
	}
	d.huffman.keep(b, s)
	return s, nil
}

// at returns the field at index i of the static and dynamic tables (RFC 7541 2.3.3).
func (d *hpackReader) at(i uint64) (hpack.HeaderField, bool) {
	switch {
	case i == 0:
		return hpack.HeaderField{}, false
	case i <= uint64(len(hpackStatic)):
		return hpackStatic[i-1], true
	case i-uint64(len(hpackStatic)) <= uint64(len(d.table)-d.head):
		d.rec.block.static = false // meaningful while a block is recorded only
		return d.table[len(d.table)-int(i-uint64(len(hpackStatic)))], true
	}
	return hpack.HeaderField{}, false
}

// add puts f in the dynamic table, evicting the oldest entries as its size needs.
func (d *hpackReader) add(f hpack.HeaderField) {
	if len(d.table) == cap(d.table) && d.head >= len(d.table)/2 && d.head > 0 {
		n := copy(d.table, d.table[d.head:])
		clear(d.table[n:])
		d.table, d.head = d.table[:n], 0
	}
	entry := hpack.HeaderField{Name: f.Name, Value: f.Value}
	d.table = append(d.table, entry)
	d.size += f.Size()
	d.evict()
	d.changed(entry)
}

// evict drops the oldest entries until the table fits its size.
func (d *hpackReader) evict() {
	for d.size > d.maxSize && d.head < len(d.table) {
		d.size -= d.table[d.head].Size()
		d.table[d.head] = hpack.HeaderField{} // its strings go
		d.head++
	}
	if d.head == len(d.table) {
		d.table, d.head = d.table[:0], 0
	}
}

// hpackInt reads an integer with an n-bit prefix (RFC 7541 5.1) from the start of p.
func hpackInt(n byte, p []byte) (uint64, []byte, error) {
	if len(p) == 0 {
		return 0, nil, errHPACKNeedMore
	}
	limit := uint64(1)<<n - 1
	i := uint64(p[0]) & limit
	if i < limit {
		return i, p[1:], nil
	}
	p = p[1:]
	for m := uint(0); len(p) > 0; {
		b := p[0]
		p = p[1:]
		i += uint64(b&0x7f) << m
		if b&0x80 == 0 {
			return i, p, nil
		}
		if m += 7; m >= 63 {
			return 0, nil, errHPACKVarint
		}
	}
	return 0, nil, errHPACKNeedMore
}
