package run

import "testing"

func TestGCPercent(t *testing.T) {
	cases := []struct {
		name                 string
		concurrency, targets int
		want                 int
	}{
		{"one user", 1, 1, 399},
		{"20 users", 20, 1, 391},
		{"200 users", 200, 1, 325},
		{"1000 users", 1000, 1, 186},
		{"10 000 users", 10000, 1, 32},
		{"100 000 users", 100000, 1, 25},
		// The URL list is live too: a million lines hold hundreds of MB, which a 400 % target
		// would let grow to gigabytes of garbage.
		{"1000 URLs", 10, 1000, 377},
		{"200 000 URLs", 10, 200_000, 37},
		{"1 000 000 URLs", 10, 1_000_000, 25},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := gcPercent(tc.concurrency, tc.targets); got != tc.want {
				t.Errorf("gcPercent(%d, %d) = %d, want %d", tc.concurrency, tc.targets, got, tc.want)
			}
		})
	}
}
