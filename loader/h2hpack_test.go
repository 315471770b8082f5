package loader

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// hpackBlocks are header blocks as servers send them, one after another on a connection:
// fields added to the table and then indexed, Huffman-coded and raw strings, a size update.
func hpackBlocks(t testing.TB) [][]byte {
	t.Helper()
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	head := []hpack.HeaderField{
		{Name: ":status", Value: "200"},
		{Name: "server", Value: "nginx/1.22.1"},
		{Name: "date", Value: "Sun, 06 Dec 2026 14:00:00 GMT"},
		{Name: "content-type", Value: "text/html; charset=UTF-8"},
		{Name: "content-length", Value: "100"},
		{Name: "set-cookie", Value: "sid=31d4d96e407aad42; Path=/; HttpOnly", Sensitive: true},
		{Name: "x-custom", Value: "\x00\xffbinary"},
	}
	var blocks [][]byte
	for i := range 3 {
		if i == 2 {
			enc.SetMaxDynamicTableSizeLimit(64) // a size update starts the block
		}
		buf.Reset()
		for _, f := range head {
			if err := enc.WriteField(f); err != nil {
				t.Fatal(err)
			}
		}
		blocks = append(blocks, slices.Clone(buf.Bytes()))
	}
	return blocks
}

// hpackTurnover is n answers that each add two fields to the table, a new date and a new
// request id, and refer to the fields added before: the table fills and its oldest entries
// go many times over.
func hpackTurnover(t testing.TB, n int) [][]byte {
	t.Helper()
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	var blocks [][]byte
	for i := range n {
		buf.Reset()
		for _, f := range []hpack.HeaderField{
			{Name: ":status", Value: "200"},
			{Name: "server", Value: "nginx/1.22.1"},
			{Name: "date", Value: fmt.Sprintf("Sun, 06 Dec 2026 14:%02d:%02d GMT", i/60%60, i%60)},
			{Name: "x-request-id", Value: fmt.Sprintf("%032d", i)},
		} {
			if err := enc.WriteField(f); err != nil {
				t.Fatal(err)
			}
		}
		blocks = append(blocks, slices.Clone(buf.Bytes()))
	}
	return blocks
}

// hpackRun feeds blocks to hpack.Decoder and to hpackReader alike, each block in fragments of
// step bytes, emit turned off after emitFor fields (negative: never), and tells how they
// differ, "" when in nothing: the fields each block gave and where decoding failed.
func hpackRun(blocks [][]byte, step, maxString, emitFor int) string {
	diff, _ := hpackCompare(blocks, step, maxString, emitFor)
	return diff
}

// hpackCompare is hpackRun, and with step 0 it gives hpackReader each block whole (block),
// as the connection does with a block that came in one frame; repeated then tells which
// blocks it gave again without decoding them.
func hpackCompare(blocks [][]byte, step, maxString, emitFor int) (diff string, repeated []bool) {
	var want, got []hpack.HeaderField
	ref := hpack.NewDecoder(4096, nil)
	ref.SetEmitFunc(func(f hpack.HeaderField) {
		want = append(want, f)
		if emitFor >= 0 && len(want) >= emitFor {
			ref.SetEmitEnabled(false)
		}
	})
	var d *hpackReader
	d = newHPACKReader(4096, func(f hpack.HeaderField) {
		got = append(got, f)
		if emitFor >= 0 && len(got) >= emitFor {
			d.SetEmitEnabled(false)
		}
	})
	ref.SetMaxStringLength(maxString)
	d.SetMaxStringLength(maxString)
	if emitFor == 0 {
		ref.SetEmitEnabled(false)
		d.SetEmitEnabled(false)
	}
	var lastID uint64
	for bi, block := range blocks {
		if step == 0 {
			_, refErr := ref.Write(block)
			if refErr == nil {
				refErr = ref.Close()
			}
			id, err := d.block(block)
			if (refErr != nil) != (err != nil) {
				return "block " + strconv.Itoa(bi) + ": hpack.Decoder's error " + errText(refErr) + ", hpackReader's " + errText(err), repeated
			}
			repeated = append(repeated, id != 0 && id == lastID)
			lastID = max(lastID, id)
			if refErr != nil {
				break
			}
			continue
		}
		for len(block) > 0 {
			frag := block[:min(step, len(block))]
			block = block[len(frag):]
			_, refErr := ref.Write(frag)
			err := d.Write(frag)
			if (refErr != nil) != (err != nil) {
				return "block " + strconv.Itoa(bi) + ": hpack.Decoder's error " + errText(refErr) + ", hpackReader's " + errText(err), nil
			}
			if refErr != nil {
				return compareFields(want, got), nil
			}
		}
		refErr, err := ref.Close(), d.Close()
		if (refErr != nil) != (err != nil) {
			return "closing: hpack.Decoder's error " + errText(refErr) + ", hpackReader's " + errText(err), nil
		}
		if refErr != nil {
			break
		}
	}
	return compareFields(want, got), repeated
}

