package changepoint

import (
	"encoding/binary"
	"math"
	"testing"
)

// Any series, whatever its values (NaN, infinities, huge, equal), gives change points and
// outliers in order, inside the series, on measured values, without panicking.
func FuzzDetect(f *testing.F) {
	f.Add([]byte{}, 0.001, 0.05)
	f.Add(series(500, 510, 490, 700, 710, 690), 0.01, 0.0)
	f.Add(series(1, 1, 1, 1, math.NaN(), 2, 2, 2), 0.5, 0.0)
	f.Add(series(math.Inf(1), 0, -0, math.MaxFloat64, -math.MaxFloat64, 5e-324), 0.001, 0.05)
	f.Fuzz(func(t *testing.T, raw []byte, p, minMag float64) {
		xs := make([]float64, 0, len(raw)/8)
		for i := 0; i+8 <= len(raw) && len(xs) < 200; i += 8 {
			xs = append(xs, math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
		}
		res, err := Detect(xs, Config{P: p, MinMagnitude: minMag})
		if err != nil {
			if (Config{P: p, MinMagnitude: minMag}).Validate() == nil {
				t.Fatalf("valid config refused: %v", err)
			}
			return
		}
		last := -1
		for _, c := range res.Changes {
			if c.Index <= last || c.Index >= len(xs) || !finite(xs[c.Index]) || c.BeforeN < 1 || c.AfterN < 1 {
				t.Fatalf("change %+v after index %d in %d values %v", c, last, len(xs), xs)
			}
			last = c.Index
		}
		last = -1
		for _, i := range res.Outliers {
			if i <= last || i >= len(xs) || !finite(xs[i]) {
				t.Fatalf("outliers %v in %v", res.Outliers, xs)
			}
			last = i
		}
	})
}

func series(v ...float64) []byte {
	b := make([]byte, 0, 8*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
