package judge_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/internal/resulttest"
	"github.com/webload/webload/judge"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// In CI, a URL whose requests now fail for a missing value is a failed test case of its own,
// as a URL that now fails a check is: the login form that lost its token, and the POST that
// could not be sent.
func TestExtractFailuresInJUnit(t *testing.T) {
	t.Parallel()
	cmp, err := judge.Compare([]stats.Report{resulttest.Load(t, stats.ReadJSON, "login-extract"), resulttest.Load(t, stats.ReadJSON, "login-extract-broken")}, false)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := judge.WriteJUnit(&b, "webload compare", cmp.CheckContent(0)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<testcase name="content: wiki-broken GET /index.php?title=Special:UserLogin" classname="webload.gates">`,
		`<failure message="Content wiki-broken GET /index.php?title=Special:UserLogin: status 200 ×20 → failed extract ×10, 200 ×10: FAILED`,
		`<testcase name="content: wiki-broken POST /index.php?title=Special:UserLogin" classname="webload.gates">`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JUnit lacks %s:\n%s", want, b.String())
		}
	}
}

// --assert holds a run to its extract and login failures, overall or of the URLs a selector
// names; a run that took no value or logged nobody in has no such figure, so the gate fails
// rather than pass unseen.
func TestSessionGates(t *testing.T) {
	t.Parallel()
	const login, url = loader.KindLogin, loader.KindURL
	miss := loader.ErrExtract
	record := func(batch []loader.Result) *stats.Report {
		rec := stats.NewRecorder(resulttest.SessionTargets(t), stats.Options{})
		rec.Record(batch)
		rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 2}, stats.RunInfo{}, "")
		return &rep
	}
	failing := record([]loader.Result{
		resulttest.SessionResult(3, 0, login, 200, miss, 10), resulttest.SessionResult(4, 0, login, 0, miss, 0),
		resulttest.SessionResult(1, 0, url, 200, loader.ErrNone, 5), resulttest.SessionResult(2, 0, url, 200, loader.ErrNone, 5),
		resulttest.SessionResult(3, 1, login, 200, loader.ErrNone, 10), resulttest.SessionResult(4, 1, login, 503, loader.ErrNone, 20),
	})
	plain := record([]loader.Result{resulttest.SessionResult(0, 0, url, 200, loader.ErrNone, 5)})
	for _, tc := range []struct {
		name, expr string
		rep        *stats.Report
		passed     bool
		text       string
	}{
		{"values missing", "extract_failures==0", failing, false, "extract_failures = 2, allowed == 0: FAILED"},
		{"by its alias", "extract<=2", failing, true, "extract_failures = 2, allowed <= 2: ok"},
		{"of the login form and its POST", "url:/login extract_failures==0", failing, false,
			"extract_failures of GET http://127.0.0.1/login (worst of 2 matching URLs) = 1, allowed == 0: FAILED"},
		{"of the cart", "url:/cart extract_failures==0", failing, true, ""},
		{"logins", "login_failures==0", failing, false, "login_failures = 2, allowed == 0: FAILED"},
		{"users never logged in", "users_never_logged_in==0", failing, false, "users_never_logged_in = 2, allowed == 0: FAILED"},
		{"users never logged in, by its alias", "never_logged_in<=2", failing, true, "users_never_logged_in = 2, allowed <= 2: ok"},
		{"no logins, no users to log in", "users_never_logged_in==0", plain, false,
			"users_never_logged_in==0: users_never_logged_in was not measured in this run: FAILED"},
		{"no rules", "extract_failures==0", plain, false, "extract_failures==0: extract_failures was not measured in this run: FAILED"},
		{"no logins", "login_failures==0", plain, false, "login_failures==0: login_failures was not measured in this run: FAILED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g, err := gate.ParseGate(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			v := gate.CheckGates(tc.rep, []gate.Gate{g})[0]
			if v.Passed != tc.passed || tc.text != "" && v.Text != tc.text {
				t.Errorf("%s: passed %v, %q; want %v, %q", tc.expr, v.Passed, v.Text, tc.passed, tc.text)
			}
		})
	}
}