func compareFields(want, got []hpack.HeaderField) string {
	if slices.Equal(want, got) {
		return ""
	}
	var b bytes.Buffer
	b.WriteString("fields differ:\n")
	for i := range max(len(want), len(got)) {
		var w, g hpack.HeaderField
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			b.WriteString("  hpack.Decoder " + w.String() + "\n  hpackReader   " + g.String() + "\n")
		}
	}
	return b.String()
}

func errText(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}

// hpackReader decodes what hpack.Decoder decodes, fails where it fails, and keeps its table
// the same, whatever the fragments and bounds.
func TestHPACKReaderAsDecoder(t *testing.T) {
	blocks := hpackBlocks(t)
	var static []byte
	for i := 1; i <= len(hpackStatic); i++ {
		static = append(static, 0x80|byte(i)) // every static entry, indexed
	}
	tests := []struct {
		name      string
		blocks    [][]byte
		step      int
		maxString int
		emitFor   int
	}{
		{"whole blocks", blocks, 1 << 20, 0, -1},
		{"byte by byte", blocks, 1, 0, -1},
		{"in fragments of 5", blocks, 5, 0, -1},
		{"strings bounded", blocks, 7, 20, -1},
		{"emit off after 3 fields", blocks, 3, 0, 3},
		{"emit off", blocks, 1 << 20, 0, 0},
		{"the table turned over", hpackTurnover(t, 300), 1 << 20, 0, -1},
		{"the table turned over, in fragments", hpackTurnover(t, 300), 7, 0, -1},
		{"the table turned over, whole blocks", hpackTurnover(t, 300), 0, 0, -1},
		{"the static table", [][]byte{static}, 1 << 20, 0, -1},
		{"index 0", [][]byte{{0x80}}, 1, 0, -1},
		{"index past the tables", [][]byte{{0xbf, 0x40}}, 1, 0, -1},
		{"truncated", [][]byte{blocks[0][:len(blocks[0])-1]}, 4, 0, -1},
		{"size update after a field", [][]byte{append(slices.Clone(blocks[0]), 0x3f, 0x01)}, 1 << 20, 0, -1},
		{"size update too large", [][]byte{{0x3f, 0xe2, 0x1f}}, 1, 0, -1},
		{"integer overflow", [][]byte{{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}}, 1 << 20, 0, -1},
		{"bad Huffman padding", [][]byte{{0x00, 0x81, 0x00, 0x81, 0xfe}}, 1 << 20, 0, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := hpackRun(tt.blocks, tt.step, tt.maxString, tt.emitFor); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// hpackAdded is a literal field that the table takes, named by static index idx (below 63),
// with a short raw value: how nginx sends every field but :status, in every answer.
func hpackAdded(idx byte, value string) []byte {
	return append([]byte{0x40 | idx, byte(len(value))}, value...)
}

// hpackJoin joins fields into one block.
func hpackJoin(fields ...[]byte) []byte { return bytes.Join(fields, nil) }

// A whole block that repeats the last is given again without decoding it only when that
// gives what decoding it would: the same fields, the same table after it, as hpack.Decoder
// has them. A block that reads the dynamic table is decoded again once the table changed.
func TestHPACKReaderRepeats(t *testing.T) {
	status200, newest := []byte{0x88}, []byte{0x80 | 62}
	nginx := hpackJoin(status200, hpackAdded(54, "nginx"), hpackAdded(33, "Sun, 06 Dec 2026 14:00:00 GMT"), hpackAdded(28, "100"))
	nginxLater := hpackJoin(status200, hpackAdded(54, "nginx"), hpackAdded(33, "Sun, 06 Dec 2026 14:00:01 GMT"), hpackAdded(28, "100"))
	readsTable := hpackJoin(status200, newest)
	readsDate := hpackJoin(status200, []byte{0x80 | 63})
	sizeUpdate := []byte{0x3f, 0xe1, 0x1f} // 4096, the table's size as it is
	tests := []struct {
		name     string
		blocks   [][]byte
		repeated []bool
	}{
		{"fields added to the table every time", [][]byte{nginx, nginx, nginx, nginxLater, nginxLater, nginx},
			[]bool{false, true, true, false, true, false}},
		{"a block that reads the table, the table unchanged", [][]byte{nginx, readsTable, readsTable, readsTable},
			[]bool{false, false, true, true}},
		{"a block that reads the table after it changed", [][]byte{nginx, readsTable, nginxLater, readsTable, readsTable, hpackAdded(54, "other"), readsTable},
			[]bool{false, false, false, false, true, false, false}},
		{"a block not kept that changes the table between repeats", [][]byte{nginx, readsTable, readsTable, hpackJoin(sizeUpdate, hpackAdded(54, "other")), readsTable},
			[]bool{false, false, true, false, false}},
		{"a repeated block that adds and reads", [][]byte{hpackJoin(hpackAdded(54, "a"), newest), hpackJoin(hpackAdded(54, "a"), newest)},
			[]bool{false, false}},
		{"a size update each time", [][]byte{hpackJoin(sizeUpdate, nginx), hpackJoin(sizeUpdate, nginx), hpackJoin(sizeUpdate, nginx)},
			[]bool{false, false, false}},
		{"a changing date read from the table", slices.Repeat([][]byte{nginx, readsDate, nginxLater, readsDate}, 30),
			slices.Repeat([]bool{false}, 120)},
		{"the table turned over many times", append(slices.Repeat([][]byte{nginx}, 500), readsTable, readsTable),
			append(append([]bool{false}, slices.Repeat([]bool{true}, 499)...), false, true)},
		{"a repeat adds to the table what it added", [][]byte{nginx, nginx, hpackJoin(status200, []byte{0x80 | 65})},
			[]bool{false, true, false}},
		{"a block that does not decode", [][]byte{nginx, {0x80}, {0x80}}, []bool{false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff, repeated := hpackCompare(tt.blocks, 0, 0, -1)
			if diff != "" {
				t.Error(diff)
			}
			if !slices.Equal(repeated, tt.repeated) {
				t.Errorf("repeated %v, want %v", repeated, tt.repeated)
			}
		})
	}
}

// FuzzHPACKReader compares hpackReader with hpack.Decoder on any bytes: the first three set
// the fragment size (whole blocks, repeated, when the first has its high bit set), the
// string bound and when emit turns off; then each block is a length byte and that many bytes.
func FuzzHPACKReader(f *testing.F) {
	var seed []byte
	seed = append(seed, 5, 0, 0xff)
	for _, b := range hpackBlocks(f) {
		seed = append(seed, byte(len(b)))
		seed = append(seed, b...)
	}
	f.Add(seed)
	f.Add([]byte{1, 3, 2, 4, 0x82, 0x86, 0x84, 0x41})
	seed[0] |= 0x80 // the same blocks, whole
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		step, maxString, emitFor := int(data[0]%16)+1, int(data[1]%64), int(data[2])
		if emitFor == 0xff {
			emitFor = -1
		}
		var blocks [][]byte
		for p := data[3:]; len(p) > 0; {
			n := min(int(p[0]), len(p)-1)
			blocks = append(blocks, p[1:1+n])
			p = p[1+n:]
		}
		if data[0]&0x80 != 0 {
			// Whole blocks, as they come in one frame, each twice and then all again: repeats.
			step = 0
			var twice [][]byte
			for _, b := range blocks {
				twice = append(twice, b, b)
			}
			blocks = append(twice, blocks...)
		}
		if diff := hpackRun(blocks, step, maxString, emitFor); diff != "" {
			t.Error(diff)
		}
	})
}

// hpackIndexedOnly tells a block of table references from one that changes the table.
func TestHPACKIndexedOnly(t *testing.T) {
	tests := []struct {
		name  string
		block []byte
		want  bool
	}{
		{"empty", nil, true},
		{"static entries", []byte{0x82, 0x86, 0x84}, true},
		{"an index past 127", []byte{0xff, 0x80, 0x01, 0x82}, true},
		{"a literal added to the table", []byte{0x82, 0x41, 0x01, 'a'}, false},
		{"a literal not added", []byte{0x82, 0x04, 0x01, 'a'}, false},
		{"a size update", []byte{0x20, 0x82}, false},
		{"a truncated index", []byte{0x82, 0xff}, false},
	}
	for _, tt := range tests {
		if got := hpackIndexedOnly(tt.block); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
