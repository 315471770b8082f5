package changepoint

// bestSplit is where E-divisive means (Matteson and James, 2014, with exponent 1) would split
// xs[lo:hi]: the τ in (lo, hi) that maximizes the energy statistic
//
//	Q(τ) = m·k/(m+k) · (2/(m·k)·Σ|a−b| − Σ|a−a'|/C(m,2) − Σ|b−b'|/C(k,2))
//
// between the m values a before τ and the k values b from τ on. The statistic grows with any
// difference of distribution, not only of mean, and the factor m·k/(m+k) keeps it from
// favouring a split near the ends. The within-segment sums are carried from one τ to the next,
// so a segment of n values costs O(n²) time and O(n) memory rather than O(n³). hi-lo must be at
// least 2.
func bestSplit(xs []float64, lo, hi int) (tau int, q float64) {
	n := hi - lo
	// left[i] is the sum of |a−a'| over the pairs within xs[lo:lo+i], right[i] over those
	// within xs[lo+i:hi].
	left := make([]float64, n+1)
	right := make([]float64, n+1)
	for i := 1; i <= n; i++ {
		s := 0.0
		x := xs[lo+i-1]
		for j := lo; j < lo+i-1; j++ {
			s += abs(xs[j] - x)
		}
		left[i] = left[i-1] + s
	}
	for i := n - 1; i >= 0; i-- {
		s := 0.0
		x := xs[lo+i]
		for j := lo + i + 1; j < hi; j++ {
			s += abs(xs[j] - x)
		}
		right[i] = right[i+1] + s
	}
	total := left[n]
	tau, q = lo+1, -1.0
	for i := 1; i < n; i++ {
		m, k := float64(i), float64(n-i)
		cross := total - left[i] - right[i]
		e := 2 * cross / (m * k)
		if i > 1 {
			e -= left[i] / (m * (m - 1) / 2)
		}
		if n-i > 1 {
			e -= right[i] / (k * (k - 1) / 2)
		}
		if qi := m * k / (m + k) * e; qi > q {
			tau, q = lo+i, qi
		}
	}
	return tau, q
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
