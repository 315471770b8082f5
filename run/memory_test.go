package run

import "testing"

func TestGCPercent(t *testing.T) {
	cases := []struct {
		name                 string
		concurrency, targets int
		want                 int
	}{
		{"one user", 1, 1, 66},
		{"20 users", 20, 1, 65},
		{"200 users", 200, 1, 54},
		{"1000 users", 1000, 1, 31},
		{"10 000 users", 10000, 1, 25},
		{"100 000 users", 100000, 1, 10},
		// The URL list is live too: a million lines hold hundreds of MB, which a 400 % target
		// would let grow to gigabytes of garbage.
		{"1000 URLs", 10, 1000, 62},
		{"200 000 URLs", 10, 200_000, 25},
		{"1 000 000 URLs", 10, 1_000_000, 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := gcPercent(tc.concurrency, tc.targets); got != tc.want {
				t.Errorf("gcPercent(%d, %d) = %d, want %d", tc.concurrency, tc.targets, got, tc.want)
			}
		})
	}
}

// Once the run has started, the target follows the live heap the collector measured, so the
// heap stays within headroom of it however far the start's estimate was off (the parse cache
// and the fingerprints grow with the pages a run meets, which no estimate from the flags knows).
func TestPercentOverLiveHeap(t *testing.T) {
	cases := []struct {
		name string
		live uint64
		want int
	}{
		{"nothing measured yet", 0, 400},
		{"a small heap", 4 << 20, 200},
		{"200 browser-like users on 30 KiB pages", 30 << 20, 26},
		{"a heap as large as the headroom", headroom, 100},
		{"256 MiB", 256 << 20, 25},
		{"a 1 000 000-URL list being reported", 450 << 20, 14},
		{"a large heap", 1 << 30, 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := percentOver(tc.live); got != tc.want {
				t.Errorf("percentOver(%d) = %d, want %d", tc.live, got, tc.want)
			}
		})
	}
}
