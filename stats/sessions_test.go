package stats

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/webload/webload/internal/resulttest"
	"github.com/webload/webload/loader"
)

// refreshed marks r as a page whose meta refresh the visit follows.
func refreshed(r loader.Result) loader.Result {
	r.Refresh = true
	return r
}

// readBy marks r as an answer its target's rules read.
func readBy(r loader.Result) loader.Result {
	r.Extracted = true
	return r
}

// The report counts what #@extract rules took and missed, per URL and overall, and the login
// steps apart: sequences begun (a first step's redirect hop is no new one; a relogin is), their
// requests, failures by cause and times.
func TestSessionFigures(t *testing.T) {
	t.Parallel()
	const url, login = loader.KindURL, loader.KindLogin
	ok, miss, notIn := loader.ErrNone, loader.ErrExtract, loader.ErrLogin
	for _, tc := range []struct {
		name    string
		batch   []loader.Result
		extract *ExtractStats
		logins  *LoginStats // its Mean, P95, Max and Histogram are not compared
		rows    map[int]URLStats
	}{
		{name: "no rules and no logins", batch: []loader.Result{
			resulttest.SessionResult(0, 0, url, 200, ok, 5), resulttest.SessionResult(2, 0, url, 200, ok, 5),
		}},
		{name: "values taken, missed and requests not sent", batch: []loader.Result{
			resulttest.SessionResult(1, 0, url, 200, ok, 5),         // cart_id taken
			resulttest.SessionResult(2, 0, url, 200, ok, 5),         // with it
			resulttest.SessionResult(1, 1, url, 200, miss, 5),       // the answer lacks the id
			resulttest.SessionResult(2, 1, url, 0, miss, 0),         // so the cart cannot be viewed
			resulttest.SessionResult(1, 2, url, 500, ok, 5),         // a failed answer that had the id gave it
			resulttest.SessionResult(1, 3, url, 302, ok, 5),         // a redirect on the way takes nothing...
			resulttest.SessionResult(1, 3, url, 200, ok, 5),         // ...its end does
			readBy(resulttest.SessionResult(1, 4, url, 303, ok, 5)), // a redirect the run does not follow is the end
			resulttest.SessionResult(1, 5, url, 0, loader.ErrTimeout, 5),
			refreshed(resulttest.SessionResult(1, 6, url, 200, ok, 5)), // a page its meta refresh leaves...
			resulttest.SessionResult(1, 6, url, 200, ok, 5),            // ...for the page whose values count
		},
			extract: &ExtractStats{Taken: 5, Missing: 1, Unsent: 1},
			rows: map[int]URLStats{
				1: {ExtractRules: 1, Extractions: 5, ExtractFailures: 1, Hits: 6, Failures: 3},
				2: {Extractions: 0, ExtractFailures: 1, ExtractUnsent: 1, Hits: 1, Failures: 1},
			}},
		{name: "logins, their redirect hops and relogins", batch: []loader.Result{
			resulttest.SessionResult(3, 0, login, 200, ok, 10), // user 0 logs in: form...
			resulttest.SessionResult(4, 0, login, 302, ok, 20), // ...POST...
			resulttest.SessionResult(4, 0, login, 200, ok, 30), // ...its redirect
			resulttest.SessionResult(0, 0, url, 200, ok, 5),
			resulttest.SessionResult(3, 1, login, 302, ok, 10), // user 1's form redirects first
			resulttest.SessionResult(3, 1, login, 200, ok, 10),
			resulttest.SessionResult(4, 1, login, 200, ok, 20),
			resulttest.SessionResult(0, 1, url, 200, ok, 5),
			resulttest.SessionResult(3, 0, login, 200, ok, 10), // user 0 logs in again
			resulttest.SessionResult(4, 0, login, 200, ok, 20),
			resulttest.SessionResult(0, 0, url, 200, ok, 5),
		},
			extract: &ExtractStats{Taken: 6},
			logins:  &LoginStats{Logins: 3, Made: i64p(3), Requests: 8},
			rows: map[int]URLStats{
				0: {Hits: 3},
				3: {Login: true, ExtractRules: 2, Extractions: 6, Hits: 4},
				4: {Login: true, Hits: 4},
			}},
		{name: "failed logins by cause, tried again, and cut short", batch: []loader.Result{
			resulttest.SessionResult(3, 0, login, 200, miss, 10), // no token in the form: no POST...
			resulttest.SessionResult(0, 0, url, 0, notIn, 0),     // ...and the page is not sent
			resulttest.SessionResult(3, 1, login, 200, ok, 10),
			resulttest.SessionResult(4, 1, login, 503, ok, 20),
			resulttest.SessionResult(0, 1, url, 0, notIn, 0),
			resulttest.SessionResult(3, 2, login, 0, loader.ErrTimeout, 10),
			resulttest.SessionResult(0, 2, url, 0, notIn, 0),
			resulttest.SessionResult(3, 3, login, 403, ok, 10), // refused, which siege would count a success
			resulttest.SessionResult(0, 3, url, 0, notIn, 0),
			resulttest.SessionResult(3, 3, login, 200, ok, 10), // tried again before the next page: logged in
			resulttest.SessionResult(4, 3, login, 200, ok, 20),
			resulttest.SessionResult(0, 3, url, 200, ok, 5),
			resulttest.SessionResult(3, 4, login, 200, ok, 10), // the run ends before the POST
		},
			extract: &ExtractStats{Taken: 8, Missing: 1},
			logins: &LoginStats{Logins: 6, Made: i64p(1), FailedLogins: 4, NeverLoggedIn: 3, Requests: 8, Failed: 3,
				Failures: map[string]int64{"extract": 1, "HTTP 503": 1, "timeout": 1, "HTTP 403": 1}},
			rows: map[int]URLStats{
				0: {Hits: 1, Failures: 4},
				3: {Login: true, ExtractRules: 2, Extractions: 8, ExtractFailures: 1, Hits: 4, Failures: 2},
				4: {Login: true, Hits: 1, Failures: 1},
			}},
		{name: "steps after a failed one (as webload sent before it stopped there)", batch: []loader.Result{
			resulttest.SessionResult(3, 0, login, 200, miss, 10),
			resulttest.SessionResult(4, 0, login, 0, miss, 0),
			resulttest.SessionResult(0, 0, url, 200, ok, 5),
		},
			extract: &ExtractStats{Taken: 0, Missing: 1, Unsent: 1},
			logins: &LoginStats{Logins: 1, Made: i64p(0), FailedLogins: 1, NeverLoggedIn: 1, Requests: 2, Failed: 2,
				Failures: map[string]int64{"extract": 1}},
			rows: map[int]URLStats{
				3: {Login: true, ExtractRules: 2, ExtractFailures: 1, Failures: 1},
				4: {Login: true, ExtractFailures: 1, ExtractUnsent: 1, Failures: 1},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := NewRecorder(resulttest.SessionTargets(t), Options{})
			rec.Record(tc.batch)
			rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 3}, RunInfo{}, "")
			if err := rep.Check(); err != nil {
				t.Fatal(err)
			}
			if !equalJSON(t, rep.Extractions, tc.extract) {
				t.Errorf("extractions %+v, want %+v", rep.Extractions, tc.extract)
			}
			got := rep.Logins
			if got != nil {
				c := *got
				c.Mean, c.P95, c.Max, c.Histogram = 0, 0, 0, ""
				got = &c
			}
			if !equalJSON(t, got, tc.logins) {
				t.Errorf("logins %+v, want %+v", got, tc.logins)
			}
			for i, want := range tc.rows {
				u := rep.URLs[i]
				g := URLStats{Login: u.Login, ExtractRules: u.ExtractRules, Extractions: u.Extractions,
					ExtractFailures: u.ExtractFailures, ExtractUnsent: u.ExtractUnsent, Hits: u.Hits, Failures: u.Failures}
				if !equalJSON(t, g, want) {
					t.Errorf("URL %d: %+v, want %+v", i, g, want)
				}
			}
			saved, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			for _, key := range []string{`"extract`, `"login`} {
				if has, want := bytes.Contains(saved, []byte(key)), tc.extract != nil || tc.logins != nil; has && !want {
					t.Errorf("a run without rules or logins writes %s…: old results and new ones read alike only without", key)
				}
			}
		})
	}
}

