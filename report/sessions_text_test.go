package report

import (
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/resulttest"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// The text report says how many logins were made and how they failed, what the rules took and
// missed, and which URLs missed values, with the first message; the per-URL table has the
// extraction columns and the login steps apart.
func TestSessionText(t *testing.T) {
	t.Parallel()
	const login, url = loader.KindLogin, loader.KindURL
	miss := loader.ErrExtract
	batch := []loader.Result{
		resulttest.SessionResult(3, 0, login, 200, miss, 10),
		resulttest.SessionResult(4, 0, login, 0, miss, 0),
		resulttest.SessionResult(0, 0, url, 200, loader.ErrNone, 5),
		resulttest.SessionResult(3, 1, login, 200, loader.ErrNone, 10),
		resulttest.SessionResult(4, 1, login, 503, loader.ErrNone, 20),
		resulttest.SessionResult(1, 1, url, 200, loader.ErrNone, 5),
		resulttest.SessionResult(2, 1, url, 200, loader.ErrNone, 5),
	}
	msg := "token: css:input[name=wpLoginToken] value: no element matches"
	lockedOut := []loader.Result{resulttest.SessionResult(3, 0, login, 403, loader.ErrNone, 10), resulttest.SessionResult(4, 0, login, 0, loader.ErrTimeout, 10)}
	for _, tc := range []struct {
		name    string
		batch   []loader.Result // batch when nil
		outcome loader.Outcome
		want    []string
	}{
		{"one message for the run", nil, loader.Outcome{ErrorSamples: map[loader.ErrKind]string{loader.ErrExtract: msg}}, []string{
			"Logins:\t\t\t           2 begun: 0 made, 2 failed (HTTP 503: 1, extract: 1); 2 users never logged in; 4 requests; a step took 10.000 ms mean, 10.000 ms p95, 10.000 ms max\n",
			"Extractions:\t\t           3 taken, 1 missing (1 requests not sent for a missing value)\n",
			"Failed extractions:\tGET http://127.0.0.1/login: 1 missing, 0 not sent\n" +
				"\t\t\tPOST http://127.0.0.1/login: 0 missing, 1 not sent\n" +
				"\t\t\tfirst: " + msg + "\n",
			"Failed requests:\tHTTP 503: 1, extract: 2\n",
			"    Hits   Failed       Mean        p50        p95        p99        Max        Bytes  Extracted  Missing  URL\n",
			"\nLogin steps, in order:\n",
			"  GET  /login\n",
		}},
		{"a message per URL", nil, loader.Outcome{ErrorSamples: map[loader.ErrKind]string{loader.ErrExtract: msg},
			ExtractSamples: map[int32]string{3: msg, 4: "needs token, which is missing"}}, []string{
			"Failed extractions:\tGET http://127.0.0.1/login: 1 missing, 0 not sent; first: " + msg + "\n" +
				"\t\t\tPOST http://127.0.0.1/login: 0 missing, 1 not sent; first: needs token, which is missing\n" +
				"Wire data:",
		}},
		{"no login step succeeded", lockedOut, loader.Outcome{}, []string{
			"Logins:\t\t\t           1 begun: 0 made, 1 failed (HTTP 403: 1); 1 user never logged in; 2 requests; a step took 10.000 ms mean",
		}},
		{"made, and cut short by the run's end", []loader.Result{
			resulttest.SessionResult(3, 0, login, 200, loader.ErrNone, 10), resulttest.SessionResult(4, 0, login, 200, loader.ErrNone, 10),
			resulttest.SessionResult(0, 0, url, 200, loader.ErrNone, 5), resulttest.SessionResult(3, 1, login, 200, loader.ErrNone, 10),
		}, loader.Outcome{}, []string{
			"Logins:\t\t\t           2 begun: 1 made, 0 failed, 1 cut short by the run's end; 0 users never logged in; 3 requests; a step took 10.000 ms mean",
		}},
		{"every login step failed", lockedOut[1:], loader.Outcome{}, []string{
			"Logins:\t\t\t           1 begun: 0 made, 1 failed (timeout: 1); 1 user never logged in; 1 requests; no step succeeded\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := stats.NewRecorder(resulttest.SessionTargets(t), stats.Options{})
			if tc.batch == nil {
				tc.batch = batch
			}
			rec.Record(tc.batch)
			tc.outcome.Elapsed, tc.outcome.Users = time.Second, 2
			rep := rec.Report(tc.outcome, stats.RunInfo{}, "")
			text := string(textOf(t, &rep, TextOptions{PerURL: true}))
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("text lacks %q:\n%s", w, text)
				}
			}
		})
	}
}
