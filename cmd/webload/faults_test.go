package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webload/webload/internal/faultsite"
	"github.com/webload/webload/internal/testtier"
)

// faultReport is what the fault tests read from the JSON result.
type faultReport struct {
	Requests     int64            `json:"requests"`
	Transactions int64            `json:"transactions"`
	Failed       int64            `json:"failed_transactions"`
	BodyBytes    int64            `json:"body_bytes"`
	Connections  int64            `json:"connections_opened"`
	StatusCodes  map[string]int64 `json:"status_codes"`
	Errors       map[string]int64 `json:"errors"`
	Elapsed      float64          `json:"elapsed_time"`
	Run          struct {
		StopReason string `json:"stop_reason"`
	} `json:"run"`
}

func startFaultSite(t *testing.T) *faultsite.Site {
	t.Helper()
	site, err := faultsite.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { site.Close() })
	return site
}

// Every kind of misbehaving server, for the closed and the open model: each request is counted
// once, under the right kind, and the run ends by itself: a run that hung would reach the
// helper's bound and exit 130, not 0, or 1 with the line that no request succeeded when every
// request failed or was refused (404). (webload's own accounting check runs on every result: a
// miscount would exit 70.)
func TestFaults(t *testing.T) {
	t.Parallel()
	site := startFaultSite(t)
	tests := []struct {
		path   string
		extra  []string
		kind   string // the one failure kind expected for every request, "" for none
		status string // the one status expected for every transaction
	}{
		{path: "/ok", status: "200"},
		{path: "/reset-before", kind: "closed"},
		{path: "/reset-after-headers", kind: "reset"},
		{path: "/hang", extra: []string{"--timeout", "300ms"}, kind: "timeout"},
		{path: "/stall-body", extra: []string{"--timeout", "300ms"}, kind: "timeout"},
		{path: "/trickle", extra: []string{"--timeout", "1500ms"}, kind: "timeout"},
		{path: "/bad-status", kind: "bad-response"},
		{path: "/garbage", kind: "bad-response"},
		{path: "/bad-chunked", kind: "bad-response"},
		{path: "/short-body", kind: "bad-response"},
		{path: "/huge", extra: []string{"--max-body", "1MB"}, kind: "too-large"},
		{path: "/close-after?n=2", status: "200"},
		{path: "/status?code=404", status: "404"},
	}
	models := []struct {
		name string
		args []string
	}{
		{"closed", []string{"-c", "2", "-r", "3"}},
		{"open", []string{"--rate", "30", "-r", "6"}},
	}
	for _, m := range models {
		for _, tc := range tests {
			t.Run(m.name+tc.path, func(t *testing.T) {
				t.Parallel()
				if tc.path == "/trickle" {
					testtier.Slow(t) // a byte a second until the timeout
				}
				args := append(append([]string{"-j"}, m.args...), tc.extra...)
				stdout, stderr, code := webload(t, nil, append(args, site.URL(tc.path))...)
				wantCode, wantErr := exitOK, ""
				if tc.kind != "" || tc.status >= "400" {
					wantCode, wantErr = exitGateFailed, "webload: no request succeeded (6 requests: 6 "
				}
				if code != wantCode || !strings.HasPrefix(stderr, wantErr) || strings.Count(stderr, "\n") > min(wantCode, 1) {
					t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, wantCode, wantErr)
				}
				var r faultReport
				if err := json.Unmarshal([]byte(stdout), &r); err != nil {
					t.Fatal(err)
				}
				if r.Requests != 6 {
					t.Errorf("%d requests, want 6", r.Requests)
				}
				if tc.kind != "" && (r.Failed != 6 || r.Errors[tc.kind] != 6 || len(r.Errors) != 1) {
					t.Errorf("failed %d, errors %v; want 6 of kind %s", r.Failed, r.Errors, tc.kind)
				}
				if tc.status != "" && (r.Transactions != 6 || r.StatusCodes[tc.status] != 6) {
					t.Errorf("transactions %d, status codes %v; want 6 of %s", r.Transactions, r.StatusCodes, tc.status)
				}
			})
		}
	}
}

