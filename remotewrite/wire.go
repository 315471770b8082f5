package remotewrite

import (
	"math"

	"github.com/klauspost/compress/snappy"
	"google.golang.org/protobuf/encoding/protowire"
)

// Series is one time series of a WriteRequest: its labels (the metric's name under
// "__name__") and its samples or its native histograms, in time order.
type Series struct {
	Labels     []Label
	Samples    []Sample
	Histograms []Histogram
}

// Label is a label's name and value.
type Label struct{ Name, Value string }

// Sample is a float value at a time in milliseconds since the Unix epoch.
type Sample struct {
	Value float64
	Time  int64
}

// The field numbers of Prometheus's prompb messages (types.proto, remote.proto) that are sent.
const (
	fieldWriteTimeseries = 1 // WriteRequest.timeseries

	fieldSeriesLabels     = 1 // TimeSeries.labels
	fieldSeriesSamples    = 2 // TimeSeries.samples
	fieldSeriesHistograms = 4 // TimeSeries.histograms

	fieldLabelName  = 1
	fieldLabelValue = 2

	fieldSampleValue = 1
	fieldSampleTime  = 2

	fieldHistCountInt     = 1
	fieldHistSum          = 3
	fieldHistSchema       = 4
	fieldHistZeroThresh   = 5
	fieldHistZeroCountInt = 6
	fieldHistPosSpans     = 11
	fieldHistPosDeltas    = 12
	fieldHistResetHint    = 14
	fieldHistTime         = 15

	fieldSpanOffset = 1
	fieldSpanLength = 2
)

// EncodeRequest is the WriteRequest of series in protobuf, not yet compressed.
func EncodeRequest(series []Series) []byte {
	var b, msg []byte
	for i := range series {
		msg = appendSeries(msg[:0], &series[i])
		b = protowire.AppendTag(b, fieldWriteTimeseries, protowire.BytesType)
		b = protowire.AppendBytes(b, msg)
	}
	return b
}

// Body is the request body for series: their WriteRequest in snappy's block format, as the
// protocol asks (not the framed stream format).
func Body(series []Series) []byte {
	return snappy.Encode(nil, EncodeRequest(series))
}

func appendSeries(b []byte, s *Series) []byte {
	var msg []byte
	for _, l := range s.Labels {
		msg = protowire.AppendTag(msg[:0], fieldLabelName, protowire.BytesType)
		msg = protowire.AppendString(msg, l.Name)
		msg = protowire.AppendTag(msg, fieldLabelValue, protowire.BytesType)
		msg = protowire.AppendString(msg, l.Value)
		b = protowire.AppendTag(b, fieldSeriesLabels, protowire.BytesType)
		b = protowire.AppendBytes(b, msg)
	}
	for _, smp := range s.Samples {
		msg = protowire.AppendTag(msg[:0], fieldSampleValue, protowire.Fixed64Type)
		msg = protowire.AppendFixed64(msg, math.Float64bits(smp.Value))
		msg = protowire.AppendTag(msg, fieldSampleTime, protowire.VarintType)
		msg = protowire.AppendVarint(msg, uint64(smp.Time))
		b = protowire.AppendTag(b, fieldSeriesSamples, protowire.BytesType)
		b = protowire.AppendBytes(b, msg)
	}
	for i := range s.Histograms {
		msg = appendHistogram(msg[:0], &s.Histograms[i])
		b = protowire.AppendTag(b, fieldSeriesHistograms, protowire.BytesType)
		b = protowire.AppendBytes(b, msg)
	}
	return b
}

// appendHistogram writes an integer native histogram. The count and zero count are written
// even when 0: their oneof tells the receiver the histogram counts in integers, not floats.
func appendHistogram(b []byte, h *Histogram) []byte {
	b = protowire.AppendTag(b, fieldHistCountInt, protowire.VarintType)
	b = protowire.AppendVarint(b, h.Count)
	b = protowire.AppendTag(b, fieldHistSum, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, math.Float64bits(h.Sum))
	b = protowire.AppendTag(b, fieldHistSchema, protowire.VarintType)
	b = protowire.AppendVarint(b, protowire.EncodeZigZag(int64(Schema)))
	b = protowire.AppendTag(b, fieldHistZeroThresh, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, math.Float64bits(ZeroThreshold))
	b = protowire.AppendTag(b, fieldHistZeroCountInt, protowire.VarintType)
	b = protowire.AppendVarint(b, h.ZeroCount)
	spans, deltas := h.spans()
	var msg []byte
	for _, sp := range spans {
		msg = protowire.AppendTag(msg[:0], fieldSpanOffset, protowire.VarintType)
		msg = protowire.AppendVarint(msg, protowire.EncodeZigZag(int64(sp.offset)))
		msg = protowire.AppendTag(msg, fieldSpanLength, protowire.VarintType)
		msg = protowire.AppendVarint(msg, uint64(sp.length))
		b = protowire.AppendTag(b, fieldHistPosSpans, protowire.BytesType)
		b = protowire.AppendBytes(b, msg)
	}
	if len(deltas) > 0 {
		msg = msg[:0]
		for _, d := range deltas {
			msg = protowire.AppendVarint(msg, protowire.EncodeZigZag(d))
		}
		b = protowire.AppendTag(b, fieldHistPosDeltas, protowire.BytesType) // packed
		b = protowire.AppendBytes(b, msg)
	}
	b = protowire.AppendTag(b, fieldHistResetHint, protowire.VarintType)
	b = protowire.AppendVarint(b, resetHintUnknown)
	b = protowire.AppendTag(b, fieldHistTime, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(h.Time))
}

// resetHintUnknown lets the receiver detect a counter reset itself: a --repeat series starts
// each run's counts from 0 under the same labels.
const resetHintUnknown = 0
