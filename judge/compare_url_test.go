package judge

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// urlRun records, for each URL, hits[i] transactions drawn from gens[i].
func urlRun(seed uint64, hits []int, gens []latencyGen) stats.Report {
	var targets []urls.Target
	for i := range hits {
		targets = append(targets, urls.Target{Method: "GET", URL: fmt.Sprintf("http://10.0.0.1/u%02d", i)})
	}
	rec := stats.NewRecorder(targets, stats.Options{})
	rng := rand.New(rand.NewPCG(seed, 3))
	var batch []loader.Result
	var sum time.Duration
	for i, n := range hits {
		for range n {
			d := max(gens[i](rng), time.Microsecond)
			sum += d
			batch = append(batch, loader.Result{Target: int32(i), Status: 200, BodyBytes: 100, Latency: d})
		}
	}
	rec.Record(batch)
	return rec.Report(loader.Outcome{Elapsed: sum / 5, Users: 5}, stats.RunInfo{}, "")
}

// The URLs that changed most are those whose change is most certain and best measured, not
// the few-hit URLs whose p95 swings most; a URL whose old slowest request was faster than its
// new median is never within noise; each says which test judged it.
func TestURLChangesOrderedBySignificanceAndHits(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	base := lognormal(50*ms, 0.5)
	// u00-u02: busy URLs, 30 % slower. u03: 50 hits, 0.49 s becoming 2.40 s. u04-u13: 4 hits
	// each, unchanged but swinging wildly.
	hits := []int{2000, 1500, 1000, 50}
	oldGens := []latencyGen{base, base, base, lognormal(490*ms, 0.02)}
	newGens := []latencyGen{scaled(base, 1.3), scaled(base, 1.3), scaled(base, 1.3), lognormal(2400*ms, 0.02)}
	for range 10 {
		hits = append(hits, 4)
		oldGens, newGens = append(oldGens, lognormal(50*ms, 1.5)), append(newGens, lognormal(50*ms, 1.5))
	}
	c, err := Compare([]stats.Report{urlRun(1, hits, oldGens), urlRun(2, hits, newGens)}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.URLChanges) == 0 {
		t.Fatal("no URL changes")
	}
	for i, u := range c.URLChanges {
		t.Logf("%s %+.0f%% %s hits %d/%d p %v (%s)", u.Path, u.Change*100, u.Verdict, u.BaseHits, u.Hits, deref(u.P), u.Test)
		if u.Test == "" {
			t.Errorf("%s: no test named", u.Path)
		}
		if u.Path == "/u03" && u.Verdict == WithinNoise {
			t.Errorf("/u03: old max 0.5 s below its new median 2.4 s, judged within noise")
		}
		if i < 4 && u.Change > 0 && u.Verdict != Significant {
			t.Errorf("rise %d is %s (%s), want the significant changes first", i, u.Verdict, u.Path)
		}
	}
	want := []string{"/u00", "/u01", "/u02", "/u03"} // significant; most hits first
	for i, p := range want {
		if c.URLChanges[i].Path != p {
			t.Errorf("rise %d: %s, want %s", i, c.URLChanges[i].Path, p)
		}
	}
}

// tail is g with a share of its requests taking slow instead: a change at the top of the
// distribution that its middle does not see.
func tail(g latencyGen, share float64, slow time.Duration) latencyGen {
	return func(rng *rand.Rand) time.Duration {
		if rng.Float64() < share {
			return slow
		}
		return g(rng)
	}
}

// --per-url p99,rtime lists the URLs whose p99, then those whose mean, changed most, each line
// naming its figure and judged by that figure's test: a URL whose slowest 3 % became 2 s rose
// in p99, significantly, while its p95 hardly moved.
func TestURLChangesOfTheFiguresAskedFor(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	base := lognormal(50*ms, 0.3)
	hits := []int{3000, 3000}
	oldGens := []latencyGen{base, base}
	newGens := []latencyGen{tail(base, 0.03, 2*time.Second), base}
	c, err := Compare([]stats.Report{urlRun(1, hits, oldGens), urlRun(2, hits, newGens)}, false)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := ParseURLFigures("p99, rtime,p(99.5),P99")
	if err != nil {
		t.Fatal(err)
	}
	c.ListURLChanges(figs)
	var order []string
	for _, u := range c.URLChanges {
		if len(order) == 0 || order[len(order)-1] != u.Figure {
			order = append(order, u.Figure)
		}
		b, _ := stats.LookupFigure(u.Figure)
		bv, _ := urlValue(b, &c.reports[0].URLs[0], nil, false)
		if u.Path == "/u00" && (u.Base != bv || u.BaseP95 != c.reports[0].URLs[0].P95) {
			t.Errorf("%s of /u00: base %v, base p95 %v; want %v and the URL's p95", u.Figure, u.Base, u.BaseP95, bv)
		}
		if u.Path == "/u00" && u.Figure != "rtime" && u.Verdict != Significant {
			t.Errorf("%s of /u00: %s (%s), want significant", u.Figure, u.Verdict, u.Test)
		}
		if u.Path == "/u00" && u.Figure == "p99" && !strings.HasPrefix(u.Test, "p99: quantile test") {
			t.Errorf("p99 of /u00 judged by %q", u.Test)
		}
	}
	if !slices.Equal(order, []string{"p99", "rtime", "p(99.5)"}) {
		t.Errorf("lines about %q; want p99, rtime, p(99.5) in turn", order)
	}
	var b strings.Builder
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"URLs whose p99 changed most", "URLs whose rtime changed most", "URLs whose p(99.5) changed most"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "URLs whose p95") {
		t.Errorf("text lists p95 changes, not asked for:\n%s", text)
	}
	b.Reset()
	if err := c.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| Run | URL | base p99 (ms) | p99 (ms) |") {
		t.Errorf("markdown lacks the p99 table:\n%s", b.String())
	}
	// --per-url alone still means p95.
	p95, err := Compare([]stats.Report{urlRun(1, hits, oldGens), urlRun(2, hits, newGens)}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range p95.URLChanges {
		if u.Figure != "p95" || u.Base != u.BaseP95 || u.Value != u.P95 {
			t.Errorf("--per-url alone: %+v; want p95 lines", u)
		}
	}
}

func TestParseURLFigures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want []string
		err  string
	}{
		{in: "p99,rtime", want: []string{"p99", "rtime"}},
		{in: " P(99.5) , mean,p(95),p95", want: []string{"p(99.5)", "rtime", "p95"}},
		{in: "p90,p99.9,max,p50", want: []string{"p90", "p99.9", "max", "p50"}},
		{in: "error_rate", err: "error_rate is not a response time kept per URL (want rtime, p50, p90, p95, p99, p99.9, max or p(N))"},
		{in: "etime", err: "etime is not a response time kept per URL"},
		{in: "speed", err: `unknown figure "speed" (known per URL: rtime, p50, p90, p95, p99, p99.9, max or p(N))`},
		{in: "p75", err: `unknown figure "p75": write p(75) for that percentile`},
		{in: "p(0)", err: "p(0): a percentile is above 0 and at most 100"},
		{in: "p99,", err: `empty figure in "p99,"`},
	}
	for _, c := range cases {
		figs, err := ParseURLFigures(c.in)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("ParseURLFigures(%q) = %v; want the error %q", c.in, err, c.err)
			}
			continue
		}
		var got []string
		for _, f := range figs {
			got = append(got, f.Name)
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseURLFigures(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
