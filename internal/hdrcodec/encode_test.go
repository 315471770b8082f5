package hdrcodec

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"io"
	"math/rand/v2"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// inflated undoes base64 and zlib of a V2 compressed histogram, giving its header and payload.
func inflated(t *testing.T, encoded string) []byte {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		t.Fatal(err)
	}
	z, err := zlib.NewReader(bytes.NewReader(raw[8:]))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The reused encoder must write what the library writes, up to the zlib stream: the same header
// and payload, which both of the library's decoders read back exactly.
func TestHistEncoderMatchesTheLibrary(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name   string
		values []int64
	}{
		{"one value", []int64{417}},
		{"lowest value", []int64{1}},
		{"first index after a single gap", []int64{1, 3}},
		{"highest value", []int64{HistHighest}},
		{"repeated value", []int64{5000, 5000, 5000}},
		{"wide spread", func() []int64 {
			v := make([]int64, 5000)
			for i := range v {
				v[i] = 1 + rng.Int64N(HistHighest)
			}
			return v
		}()},
		{"loopback latencies", func() []int64 {
			v := make([]int64, 20000)
			for i := range v {
				v[i] = 50 + int64(rng.ExpFloat64()*400)
			}
			return v
		}()},
	}
	enc := NewHistEncoder()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := NewSparseHistogram()
			for _, v := range tc.values {
				if err := h.RecordValue(v); err != nil {
					t.Fatal(err)
				}
			}
			got := enc.Encode(h)
			want := Encode(h)
			if !bytes.Equal(inflated(t, got), inflated(t, want)) {
				t.Errorf("header and payload differ from the library's")
			}
			dense, err := hdr.Decode([]byte(got))
			if err != nil {
				t.Fatalf("hdr.Decode: %v", err)
			}
			packed, err := hdr.DecodePacked([]byte(got))
			if err != nil {
				t.Fatalf("hdr.DecodePacked: %v", err)
			}
			for value, count := range h.ForEachBucket {
				if n := packed.CountAtValue(value); n != count {
					t.Errorf("packed decode: %d at %d, want %d", n, value, count)
				}
			}
			same := NewHistogram()
			h.MergeInto(same)
			if !dense.Equals(same) {
				t.Error("dense decode differs from the recorded histogram")
			}
			if dense.TotalCount() != int64(len(tc.values)) || packed.TotalCount() != int64(len(tc.values)) {
				t.Errorf("totals %d and %d, want %d", dense.TotalCount(), packed.TotalCount(), len(tc.values))
			}
		})
	}
}

// BenchmarkURLHistogramEncode is the report's cost per URL: one small histogram encoded.
func BenchmarkURLHistogramEncode(b *testing.B) {
	h := NewSparseHistogram()
	for i := range 20 {
		_ = h.RecordValue(int64(300 + i*37))
	}
	b.Run("library", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Encode(h)
		}
	})
	b.Run("reused", func(b *testing.B) {
		enc := NewHistEncoder()
		b.ReportAllocs()
		for b.Loop() {
			_ = enc.Encode(h)
		}
	})
}