// The login steps' times are apart: their mean, p95 and maximum are theirs alone, and the URL
// rows of the list do not hold them.
func TestLoginTimesApart(t *testing.T) {
	t.Parallel()
	rec := NewRecorder(resulttest.SessionTargets(t), Options{})
	var batch []loader.Result
	for u := range int32(10) {
		batch = append(batch, resulttest.SessionResult(3, u, loader.KindLogin, 200, loader.ErrNone, 100),
			resulttest.SessionResult(4, u, loader.KindLogin, 200, loader.ErrNone, 300),
			resulttest.SessionResult(0, u, loader.KindURL, 200, loader.ErrNone, 4))
	}
	rec.Record(batch)
	rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 10}, RunInfo{}, "")
	l := rep.Logins
	if l == nil || l.Logins != 10 || l.Requests != 20 || l.Mean != 0.2 || l.Max != 0.3 || l.P95 < 0.299 || l.P95 > 0.3 || l.Histogram == "" {
		t.Fatalf("logins %+v: want 10 logins of 20 steps, 200 ms mean, 300 ms p95 and max", l)
	}
	if u := rep.URLs[0]; u.Max != 0.004 || u.Login {
		t.Errorf("the account page's row %+v holds login times", u)
	}
	if rep.Transactions != 30 {
		t.Errorf("%d transactions; a login step is one, as in siege: want 30", rep.Transactions)
	}
}

