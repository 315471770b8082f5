package hdrcodec

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"math"
	"math/bits"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// percentiler is what dense and sparse histograms share for reading.
type Percentiler interface {
	ValueAtPercentile(percentile float64) int64
}

// quantile reads percentile q (0-100) in seconds. HdrHistogram answers with the top of the
// value's bucket, so callers cap it at the exact maximum they track.
func Quantile(h Percentiler, q float64) float64 {
	return FromUnits(h.ValueAtPercentile(q)).Seconds()
}

// encoder is what dense and sparse histograms share for saving.
type encoder interface {
	EncodeV2() ([]byte, error)
}

// encode gives a histogram's V2 compressed base64 form (the format other HdrHistogram tools
// read); the encoder fails only on a histogram it could not have built, so an error leaves the
// field empty.
func Encode(h encoder) string {
	b, err := h.EncodeV2()
	if err != nil {
		return ""
	}
	return string(b)
}

// The V2 encoding's cookies and the index geometry of webload's histograms (1 µs to 1 h at 3
// digits: 2048 sub-buckets, half of them per further bucket).
const (
	v2Cookie           = hdr.V2EncodingCookieBase | 0x10 // 8-byte counts
	v2CompressedCookie = hdr.V2CompressedEncodingCookieBase | 0x10
	v2HeaderSize       = 40
	subBucketHalfMag   = 10
	subBucketMask      = 1<<(subBucketHalfMag+1) - 1
)

// histEncoder writes many sparse histograms in HdrHistogram's V2 compressed encoding with one
// zlib writer and reused buffers. The library makes a new BestCompression writer (about 1 MB,
// zeroed) per histogram, which made the report of a 200 000-URL run take minutes and gigabytes.
// Its zlib stream only Huffman-codes the payload, which the run-length coding of empty buckets
// has already made small: a reset costs nothing, where a BestCompression one zeroes 640 KB.
// The result is at most about twice the library's size and decodes the same. Not safe for
// concurrent use.
type HistEncoder struct {
	zw    *zlib.Writer
	inner []byte       // header and payload before compression
	zbuf  bytes.Buffer // compressed payload
	out   []byte       // cookie, length and compressed payload, before base64
}

func NewHistEncoder() *HistEncoder {
	zw, _ := zlib.NewWriterLevel(nil, zlib.HuffmanOnly) // only an invalid level fails
	return &HistEncoder{zw: zw}
}

// encode is encode for one more histogram of a report; histograms of another geometry (read
// from a file) and empty ones go through the library.
func (e *HistEncoder) Encode(h encoder) string {
	p, ok := h.(*hdr.PackedHistogram)
	if !ok || p.TotalCount() == 0 || p.LowestTrackableValue() != HistLowest ||
		p.HighestTrackableValue() != HistHighest || p.SignificantFigures() != histDigits {
		return Encode(h)
	}
	e.inner = binary.BigEndian.AppendUint32(e.inner[:0], uint32(v2Cookie))
	e.inner = binary.BigEndian.AppendUint32(e.inner, 0) // payload length, set below
	e.inner = binary.BigEndian.AppendUint32(e.inner, 0) // normalizing index offset
	e.inner = binary.BigEndian.AppendUint32(e.inner, histDigits)
	e.inner = binary.BigEndian.AppendUint64(e.inner, HistLowest)
	e.inner = binary.BigEndian.AppendUint64(e.inner, uint64(HistHighest))
	e.inner = binary.BigEndian.AppendUint64(e.inner, math.Float64bits(1))
	// The payload lists the counts from index 0 to the highest populated one; a run of empty
	// buckets is written as its negated length.
	next := int64(0)
	for value, count := range p.ForEachBucket {
		i := countsIndex(value)
		switch gap := i - next; {
		case gap == 1:
			e.inner = appendZigZag(e.inner, 0)
		case gap > 1:
			e.inner = appendZigZag(e.inner, -gap)
		}
		e.inner = appendZigZag(e.inner, count)
		next = i + 1
	}
	binary.BigEndian.PutUint32(e.inner[4:], uint32(len(e.inner)-v2HeaderSize))

	e.zbuf.Reset()
	e.zw.Reset(&e.zbuf)
	_, _ = e.zw.Write(e.inner) // writes to a bytes.Buffer cannot fail
	_ = e.zw.Close()
	e.out = binary.BigEndian.AppendUint32(e.out[:0], uint32(v2CompressedCookie))
	e.out = binary.BigEndian.AppendUint32(e.out, uint32(e.zbuf.Len()))
	e.out = append(e.out, e.zbuf.Bytes()...)
	return base64.StdEncoding.EncodeToString(e.out)
}

// countsIndex is HdrHistogram's counts index of a value for webload's geometry.
func countsIndex(v int64) int64 {
	bucket := int64(bits.Len64(uint64(v|subBucketMask))) - (subBucketHalfMag + 1)
	sub := v >> bucket
	return (bucket+1)<<subBucketHalfMag + sub - 1<<subBucketHalfMag
}

// appendZigZag appends v in HdrHistogram's ZigZag LEB128 form: 7 bits a byte, at most 9 bytes,
// the ninth holding 8 bits.
func appendZigZag(b []byte, v int64) []byte {
	u := uint64((v << 1) ^ (v >> 63))
	for i := 0; i < 8; i++ {
		if u>>7 == 0 {
			return append(b, byte(u))
		}
		b = append(b, byte(u&0x7f|0x80))
		u >>= 7
	}
	return append(b, byte(u))
}
