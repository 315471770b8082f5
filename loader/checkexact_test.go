package loader

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/testtier"
)

// block is the size of the blocks a body check once matched one at a time, whose edges at
// block*k must mean nothing to a regular expression.
const block = 32 << 10

// Body checks have the meaning of their regular expression on the whole decoded body: anchors
// and word boundaries never match at the edge of a block the reading happened to cut, and a
// match longer than a block is found. Each body is served plain and gzip-compressed.
func TestBodyChecksMatchTheWholeBody(t *testing.T) {
	t.Parallel()
	bodies := map[string]string{
		// "DONE" ends at byte 2*block, then the body goes on.
		"/done-inside": pad("x", 2*block-4) + "DONE" + pad("filler ", block),
		"/done-at-end": pad("x", 2*block-4) + "DONE",
		// "START" begins at byte block, and again at 2*block, after no newline.
		"/start-inside": pad("x", block) + "START" + pad("x", block-5) + "START" + pad("y", block),
		// A word inside a longer one, split at 2*block, where a block once began.
		"/word-split": pad("x", 2*block-3) + "abcword" + pad(" ", 2*block),
		// A match 100 KB long: BEGIN, no '!', END.
		"/long-match": "BEGIN" + pad("z", 100<<10) + "END" + pad("!", 10),
	}
	srv := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		body := bodies[strings.TrimPrefix(r.URL.Path, "/gz")]
		if strings.HasPrefix(r.URL.Path, "/gz/") {
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gzipped(t, body))
			return
		}
		_, _ = w.Write([]byte(body))
	})
	tests := []struct {
		path, check string
		pass        bool
	}{
		{"/done-inside", `body~"DONE$"`, false},
		{"/done-inside", `body~"DONE\z"`, false},
		{"/done-inside", `body!~"DONE$"`, true},
		{"/done-inside", `body~"(?m)DONE$"`, false},
		{"/done-inside", `body~"DONE"`, true},
		{"/done-at-end", `body~"DONE$"`, true},
		{"/done-at-end", `body~"DONE\z"`, true},
		{"/start-inside", `body~"\ASTART"`, false},
		{"/start-inside", `body~"^START"`, false},
		{"/start-inside", `body~"(?m)^START"`, false},
		{"/start-inside", `body!~"(?m)^START"`, true},
		{"/start-inside", `body~"\A(x+)START"`, true},
		{"/word-split", `body~"\bword\b"`, false},
		{"/word-split", `body~"\Bword\b"`, true},
		{"/long-match", `body~"BEGIN[^!]*END"`, true},
		{"/long-match", `body!~"BEGIN[^!]*END"`, false},
		{"/long-match", `body~"^BEGIN[^!]*END!+$"`, true},
	}
	for _, tt := range tests {
		for _, prefix := range []string{"", "/gz"} {
			t.Run(prefix+tt.path+" "+tt.check, func(t *testing.T) {
				t.Parallel()
				results, out := run(t, Config{Users: 1, Reps: 1, Checks: mustChecks(t, tt.check)}, checkTargets(t, srv.URL, prefix+tt.path))
				want := ErrNone
				if !tt.pass {
					want = ErrCheck
				}
				if len(results) != 1 || results[0].Err != want || results[0].Status != 200 {
					t.Fatalf("results %+v, want one 200 with failure kind %v (%s)", results, want, out.CheckSamples[0])
				}
				if n := int64(len(bodies[tt.path])); results[0].Decoded != n {
					t.Errorf("decoded %d bytes, want %d", results[0].Decoded, n)
				}
			})
		}
	}
}

// A body check is matched after the response's last byte, off its time: however long the
// matching takes, the request's timeout bounds the server alone. Here the server answers a
// 96 KiB body at once and the check costs about a second on it, beyond the 300 ms timeout; no
// request may time out, and each is counted as a checked answer.
func TestSlowBodyCheckIsNoTimeout(t *testing.T) {
	testtier.Slow(t)
	t.Parallel()
	body := pad("<p>Price: 15.65 EUR, in stock.</p>\n", 96<<10)
	srv := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(body))
	})
	// Every byte starts up to n threads of the regexp's NFA: microseconds per byte. The race
	// detector slows the regexp some twentyfold, and a tenth of the threads keep it well
	// beyond the timeout there too.
	n := 600
	if raceEnabled {
		n = 50
	}
	cfg := Config{Users: 2, Reps: 1, Timeout: 300 * time.Millisecond, Checks: mustChecks(t, fmt.Sprintf(`body!~"[^Z]{%d}Z"`, n))}
	results, out := run(t, cfg, checkTargets(t, srv.URL, "/"))
	var ok, timeouts int
	for _, r := range results {
		switch r.Err {
		case ErrNone:
			ok++
		case ErrTimeout:
			timeouts++
		}
	}
	if ok != 2 || timeouts != 0 {
		t.Errorf("%d answers passed, %d timed out; want 2 and 0 (first error: %q)", ok, timeouts, out.ErrorSamples[ErrTimeout])
	}
	if out.Checked != 2 || out.CheckTime <= 0 {
		t.Errorf("checks judged on %d answers in %v, want 2 answers and their time", out.Checked, out.CheckTime)
	}
}

// pad repeats s to exactly n bytes.
func pad(s string, n int) string { return strings.Repeat(s, n/len(s)+1)[:n] }

// gzipped compresses s.
func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Of a body longer than Config.CheckBody the checks read the start: a match well inside it
// decides, and a condition it cannot decide fails, with a message that says why. The body is
// still read to its end and counted whole.
func TestChecksReadTheStartOfALongBody(t *testing.T) {
	t.Parallel()
	srv := checkSite(t)
	late := strings.Repeat("<p>fine</p>\n", 200<<10/12) + dbError // as /late serves it
	tests := []struct {
		path, check string
		msg         string // "" for a pass
	}{
		{"/late", `body~"<p>fine</p>"`, ""},
		{"/late", `body!~"database query error"`,
			`check body!~"database query error" failed: undecided, the body (` + strconv.Itoa(len(late)) + ` B) is longer than the 4096 B a check reads`},
		{"/late", `body!~"fine"`, `check body!~"fine" failed`},
		{"/db", `body!~"database query error"`, `check body!~"database query error" failed`},
		{"/ok", `body~"Price: 15\.65 EUR</body></html>$"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.check, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Users: 1, Reps: 1, CheckBody: 4096, Checks: mustChecks(t, tt.check)}
			results, out := run(t, cfg, checkTargets(t, srv.URL, tt.path))
			want := ErrNone
			if tt.msg != "" {
				want = ErrCheck
			}
			if len(results) != 1 || results[0].Err != want || out.CheckSamples[0] != tt.msg {
				t.Fatalf("results %+v, message %q; want failure kind %v, message %q", results, out.CheckSamples[0], want, tt.msg)
			}
			if tt.path == "/late" && results[0].BodyBytes != int64(len(late)) {
				t.Errorf("%d body bytes counted, want all %d", results[0].BodyBytes, len(late))
			}
		})
	}
}