// A 503 burst is counted exactly: 3 of every 10 requests fail, the rest are transactions.
func TestFaultBurst(t *testing.T) {
	t.Parallel()
	site := startFaultSite(t)
	stdout, stderr, code := webload(t, nil, "-j", "-c", "1", "-r", "20", site.URL("/burst"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r faultReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Failed != 6 || r.StatusCodes["503"] != 6 || r.Transactions != 14 || len(r.Errors) != 0 {
		t.Errorf("failed %d (503s %d), transactions %d, errors %v; want 6, 6, 14, none", r.Failed, r.StatusCodes["503"], r.Transactions, r.Errors)
	}
}

// A 100 MB body is read to the end and counted, and costs no memory: it is never kept.
func TestFaultLargeBodyIsCounted(t *testing.T) {
	t.Parallel()
	site := startFaultSite(t)
	const size = 100 << 20
	stdout, stderr, code := webload(t, nil, "-j", "-c", "2", "-r", "1", site.URL(fmt.Sprintf("/huge?bytes=%d", size)))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r faultReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Transactions != 2 || r.BodyBytes != 2*size {
		t.Errorf("transactions %d, body bytes %d; want 2 and %d", r.Transactions, r.BodyBytes, 2*size)
	}
}

// The site goes down for a second mid-run: only the requests of that second fail, and the
// users reconnect when it is back. The outage starts from the site's own count of requests and
// the run is stopped (as by Ctrl-C) once the site has answered 20 more after it, so how fast a
// busy machine runs moves neither out of the run.
func TestFaultServerRestart(t *testing.T) {
	t.Parallel()
	for _, model := range [][]string{{"-c", "4"}, {"--rate", "200"}} {
		t.Run(strings.Join(model, " "), func(t *testing.T) {
			t.Parallel()
			site := startFaultSite(t)
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			runCtx, stop := context.WithTimeout(ctx, 60*time.Second)
			defer stop()
			go func() {
				var before int64 = -1
				for range 3000 { // bounded: 30 s at most
					switch hits := site.Hits("/ok"); {
					case before < 0 && hits >= 20:
						_ = site.GoDown(time.Second)
						before = site.Hits("/ok")
					case before >= 0 && hits >= before+20:
						cancel(signalCause{syscall.SIGINT})
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
			}()
			var out, errw bytes.Buffer
			args := append([]string{"webload", "-j", "-t", "1H", "--timeout", "2"}, model...)
			err := runApp(runCtx, append(args, site.URL("/ok")), &out, &errw, func(string) (string, bool) { return "", false })
			if code := exitCode(err, &errw); code != 130 {
				t.Fatalf("exit %d, want 130 (stopped after the outage): %s", code, errw.String())
			}
			var r faultReport
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			// The site counts requests as they arrive; those cut by the outage arrived but got no
			// answer, so they are failures.
			if hits := site.Hits("/ok"); r.Failed == 0 || r.Transactions == 0 || hits < r.Transactions || hits > r.Transactions+r.Failed {
				t.Errorf("failed %d, transactions %d, the site saw %d: want failures during the outage, and each request it saw answered or failed",
					r.Failed, r.Transactions, hits)
			}
			if r.Connections < 2 {
				t.Errorf("%d connections opened: the users should have reconnected", r.Connections)
			}
		})
	}
}

// siege's failure threshold: the run stops at N requests without a response, reports what it
// measured, and exits 3 (long before its -t of one minute, or the stop reason would be time
// and the exit 0).
func TestFailureThreshold(t *testing.T) {
	t.Parallel()
	site := startFaultSite(t)
	stdout, stderr, code := webload(t, nil, "-j", "-c", "2", "-t", "1M", "--failures", "5", site.URL("/reset-before"))
	var r faultReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v; stderr %q", err, stderr)
	}
	// The second user's request in flight at the threshold may fail too: 5 or 6.
	want := fmt.Sprintf("aborted: %d requests got no response (--failures 5)", errorCount(r.Errors))
	if code != 3 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q; want 3 and %q", code, stderr, want)
	}
	if r.Failed < 5 || r.Run.StopReason != "failures" {
		t.Errorf("failed %d, stop reason %q", r.Failed, r.Run.StopReason)
	}
}

// Against a server that never answers, a timed run ends within its time plus one timeout:
// every request is a timeout, and the run returns. The site holds a request until it is closed,
// so without the timeout the run would not return before the generous 30 s bound.
func TestTimedRunAgainstAHungServer(t *testing.T) {
	t.Parallel()
	site := startFaultSite(t)
	for _, model := range [][]string{{"-c", "5"}, {"--rate", "50"}} {
		t.Run(strings.Join(model, " "), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			args := append([]string{"-j", "-t", "1S", "--timeout", "1"}, model...)
			stdout, stderr, code := webload(t, nil, append(args, site.URL("/hang"))...)
			took := time.Since(start)
			if code != exitGateFailed || !strings.HasPrefix(stderr, "webload: no request succeeded (") {
				t.Fatalf("exit %d: %s; want %d, no request succeeded", code, stderr, exitGateFailed)
			}
			if took > 30*time.Second {
				t.Errorf("took %v; -t 1S with --timeout 1 must end by itself", took)
			}
			var r faultReport
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Fatal(err)
			}
			if r.Requests == 0 || r.Errors["timeout"] != r.Requests {
				t.Errorf("requests %d, errors %v; every request should be a timeout", r.Requests, r.Errors)
			}
		})
	}
}

// Requests already in flight when the threshold is reached still end, and may fail too: the
// message gives the real count, not the threshold. The server holds the first 4 requests and
// then resets them all at once, so --failures 1 sees 4 failures.
func TestFailureThresholdSaysTheRealCount(t *testing.T) {
	t.Parallel()
	const users = 4
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go resetInGroups(ln, users)
	stdout, stderr, code := webload(t, nil, "-j", "-c", fmt.Sprint(users), "-t", "1M", "--timeout", "30",
		"--failures", "1", "http://"+ln.Addr().String()+"/")
	var r faultReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v; stderr %q", err, stderr)
	}
	noResponse := errorCount(r.Errors)
	want := fmt.Sprintf("aborted: %d requests got no response (--failures 1)", noResponse)
	if code != 3 || noResponse != users || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, errors %v, stderr %q; want 3 and %q", code, r.Errors, stderr, want)
	}
}

// errorCount adds up the requests without a response, of every kind.
func errorCount(errs map[string]int64) int64 {
	var n int64
	for _, c := range errs {
		n += c
	}
	return n
}

// resetInGroups accepts connections, reads one request head from each, and once n requests
// are held resets all n connections at once; it ends when ln is closed.
func resetInGroups(ln net.Listener, n int) {
	var held []net.Conn
	for {
		c, err := ln.Accept()
		if err != nil {
			for _, c := range held {
				c.Close()
			}
			return
		}
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		buf := make([]byte, 0, 1024)
		for !bytes.Contains(buf, []byte("\r\n\r\n")) && len(buf) < cap(buf) {
			m, err := c.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+m]
			if err != nil {
				break
			}
		}
		held = append(held, c)
		if len(held) < n {
			continue
		}
		for _, c := range held {
			_ = c.(*net.TCPConn).SetLinger(0) // close sends RST
			c.Close()
		}
		held = held[:0]
	}
}
