package hdrcodec

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// histAdder adds encoded histograms of webload's geometry into one sparse histogram, reusing
// its buffers and zlib reader from one histogram to the next. Combining the runs of a
// 200 000-URL list adds hundreds of thousands of small histograms: decoding each into a dense
// one (184 KiB) through the library's decoder (a new zlib reader, 40 KiB) made that cost tens of
// gigabytes and minutes. Here the cost is what the histograms hold. Not safe for concurrent use.
type HistAdder struct {
	H     *hdr.PackedHistogram
	raw   []byte // base64-decoded encoding
	inner bytes.Buffer
	src   bytes.Reader
	zr    io.ReadCloser
}

func NewHistAdder() *HistAdder { return &HistAdder{H: NewSparseHistogram()} }

// The largest counts index of webload's geometry plus one, and so the longest payload a V2
// encoding of it can have (9 bytes a count); a longer stream is not ours.
const (
	histCountsLen  = 23 << subBucketHalfMag
	maxV2InnerSize = v2HeaderSize + 9*histCountsLen
)

// add adds one encoded histogram to the adder's own sum.
func (a *HistAdder) Add(encoded string) error { return a.AddTo(a.H, encoded) }

// addTo adds one encoded histogram to dst; an empty encoding adds nothing. Encodings this fast
// path does not expect (another word size, a normalizing offset) go through the library's
// decoder, so what it accepts and refuses is decodeOurs's.
func (a *HistAdder) AddTo(dst *hdr.PackedHistogram, encoded string) error {
	if encoded == "" {
		return nil
	}
	ok, err := a.addFast(dst, encoded)
	if err != nil {
		return fmt.Errorf("decode histogram: %w", err)
	}
	if !ok {
		src, err := DecodeOurs(encoded)
		if err != nil {
			return err
		}
		if dropped := dst.Merge(src); dropped > 0 {
			return fmt.Errorf("merge histogram: %d values out of range", dropped)
		}
	}
	return nil
}

var errCorrupt = errors.New("corrupt V2 encoding")

// addFast decodes a V2 compressed encoding of webload's geometry with 8-byte count words, as
// webload writes them, straight into dst; ok is false for any other encoding. On an error dst
// may hold part of the histogram.
func (a *HistAdder) addFast(dst *hdr.PackedHistogram, encoded string) (ok bool, err error) {
	if need := base64.StdEncoding.DecodedLen(len(encoded)); cap(a.raw) < need {
		a.raw = make([]byte, need)
	}
	n, err := base64.StdEncoding.Decode(a.raw[:cap(a.raw)], []byte(encoded))
	if err != nil {
		return false, err
	}
	raw := a.raw[:n]
	if len(raw) < 8 || int32(binary.BigEndian.Uint32(raw)) != v2CompressedCookie {
		return false, nil
	}
	clen := int(binary.BigEndian.Uint32(raw[4:]))
	if clen > len(raw)-8 {
		return false, nil
	}
	a.src.Reset(raw[8 : 8+clen])
	if a.zr == nil {
		if a.zr, err = zlib.NewReader(&a.src); err != nil {
			return false, err
		}
	} else if err := a.zr.(zlib.Resetter).Reset(&a.src, nil); err != nil {
		return false, err
	}
	a.inner.Reset()
	if _, err := a.inner.ReadFrom(io.LimitReader(a.zr, maxV2InnerSize+1)); err != nil {
		return false, err
	}
	inner := a.inner.Bytes()
	if len(inner) < v2HeaderSize || len(inner) > maxV2InnerSize ||
		int32(binary.BigEndian.Uint32(inner)) != v2Cookie ||
		binary.BigEndian.Uint32(inner[8:]) != 0 || // normalizing index offset
		binary.BigEndian.Uint32(inner[12:]) != histDigits ||
		binary.BigEndian.Uint64(inner[16:]) != HistLowest ||
		binary.BigEndian.Uint64(inner[24:]) != uint64(HistHighest) {
		return false, nil
	}
	payload := inner[v2HeaderSize:]
	if int(binary.BigEndian.Uint32(inner[4:])) != len(payload) {
		return false, errCorrupt
	}
	for i := int64(0); len(payload) > 0; {
		count, size := readZigZag(payload)
		if size == 0 {
			return false, errCorrupt
		}
		payload = payload[size:]
		switch {
		case count < 0:
			if count < -histCountsLen || i-count > histCountsLen {
				return false, errCorrupt
			}
			i -= count
			continue
		case i >= histCountsLen:
			return false, errCorrupt
		case count > 0:
			if err := dst.RecordValues(valueAt(i), count); err != nil {
				return false, err
			}
		}
		i++
	}
	return true, nil
}

// valueAt is the lowest value of counts index i in webload's geometry (countsIndex inverted).
func valueAt(i int64) int64 {
	bucket := i>>subBucketHalfMag - 1
	sub := i&(1<<subBucketHalfMag-1) + 1<<subBucketHalfMag
	if bucket < 0 {
		return i
	}
	return sub << bucket
}

// readZigZag reads a value written by appendZigZag; size is 0 for a truncated one.
func readZigZag(b []byte) (v int64, size int) {
	var u uint64
	for i := 0; i < 9 && i < len(b); i++ {
		if i == 8 {
			u |= uint64(b[i]) << 56
			return int64(u>>1) ^ -int64(u&1), 9
		}
		u |= uint64(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			return int64(u>>1) ^ -int64(u&1), i + 1
		}
	}
	return 0, 0
}

// mergeInto adds an encoded histogram to h; an empty encoding adds nothing, a foreign geometry is
// refused (see decodeOurs). Values that h cannot hold would make the merge inexact, so they are
// an error, never dropped in silence.
func MergeInto(h *hdr.Histogram, encoded string) error {
	if encoded == "" {
		return nil
	}
	src, err := DecodeOurs(encoded)
	if err != nil {
		return err
	}
	if dropped := src.MergeInto(h); dropped > 0 {
		return fmt.Errorf("merge histogram: %s values out of range", strconv.FormatInt(dropped, 10))
	}
	return nil
}

// decodeOurs decodes a histogram webload encoded. It decodes into a sparse histogram, so a
// foreign or corrupt header cannot make it allocate a huge dense one, and refuses any geometry
// but webload's.
func DecodeOurs(encoded string) (*hdr.PackedHistogram, error) {
	src, err := hdr.DecodePacked([]byte(encoded))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	if src.LowestTrackableValue() != HistLowest || src.HighestTrackableValue() != HistHighest ||
		src.SignificantFigures() != histDigits {
		return nil, fmt.Errorf("decode histogram: not webload's geometry (%d..%d, %d digits)",
			src.LowestTrackableValue(), src.HighestTrackableValue(), src.SignificantFigures())
	}
	return src, nil
}
