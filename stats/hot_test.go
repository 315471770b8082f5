package stats

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Hot histograms change no figure: the same results recorded with them and without give the
// same report, byte for byte in JSON, reported half way and again at the end, merged as shards,
// and saved, read back and combined. The values reach past the hot histograms' second and past
// the histograms' hour, over several timeline intervals, a ramp, pages with resources and
// visits without.
func TestHotHistogramsChangeNoFigure(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/a"},
		{Method: "GET", URL: "http://127.0.0.1/b"}}
	t0 := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		visits int
		most   int // hot histograms a recorder may lend
		seed   uint64
	}{
		{"few values, no hot histogram", 300, hotMost, 1},
		{"busy URLs and intervals", 4000, hotMost, 2},
		{"more busy figures than hot histograms", 4000, 2, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			shards := [2][]loader.Result{hotVisits(c.visits, c.seed), hotVisits(c.visits/2, c.seed+10)}
			opt := Options{Interval: time.Second, RampEnd: time.Second}
			var reps, mids [2][2]Report // [hot, cold][shard]
			var lent int
			for k := range 2 {
				for s, results := range shards {
					rec := NewRecorder(targets, opt)
					if rec.hot.most = c.most; k == 1 {
						rec.hot.most = 0
					}
					half := len(results) / 2
					rec.Record(results[:half])
					mids[k][s] = rec.Report(loader.Outcome{Started: t0, Elapsed: 5 * time.Second, Users: 20}, RunInfo{Test: "hot", Version: "test"}, "x")
					rec.Record(results[half:])
					reps[k][s] = rec.Report(loader.Outcome{Started: t0, Elapsed: 10 * time.Second, Users: 20},
						RunInfo{Test: "hot", Version: "test", Shard: &ShardInfo{Index: s, Count: 2}}, "x")
					lent += rec.hot.made
				}
			}
			if (lent > 0) != (c.visits >= 2*hotAfter) || lent > 4*c.most {
				t.Fatalf("hot histograms lent: %d, for %d visits", lent, c.visits)
			}
			for s := range 2 {
				sameJSON(t, "half way", mids[0][s], mids[1][s])
				sameJSON(t, "at the end", reps[0][s], reps[1][s])
			}
			var merged [2]Report
			for k := range 2 {
				m, err := Merge(reps[k][:])
				if err != nil {
					t.Fatal(err)
				}
				merged[k] = m
			}
			sameJSON(t, "merged", merged[0], merged[1])
			var combined [2]Report
			for k := range 2 {
				var back []Report
				for s := range 2 {
					path := filepath.Join(t.TempDir(), "r.json")
					if err := SaveJSON(path, &reps[k][s]); err != nil {
						t.Fatal(err)
					}
					r, err := ReadJSON(path)
					if err != nil {
						t.Fatal(err)
					}
					back = append(back, r)
				}
				m, err := Combine(back)
				if err != nil {
					t.Fatal(err)
				}
				combined[k] = m
			}
			sameJSON(t, "saved, read and combined", combined[0], combined[1])
		})
	}
}

// hotVisits makes n page visits by 20 users: mostly bare visits of /a and /b, every seventh of
// /a with a resource, every eleventh failed; response times mostly under 2 ms, some past a
// second and a few past the histograms' hour.
func hotVisits(n int, seed uint64) []loader.Result {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []loader.Result
	for i := range n {
		at := time.Duration(i) * 3 * time.Second / time.Duration(n)
		lat := time.Duration(100+rng.IntN(2000)) * time.Microsecond
		switch {
		case i%97 == 0:
			lat = time.Duration(1+rng.IntN(30)) * time.Second
		case i%997 == 0:
			lat = 2 * time.Hour
		}
		req := loader.Result{Start: at, Intended: at - time.Duration(rng.IntN(50))*time.Microsecond,
			Target: int32(i % 2), User: int32(i % 20), Status: 200, Latency: lat, BodyBytes: 100, Decoded: 100}
		if i%11 == 0 {
			req.Status = 503
		}
		page := req
		page.Kind = loader.KindPage
		out = append(out, req)
		if i%7 == 0 && req.Target == 0 {
			res := req
			res.Kind = loader.KindResource // counted with its page: same target
			res.Start += lat
			res.Latency = time.Duration(50+rng.IntN(500)) * time.Microsecond
			out = append(out, res)
			page.Latency = lat + res.Latency
		}
		out = append(out, page)
	}
	return out
}

// sameJSON fails t when the two reports do not write the same JSON.
func sameJSON(t *testing.T, what string, got, want Report) {
	t.Helper()
	var a, b bytes.Buffer
	if err := WriteJSON(&a, &got); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&b, &want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("%s: with hot histograms the report differs:\n%.600s\nwithout:\n%.600s", what, a.String(), b.String())
	}
}
