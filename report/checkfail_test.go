package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// A request that failed a check is a failed transaction of kind "check": its body's bytes
// count as received, the URL's row counts it as a failure and carries the first message of its
// failed check, and the text report names the URL and the check. Saved and read back, the
// message survives a merge of repeats.
func TestCheckFailures(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/ok", Source: "u:1"}, {Method: "GET", URL: "http://127.0.0.1/db", Source: "u:2"}}
	rec := stats.NewRecorder(targets, stats.Options{})
	batch := []loader.Result{
		{Target: 0, Status: 200, BodyBytes: 1000, Decoded: 1000, Latency: time.Millisecond},
		{Target: 1, Status: 200, BodyBytes: 500, Decoded: 700, Latency: time.Millisecond, Err: loader.ErrCheck},
		{Target: 1, Status: 200, BodyBytes: 500, Decoded: 700, Latency: time.Millisecond, Err: loader.ErrCheck},
		{Target: 0, Status: 200, BodyBytes: 1000, Decoded: 1000, Latency: time.Millisecond},
	}
	rec.Record(batch)
	msg := `check body!~"database query error" failed`
	out := loader.Outcome{Elapsed: time.Second, Users: 1, ErrorSamples: map[loader.ErrKind]string{loader.ErrCheck: msg},
		CheckSamples: map[int32]string{1: msg}}
	rep := rec.Report(out, stats.RunInfo{}, "")
	if err := rep.Check(); err != nil {
		t.Fatal(err)
	}
	if rep.Errors["check"] != 2 || rep.FailedTransactions != 2 || rep.Transactions != 2 || rep.Availability != 50 {
		t.Errorf("errors %v, failed %d, transactions %d, availability %v; want 2 check failures of 4", rep.Errors, rep.FailedTransactions, rep.Transactions, rep.Availability)
	}
	if rep.BodyBytes != 3000 || rep.DecodedBytes != 3400 {
		t.Errorf("body bytes %d, decoded %d; want the checked bodies counted: 3000, 3400", rep.BodyBytes, rep.DecodedBytes)
	}
	if u := rep.URLs[1]; u.Failures != 2 || u.CheckFailure != msg || u.Bytes != 1000 {
		t.Errorf("URL row %+v: want 2 failures, 1000 bytes and the check's message", u)
	}
	if rep.URLs[0].CheckFailure != "" {
		t.Errorf("a URL that passed its checks has a message %q", rep.URLs[0].CheckFailure)
	}
	var text bytes.Buffer
	if err := WriteText(&text, &rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "Failed checks:\t\tGET http://127.0.0.1/db: " + msg + "; 2 failures\n"; !strings.Contains(text.String(), want) {
		t.Errorf("text report lacks %q:\n%s", want, text.String())
	}
	saved, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back stats.Report
	if err := json.Unmarshal(saved, &back); err != nil {
		t.Fatal(err)
	}
	combined, err := stats.Combine([]stats.Report{back, back})
	if err != nil {
		t.Fatal(err)
	}
	if u := combined.URLs[1]; u.CheckFailure != msg || u.Failures != 4 {
		t.Errorf("combined URL row %+v: want 4 failures and the message", u)
	}
}

// A run without failed checks writes no check message: saved results stay as they were.
func TestNoCheckFailureInJSON(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://127.0.0.1/ok", Source: "u:1"}}
	rec := stats.NewRecorder(targets, stats.Options{})
	rec.Record([]loader.Result{{Target: 0, Status: 200, BodyBytes: 10, Decoded: 10, Latency: time.Millisecond}})
	rep := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1}, stats.RunInfo{}, "")
	saved, _ := json.Marshal(rep)
	if bytes.Contains(saved, []byte("check")) {
		t.Errorf("JSON mentions checks: %s", saved)
	}
	var text bytes.Buffer
	_ = WriteText(&text, &rep, TextOptions{})
	if strings.Contains(text.String(), "Failed checks") {
		t.Errorf("text report mentions checks:\n%s", text.String())
	}
}
