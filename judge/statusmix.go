package judge

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/webload/webload/stats"
)

// A URL's status mix has changed when the two mixes have no status in common (a page that
// answered 200 and now answers 404, however few its requests), or when both hold:
//   - the share of some status moved beyond chance: Fisher's exact test of that status against
//     the others, baseline against candidate, once multiplied by the number of statuses tested
//     (Bonferroni) so that a URL answering with several statuses is not flagged more often by
//     chance, passes at contentAlpha (TestStatusMixErrorRates measures it);
//   - the mixes are at least minMixMove apart (their total variation distance): with millions of
//     requests a move of a few in ten thousand is significant but tells nothing of the page.
const minMixMove = 0.01

// In a status mix, noResponse stands for the requests of a URL that got no response,
// failedCheck for its answers that failed a response check (whatever their status: a run with
// --check counts a database error page served with 200 as a failure, and so does its mix), and
// failedExtract for its requests that failed for a missing value (a login form that lost its
// token answers 200, and the POST after it is not sent at all).
const (
	noResponse    = 0
	failedCheck   = -1
	failedExtract = -2
)

// statusMix is a URL's responses by status, with its failed checks and its requests without a
// response under codes of their own.
type statusMix map[int]int64

// mixOf reads a URL row's status mix; nil when it has no request.
func mixOf(u *stats.URLStats) statusMix {
	if u.Hits+u.Failures == 0 {
		return nil
	}
	m := statusMix{}
	var answered int64
	for code, n := range u.StatusCodes {
		n -= u.CheckStatusCodes[code] // counted as failed checks below
		c, err := strconv.Atoi(code)
		if err != nil || n <= 0 {
			continue // a saved result's bad key: Report.Check names it
		}
		m[c] += n
		answered += n
	}
	if u.CheckFailures > 0 {
		m[failedCheck] += u.CheckFailures
	}
	if u.ExtractFailures > 0 {
		m[failedExtract] += u.ExtractFailures
	}
	if lost := u.Hits + u.Failures - answered - u.CheckFailures - u.ExtractFailures; lost > 0 {
		m[noResponse] += lost
	}
	if m.total() <= 0 {
		return nil // a saved result's impossible counts: nothing to compare
	}
	return m
}

// disjoint says whether two mixes have no status in common.
func disjoint(a, b statusMix) bool {
	for c := range a {
		if b[c] > 0 {
			return false
		}
	}
	return true
}

func (m statusMix) total() int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// codes are the statuses of either mix, in order.
func codesOf(a, b statusMix) []int {
	var out []int
	for c := range a {
		out = append(out, c)
	}
	for c := range b {
		if _, ok := a[c]; !ok {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// mixDistance is the total variation distance of two mixes: the share of requests that would
// have to answer otherwise for one mix to become the other, 0 to 1.
func mixDistance(a, b statusMix) float64 {
	na, nb := float64(a.total()), float64(b.total())
	var d float64
	for _, c := range codesOf(a, b) {
		d += math.Abs(float64(a[c])/na - float64(b[c])/nb)
	}
	return d / 2
}

// mixChangeP is the p-value that two mixes differ only by chance: the smallest of the statuses'
// Fisher tests times their number (a status seen on one side only still counts as one test).
func mixChangeP(a, b statusMix) float64 {
	na, nb := a.total(), b.total()
	codes := codesOf(a, b)
	p := 1.0
	for _, c := range codes {
		p = math.Min(p, fisherP(a[c], na-a[c], b[c], nb-b[c]))
	}
	return math.Min(1, p*float64(len(codes)))
}

// maxExactSD bounds the exact test's walk to about 2·10⁵ steps.
const maxExactSD = 1e4

// fisherP is the two-sided p-value of Fisher's exact test of the table [[a, b], [c, d]]: the
// chance, with the margins fixed, of a table at most as likely as this one. It walks the
// hypergeometric distribution from its mode outwards, most likely tables first, and stops once
// the tables left are negligible, so it costs about twenty standard deviations of steps; a p
// below about 1e-16 reads 0.
func fisherP(a, b, c, d int64) float64 {
	if a < 0 || b < 0 || c < 0 || d < 0 {
		return 1 // a saved result's impossible counts
	}
	fr, fc, fn := float64(a)+float64(b), float64(a)+float64(c), float64(a)+float64(b)+float64(c)+float64(d)
	if sd := math.Sqrt(fr * fc * (fn - fr) * (fn - fc) / (fn * fn * (fn - 1))); !(sd <= maxExactSD) || fn >= math.MaxInt64/4 {
		// Hundreds of millions of requests: the walk would be long, and the normal
		// approximation of the hypergeometric distribution is exact to many digits.
		if !(sd > 0) {
			return 1
		}
		return math.Erfc(math.Abs(float64(a)-fr*fc/fn) / sd / math.Sqrt2)
	}
	row, col, n := a+b, a+c, a+b+c+d
	lo, hi := max(0, row+col-n), min(row, col)
	if lo == hi {
		return 1
	}
	logPMF := func(x int64) float64 {
		return logChoose(float64(col), float64(x)) + logChoose(float64(n-col), float64(row-x)) - logChoose(float64(n), float64(row))
	}
	// up(x) is log P(x+1)/P(x).
	up := func(x int64) float64 {
		return math.Log(float64(col-x)) + math.Log(float64(row-x)) - math.Log(float64(x+1)) - math.Log(float64(n-col-row+x+1))
	}
	// Tables as likely as the observed one, to the rounding of the log-gamma of n, count as extreme.
	scale, _ := math.Lgamma(fn + 1)
	observed := logPMF(a) + 1e-7 + 1e-14*scale
	mode := min(hi, max(lo, int64((fr+1)*(fc+1)/(fn+2)))) // in floats: the product overflows at billions
	lm := logPMF(mode)
	if lm <= observed {
		return 1
	}
	// Weights relative to the mode's, summed most likely first: the tables more likely than the
	// observed one, and the others. Their ratio, not the log-gamma's absolute values, makes p.
	central, tail := 1.0, 0.0
	l, r := mode-1, mode+1
	var ll, lr float64
	if l >= lo {
		ll = lm - up(l)
	}
	if r <= hi {
		lr = lm + up(mode)
	}
	for l >= lo || r <= hi {
		var lp float64
		if l >= lo && (r > hi || ll >= lr) {
			lp = ll
			l--
			if l >= lo {
				ll -= up(l)
			}
		} else {
			lp = lr
			if r < hi {
				lr += up(r)
			}
			r++
		}
		w := math.Exp(lp - lm)
		if lp > observed {
			central += w
		} else {
			tail += w
		}
		if w < 1e-17*(central+tail) {
			break // every table further out is less likely still, and they fall off geometrically
		}
	}
	return tail / (central + tail)
}

// String is the mix as compare shows it, the most frequent status first: "200 ×45, 404 ×5".
func (m statusMix) String() string {
	codes := codesOf(m, nil)
	slices.SortStableFunc(codes, func(x, y int) int {
		if m[x] != m[y] {
			if m[x] > m[y] {
				return -1
			}
			return 1
		}
		return x - y
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		name := strconv.Itoa(c)
		switch c {
		case noResponse:
			name = "no response"
		case failedCheck:
			name = "failed check"
		case failedExtract:
			name = "failed extract"
		}
		parts[i] = fmt.Sprintf("%s ×%d", name, m[c])
	}
	return strings.Join(parts, ", ")
}
