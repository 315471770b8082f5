package stats

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// urlRun records, for each URL, hits[i] transactions drawn from gens[i].
func urlRun(seed uint64, hits []int, gens []latencyGen) Report {
	var targets []urls.Target
	for i := range hits {
		targets = append(targets, urls.Target{Method: "GET", URL: fmt.Sprintf("http://10.0.0.1/u%02d", i)})
	}
	rec := NewRecorder(targets, Options{})
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
	return rec.Report(loader.Outcome{Elapsed: sum / 5, Users: 5}, RunInfo{}, "")
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
	c, err := Compare([]Report{urlRun(1, hits, oldGens), urlRun(2, hits, newGens)}, true)
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
