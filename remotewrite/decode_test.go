package remotewrite

import (
	"fmt"
	"math"

	"github.com/klauspost/compress/snappy"
	"google.golang.org/protobuf/encoding/protowire"
)

// decodeBody reads a request body back into series the way a receiver does: snappy's block
// format, then the WriteRequest by its field numbers in Prometheus's prompb. The histograms'
// buckets are rebuilt from their spans and deltas.
func decodeBody(body []byte) ([]Series, error) {
	raw, err := snappy.Decode(nil, body)
	if err != nil {
		return nil, fmt.Errorf("snappy: %w", err)
	}
	var out []Series
	err = fields(raw, func(num protowire.Number, _ protowire.Type, v uint64, b []byte) error {
		if num != fieldWriteTimeseries {
			return fmt.Errorf("write request field %d", num)
		}
		s, err := decodeSeries(b)
		out = append(out, s)
		return err
	})
	return out, err
}

func decodeSeries(raw []byte) (Series, error) {
	var s Series
	err := fields(raw, func(num protowire.Number, _ protowire.Type, _ uint64, b []byte) error {
		switch num {
		case fieldSeriesLabels:
			var l Label
			err := fields(b, func(n protowire.Number, _ protowire.Type, _ uint64, b []byte) error {
				if n == fieldLabelName {
					l.Name = string(b)
				} else {
					l.Value = string(b)
				}
				return nil
			})
			s.Labels = append(s.Labels, l)
			return err
		case fieldSeriesSamples:
			var smp Sample
			err := fields(b, func(n protowire.Number, _ protowire.Type, v uint64, _ []byte) error {
				if n == fieldSampleValue {
					smp.Value = math.Float64frombits(v)
				} else {
					smp.Time = int64(v)
				}
				return nil
			})
			s.Samples = append(s.Samples, smp)
			return err
		case fieldSeriesHistograms:
			h, err := decodeHistogram(b)
			s.Histograms = append(s.Histograms, h)
			return err
		}
		return fmt.Errorf("time series field %d", num)
	})
	return s, err
}

func decodeHistogram(raw []byte) (Histogram, error) {
	var h Histogram
	var spans []span
	var deltas []int64
	var schema int64 = math.MinInt64
	err := fields(raw, func(num protowire.Number, _ protowire.Type, v uint64, b []byte) error {
		switch num {
		case fieldHistCountInt:
			h.Count = v
		case fieldHistSum:
			h.Sum = math.Float64frombits(v)
		case fieldHistSchema:
			schema = protowire.DecodeZigZag(v)
		case fieldHistZeroThresh:
			if math.Float64frombits(v) != ZeroThreshold {
				return fmt.Errorf("zero threshold %v", math.Float64frombits(v))
			}
		case fieldHistZeroCountInt:
			h.ZeroCount = v
		case fieldHistPosSpans:
			var sp span
			err := fields(b, func(n protowire.Number, _ protowire.Type, v uint64, _ []byte) error {
				if n == fieldSpanOffset {
					sp.offset = int32(protowire.DecodeZigZag(v))
				} else {
					sp.length = uint32(v)
				}
				return nil
			})
			spans = append(spans, sp)
			return err
		case fieldHistPosDeltas:
			for len(b) > 0 {
				d, n := protowire.ConsumeVarint(b)
				if n < 0 {
					return protowire.ParseError(n)
				}
				deltas = append(deltas, protowire.DecodeZigZag(d))
				b = b[n:]
			}
		case fieldHistResetHint:
		case fieldHistTime:
			h.Time = int64(v)
		default:
			return fmt.Errorf("histogram field %d", num)
		}
		return nil
	})
	if err != nil {
		return h, err
	}
	if schema != Schema {
		return h, fmt.Errorf("schema %d", schema)
	}
	var count int64
	k, next := 0, int32(0)
	for _, sp := range spans {
		i := next + sp.offset
		for range sp.length {
			if k >= len(deltas) {
				return h, fmt.Errorf("spans hold more buckets than the %d deltas", len(deltas))
			}
			count += deltas[k]
			h.Buckets = append(h.Buckets, Bucket{Index: i, Count: uint64(count)})
			k++
			i++
		}
		next = i
	}
	if k != len(deltas) {
		return h, fmt.Errorf("%d deltas for %d buckets", len(deltas), k)
	}
	return h, nil
}

// fields calls f with each field of a message: its number, type and value (a varint's or a
// fixed number's in v, a length-delimited one's bytes in b).
func fields(raw []byte, f func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error) error {
	for len(raw) > 0 {
		num, typ, n := protowire.ConsumeTag(raw)
		if n < 0 {
			return protowire.ParseError(n)
		}
		raw = raw[n:]
		var v uint64
		var b []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(raw)
		case protowire.Fixed64Type:
			v, n = protowire.ConsumeFixed64(raw)
		case protowire.BytesType:
			b, n = protowire.ConsumeBytes(raw)
		default:
			return fmt.Errorf("field %d: wire type %d", num, typ)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		raw = raw[n:]
		if err := f(num, typ, v, b); err != nil {
			return err
		}
	}
	return nil
}
