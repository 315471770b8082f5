package main

import "testing"

func TestGCPercent(t *testing.T) {
	cases := []struct{ concurrency, want int }{
		{1, 399}, {20, 391}, {200, 325}, {1000, 186}, {10000, 32}, {100000, 25},
	}
	for _, tc := range cases {
		if got := gcPercent(tc.concurrency); got != tc.want {
			t.Errorf("gcPercent(%d) = %d, want %d", tc.concurrency, got, tc.want)
		}
	}
}
