package hdrcodec

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// The adder's own decoding of webload's encodings adds exactly what the library decodes, for
// histograms of every shape, written by webload's encoder or the library's.
func TestHistAdderAddsWhatTheLibraryDecodes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		values [][2]int64 // value, count
	}{
		{"one value", [][2]int64{{300, 1}}},
		{"lowest and highest", [][2]int64{{HistLowest, 3}, {HistHighest, 2}}},
		{"first buckets", [][2]int64{{1, 1}, {2047, 1}, {2048, 1}, {4095, 1}, {4096, 1}}},
		{"counts beyond 32 bits", [][2]int64{{1500, 1 << 40}, {90000, 7}}},
		{"spread", spreadValues()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sparse, dense := NewSparseHistogram(), NewHistogram()
			for _, v := range c.values {
				if err := sparse.RecordValues(v[0], v[1]); err != nil {
					t.Fatal(err)
				}
				if err := dense.RecordValues(v[0], v[1]); err != nil {
					t.Fatal(err)
				}
			}
			for _, enc := range []struct{ by, encoded string }{
				{"webload", NewHistEncoder().Encode(sparse)},
				{"library", Encode(dense)},
			} {
				a := NewHistAdder()
				// Twice, so the reused buffers and reader are exercised.
				for range 2 {
					if err := a.Add(enc.encoded); err != nil {
						t.Fatalf("%s encoding: %v", enc.by, err)
					}
				}
				want := NewSparseHistogram()
				src, err := hdr.DecodePacked([]byte(enc.encoded))
				if err != nil {
					t.Fatal(err)
				}
				want.Merge(src)
				want.Merge(src)
				if got, want := bucketList(a.H), bucketList(want); !slices.Equal(got, want) {
					t.Errorf("%s encoding: added %v, library %v", enc.by, got, want)
				}
			}
		})
	}
}

func spreadValues() [][2]int64 {
	var out [][2]int64
	for v := int64(1); v < HistHighest; v = v*3 + 1 {
		out = append(out, [2]int64{v, v%5 + 1})
	}
	return out
}

func bucketList(h *hdr.PackedHistogram) [][2]int64 {
	var out [][2]int64
	for v, c := range h.ForEachBucket {
		out = append(out, [2]int64{v, c})
	}
	return out
}

// What the adder refuses, it refuses with a reason, and it never panics.
func TestHistAdderRefusesForeignAndCorruptEncodings(t *testing.T) {
	t.Parallel()
	h := NewSparseHistogram()
	_ = h.RecordValue(1234)
	ours := NewHistEncoder().Encode(h)
	raw, _ := base64.StdEncoding.DecodeString(ours)
	foreign := hdr.New(1, 1000, 2)
	_ = foreign.RecordValue(5)
	cases := []struct {
		name, encoded, want string
	}{
		{"not base64", "not base64!", "illegal base64"},
		{"foreign geometry", Encode(foreign), "not webload's geometry"},
		{"truncated", base64.StdEncoding.EncodeToString(raw[:len(raw)-3]), "histogram"},
		{"too short", base64.StdEncoding.EncodeToString(raw[:5]), "too short"},
		{"zero run past the last bucket", v2WithPayload(appendZigZag(nil, -histCountsLen-1)), "corrupt"},
		{"count past the last bucket", v2WithPayload(appendZigZag(appendZigZag(nil, -histCountsLen), 1)), "corrupt"},
		{"truncated count", v2WithPayload([]byte{0x80}), "corrupt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := NewHistAdder().Add(c.encoded)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}

// v2WithPayload wraps a payload in the V2 compressed encoding of webload's geometry.
func v2WithPayload(payload []byte) string {
	inner := binary.BigEndian.AppendUint32(nil, uint32(v2Cookie))
	inner = binary.BigEndian.AppendUint32(inner, uint32(len(payload)))
	inner = binary.BigEndian.AppendUint32(inner, 0)
	inner = binary.BigEndian.AppendUint32(inner, histDigits)
	inner = binary.BigEndian.AppendUint64(inner, HistLowest)
	inner = binary.BigEndian.AppendUint64(inner, uint64(HistHighest))
	inner = binary.BigEndian.AppendUint64(inner, math.Float64bits(1))
	inner = append(inner, payload...)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(inner)
	_ = zw.Close()
	out := binary.BigEndian.AppendUint32(nil, uint32(v2CompressedCookie))
	out = binary.BigEndian.AppendUint32(out, uint32(z.Len()))
	return base64.StdEncoding.EncodeToString(append(out, z.Bytes()...))
}