// equalJSON compares two values by their JSON.
func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(x, y)
}

// Login and extraction figures add exactly: the shards of a run merged, and the runs of a
// series combined, count what one recording of all their results counts.
func TestSessionFiguresAdd(t *testing.T) {
	t.Parallel()
	const login, url = loader.KindLogin, loader.KindURL
	ok, miss := loader.ErrNone, loader.ErrExtract
	part := func(first int32, slow int) []loader.Result {
		var out []loader.Result
		for u := first; u < first+3; u++ {
			d := slow + int(u)*7
			out = append(out, resulttest.SessionResult(3, u, login, 200, ok, d), resulttest.SessionResult(4, u, login, 302, ok, 3*d),
				resulttest.SessionResult(4, u, login, 200, ok, d), resulttest.SessionResult(1, u, url, 200, ok, d), resulttest.SessionResult(2, u, url, 200, ok, d))
		}
		out = append(out, resulttest.SessionResult(3, first, login, 200, miss, slow), resulttest.SessionResult(4, first, login, 0, miss, 0),
			resulttest.SessionResult(1, first+1, url, 503, ok, slow), resulttest.SessionResult(1, first+2, url, 200, miss, slow),
			resulttest.SessionResult(2, first+2, url, 0, miss, 0))
		return out
	}
	parts := [][]loader.Result{part(0, 10), part(3, 40)}
	all := NewRecorder(resulttest.SessionTargets(t), Options{})
	var shards []Report
	for i, p := range parts {
		rec := NewRecorder(resulttest.SessionTargets(t), Options{})
		local := make([]loader.Result, len(p))
		for j, r := range p {
			r.User -= int32(3 * i)
			local[j] = r
		}
		rec.Record(local)
		all.Record(p)
		shards = append(shards, rec.Report(loader.Outcome{Elapsed: time.Second, Users: 3}, RunInfo{Test: "t", Shard: &ShardInfo{Index: i, Count: 2}}, ""))
	}
	want := all.Report(loader.Outcome{Elapsed: time.Second, Users: 6}, RunInfo{}, "")
	merged, err := Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	for i := range shards {
		shards[i].Run.Shard = nil
	}
	combined, err := Combine(shards)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]Report{"merged": merged, "combined": combined} {
		if err := got.Check(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !equalJSON(t, got.Extractions, want.Extractions) {
			t.Errorf("%s: extractions %+v, want %+v", name, got.Extractions, want.Extractions)
		}
		g, w := *got.Logins, *want.Logins
		if math.Abs(g.Mean-w.Mean) > 1e-9 {
			t.Errorf("%s: login mean %v, want %v", name, g.Mean, w.Mean)
		}
		g.Mean, w.Mean = 0, 0
		if !equalJSON(t, g, w) {
			t.Errorf("%s: logins %+v, want %+v", name, g, w)
		}
		for i, u := range got.URLs {
			wu := want.URLs[i]
			if u.Login != wu.Login || u.ExtractRules != wu.ExtractRules || u.Extractions != wu.Extractions ||
				u.ExtractFailures != wu.ExtractFailures || u.ExtractUnsent != wu.ExtractUnsent {
				t.Errorf("%s: URL %d %+v, want %+v", name, i, u, wu)
			}
		}
	}
}

// An answer that lacked a value arrived whole: its body is data received and its size counts,
// as a page that failed a check does; a request not sent has none.
func TestExtractFailureBytes(t *testing.T) {
	t.Parallel()
	rec := NewRecorder(resulttest.SessionTargets(t), Options{})
	rec.Record([]loader.Result{
		{Target: 1, Status: 200, Err: loader.ErrExtract, Extracted: true, Latency: time.Millisecond, BodyBytes: 300, Decoded: 900},
		{Target: 2, Err: loader.ErrExtract},
		{Target: 0, Status: 200, Latency: time.Millisecond, BodyBytes: 1000, Decoded: 1000},
	})
	rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1}, RunInfo{}, "")
	if rep.BodyBytes != 1300 || rep.DecodedBytes != 1900 || rep.URLs[1].Bytes != 300 || rep.URLs[1].Size == nil || rep.URLs[2].Bytes != 0 {
		t.Errorf("body bytes %d, decoded %d, cart row %d bytes (size %+v), cart view %d bytes; want 1300, 1900, 300 (measured), 0",
			rep.BodyBytes, rep.DecodedBytes, rep.URLs[1].Bytes, rep.URLs[1].Size, rep.URLs[2].Bytes)
	}
}

func i64p(v int64) *int64 { return &v }
