package loader

import (
	"errors"
	"math"
	"testing"
	"time"
)

// A rate must be a number of requests per second the pacer can schedule: an infinite rate
// would divide time into nothing and NaN compares false with everything.
func TestConfigValidateRates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		rate float64
		want error
	}{
		{"infinite", math.Inf(1), ErrBadRate},
		{"minus infinite", math.Inf(-1), ErrBadRate},
		{"not a number", math.NaN(), ErrBadRate},
		{"negative", -1, ErrBadRate},
		{"closed model", 0, nil},
		{"one in ten billion seconds", 1e-10, nil},
		{"largest", math.MaxFloat64, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Users: 1, MaxUsers: 1, Timeout: time.Second, Rate: tc.rate}
			if err := cfg.Validate(); !errors.Is(err, tc.want) {
				t.Errorf("Validate() with rate %v = %v, want %v", tc.rate, err, tc.want)
			}
		})
	}
}
