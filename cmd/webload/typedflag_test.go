package main

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/userdata"
)

// booker is what every typed flag value is: it books its problems with the others.
type booker interface{ book(*problems) }

// typedFlags are the run's and the capacity search's flags over o, by name.
func typedFlags(t *testing.T, o *runOptions) map[string]*cli.GenericFlag {
	t.Helper()
	byName := map[string]*cli.GenericFlag{}
	for _, f := range append(optionFlags(o), capacityFlags(o)...) {
		if g, ok := f.(*cli.GenericFlag); ok {
			if _, ok := g.Value.(booker); !ok {
				t.Fatalf("--%s holds a %T, which books no problems", g.Name, g.Value)
			}
			byName[g.Name] = g
		}
	}
	return byName
}

// problemLines are the problems booked by a flag's value, a line each.
func problemLines(v cli.Generic) []string {
	var p problems
	v.(booker).book(&p)
	var lines []string
	for _, pr := range p.list {
		lines = append(lines, pr.err.Error())
	}
	return lines
}

// Each typed flag parses its text as it is set: a good value into what the run uses, a bad one
// into a one-line problem naming the flag as the user knows it.
func TestTypedFlags(t *testing.T) {
	t.Parallel()
	minutes := func(n int) time.Duration { return time.Duration(n) * time.Minute }
	tests := []struct {
		flag   string
		values []string // set in turn: a repeatable flag's values
		got    func(o *runOptions) any
		want   any      // what got reads when there is no problem
		lines  []string // the problems
	}{
		{"concurrent", []string{"10,20,40"}, func(o *runOptions) any { return o.concurrent.val }, []int{10, 20, 40}, nil},
		{"concurrent", []string{"0"}, nil, nil, []string{"-c: the number of users must be at least 1 (got 0)"}},
		{"concurrent", []string{"many"}, nil, nil, []string{`-c: want a number of users, or a ladder such as 10,20,40 (got "many")`}},
		{"concurrent", []string{"20,10"}, nil, nil, []string{`-c: a ladder rises: each step has more users than the one before (got 10 after 20 in "20,10")`}},
		{"reps", []string{"once"}, func(o *runOptions) any { return o.reps.val }, reps{once: true}, nil},
		{"reps", []string{"7"}, func(o *runOptions) any { return o.reps.val }, reps{n: 7}, nil},
		{"reps", []string{"0"}, nil, nil, []string{`-r: want a number of requests per user or "once" (got "0")`}},
		{"time", []string{"5"}, func(o *runOptions) any { return o.time.val }, minutes(5), nil},
		{"time", []string{"30S"}, func(o *runOptions) any { return o.time.val }, 30 * time.Second, nil},
		{"time", []string{"5X"}, nil, nil, []string{`-t: want NUM[S|M|H] such as 30S, 5M or 1H (got "5X")`}},
		{"rate", []string{"30/1m"}, func(o *runOptions) any { return o.rate.val }, 0.5, nil},
		{"rate", []string{"fast"}, nil, nil, []string{`--rate: want requests per second such as 500, or per a period such as 30/1m (got "fast")`}},
		{"rate", []string{"5/x"}, nil, nil, []string{`--rate: want a period such as 1s, 1m or 10s after "/" (got "5/x")`}},
		{"ramp", []string{"30s"}, func(o *runOptions) any { return o.ramp.val }, 30 * time.Second, nil},
		{"ramp", []string{"soon"}, nil, nil, []string{`--ramp: want seconds or a duration such as 500ms (got "soon")`}},
		{"delay", []string{"0.5"}, func(o *runOptions) any { return o.delay.val }, 500 * time.Millisecond, nil},
		{"delay", []string{"-1"}, nil, nil, []string{`-d: want a number of seconds from 0 (got "-1")`}},
		{"timeout", []string{"2"}, func(o *runOptions) any { return o.timeout.val }, 2 * time.Second, nil},
		{"timeout", []string{"0"}, nil, nil, []string{`--timeout: want a positive number of seconds or a duration such as 500ms (got "0")`}},
		{"repeat-pause", []string{"0"}, func(o *runOptions) any { return o.repeatPause.val }, time.Duration(0), nil},
		{"repeat-pause", []string{"later"}, nil, nil, []string{`--repeat-pause: want seconds or a duration such as 500ms (got "later")`}},
		{"interval", []string{"500ms"}, func(o *runOptions) any { return o.interval.val }, 500 * time.Millisecond, nil},
		{"interval", []string{"10us"}, nil, nil, []string{`--interval: want a duration of at least 1ms such as 1s or 500ms (got "10us")`}},
		{"abort-window", []string{"10s"}, func(o *runOptions) any { return o.abort.window.val }, 10 * time.Second, nil},
		{"abort-window", []string{"1ms"}, nil, nil, []string{`--abort-window: want a duration of at least 100ms such as 10s (got "1ms")`}},
		{"shard", []string{"1/4"}, func(o *runOptions) any { return o.shard.val }, shardIndex{1, 4}, nil},
		{"shard", []string{"4/4"}, nil, nil, []string{`--shard: want I/N with 0 <= I < N, e.g. 0/4 (got "4/4")`}},
		{"start-at", []string{"2026-12-01T10:00:00Z"}, func(o *runOptions) any { return o.startAt.val }, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), nil},
		{"start-at", []string{"noon"}, nil, nil, []string{`--start-at: want an RFC 3339 time such as 2026-12-01T10:00:00Z (got "noon")`}},
		{"start-after", []string{"30s"}, func(o *runOptions) any { return o.startAfter.val }, 30 * time.Second, nil},
		{"start-after", []string{"-3s"}, nil, nil, []string{`--start-after: want a duration such as 30s (got "-3s")`}},
		{"header", []string{"X-A: 1", "x-b:2"}, func(o *runOptions) any { return o.header.values() }, []loader.Header{{Name: "X-A", Value: "1"}, {Name: "x-b", Value: "2"}}, nil},
		{"header", []string{"X-A: 1", "oops"}, nil, nil, []string{`-H: want "Name: value" (got "oops")`}},
		{"user", []string{"ops:s3cret"}, func(o *runOptions) any { return o.user.val }, "ops:s3cret", nil},
		// The problem never shows the value: it may be a password.
		{"user", []string{"s3cret"}, nil, nil, []string{"-u: want USER:PASSWORD (got a value without a colon)"}},
		{"connection", []string{"close"}, func(o *runOptions) any { return o.connectionClose.val }, true, nil},
		{"connection", []string{"maybe"}, nil, nil, []string{`--connection: want keep-alive or close (got "maybe")`}},
		{"header-buffer", []string{"32KB"}, func(o *runOptions) any { return o.headerBuffer.val }, int64(32 << 10), nil},
		{"header-buffer", []string{"2MB"}, nil, nil, []string{`--header-buffer: want a size from 1KB to 1MB (got "2MB")`}},
		{"max-body", []string{"10MB"}, func(o *runOptions) any { return o.maxBody.val }, int64(10 << 20), nil},
		{"max-body", []string{"0"}, nil, nil, []string{`--max-body: want a size such as 512KB, 10MB or 1GB (got "0")`}},
		{"check", []string{"status==200", "size>=10KB"}, func(o *runOptions) any { return len(o.checks.values()) }, 2, nil},
		{"check", []string{"bogus"}, nil, nil, []string{"--check: col 1: want status, size, body or header:NAME"}},
		{"volatile", []string{`\d+`}, func(o *runOptions) any { return o.volatile.values() }, []string{`\d+`}, nil},
		{"volatile", []string{"("}, nil, nil, []string{"--volatile: error parsing regexp: missing closing ): `(`"}},
		{"resolve", []string{"shop.test:80:127.0.0.1"}, func(o *runOptions) any { return o.resolve.values() }, []string{"shop.test:80:127.0.0.1"}, nil},
		{"resolve", []string{"shop.test"}, nil, nil, []string{`--resolve: bad entry "shop.test": want HOST:PORT:ADDR`}},
		{"connect-to", []string{"shop.test:80:127.0.0.1:8080"}, func(o *runOptions) any { return o.connectTo.values() }, []string{"shop.test:80:127.0.0.1:8080"}, nil},
		{"connect-to", []string{"shop.test"}, nil, nil, []string{`--connect-to: bad entry "shop.test": want HOST1:PORT1:HOST2:PORT2`}},
		{"resource-hosts", []string{"cdn.test, img.test:8443,", "static.test"}, func(o *runOptions) any { return o.resourceHosts.values() }, []string{"cdn.test", "img.test:8443", "static.test"}, nil},
		// Each host of a comma-separated value is judged on its own.
		{"resource-hosts", []string{"http://cdn.test/,ok.test,ftp://img.test"}, nil, nil, []string{
			`--resource-hosts: bad host "http://cdn.test/": want a host name such as example.com, or host:port, not a URL`,
			`--resource-hosts: bad host "ftp://img.test": want a host name such as example.com, or host:port, not a URL`,
		}},
		{"siege-format", []string{"4.1"}, func(o *runOptions) any { return o.siegeFormat.text }, "4.1", nil},
		{"siege-format", []string{"9"}, nil, nil, []string{`--siege-format: unknown siege format "9" (want 4.0 or 4.1)`}},
		{"data-pick", []string{"unique"}, func(o *runOptions) any { return o.dataPick.val }, userdata.Unique, nil},
		{"data-pick", []string{"odd"}, nil, nil, []string{`--data-pick: want sequential, random or unique (got "odd")`}},
		{"assert", []string{"p95<800ms", "url:/checkout p99<2s"}, func(o *runOptions) any { return len(o.assert.values()) }, 2, nil},
		{"assert", []string{"p96<1"}, nil, nil, []string{`--assert: bad gate "p96<1": at column 1: unknown metric "p96": write p(96) for that percentile`}},
		{"abort-on", []string{"error_rate>5"}, func(o *runOptions) any { return len(o.abort.on.values()) }, 1, nil},
		{"slo", []string{"p95<500ms"}, func(o *runOptions) any { return len(o.slo.values()) }, 1, nil},
		{"slo", []string{"p95>1s"}, nil, nil, []string{"--slo: not a gate a capacity search can use: p95>1s: a heavier load raises p95, so a lower bound only gets easier to keep; write an upper bound such as p95<500ms"}},
		{"server-metrics", []string{"http://127.0.0.1:9100/metrics"}, func(o *runOptions) any { return o.serverMetrics.val != nil }, true, nil},
		{"server-metrics", []string{"ftp://127.0.0.1/"}, nil, nil, []string{`--server-metrics: parsing load source "ftp://127.0.0.1/": want "local" or an http(s) URL of a node exporter`}},
		{"step-time", []string{"1s"}, func(o *runOptions) any { return o.search.stepTime.val }, time.Second, nil},
		{"step-time", []string{"0"}, nil, nil, []string{`--step-time: want a positive duration such as 10s (got "0")`}},
		{"step-time", []string{"1ns"}, nil, nil, []string{`--step-time: want 1s at least, for a step to hold requests enough to judge (got "1ns")`}},
		{"settle", []string{"0"}, func(o *runOptions) any { return o.search.settle.val }, time.Duration(0), nil},
		{"settle", []string{"-1"}, nil, nil, []string{`--settle: want a duration such as 2s, or 0 (got "-1")`}},
		{"from", []string{"30/1m"}, func(o *runOptions) any { return o.search.from.val }, 0.5, nil},
		{"to", []string{"y"}, nil, nil, []string{`--to: want requests per second such as 500, or per a period such as 30/1m (got "y")`}},
	}
	for _, tc := range tests {
		t.Run(tc.flag+" "+strings.Join(tc.values, " "), func(t *testing.T) {
			t.Parallel()
			o := new(runOptions)
			f := typedFlags(t, o)[tc.flag]
			if f == nil {
				t.Fatalf("no typed flag --%s", tc.flag)
			}
			for _, v := range tc.values {
				if err := f.Value.Set(v); err != nil {
					t.Fatalf("Set(%q) = %v; a typed flag keeps its problem for later", v, err)
				}
			}
			lines := problemLines(f.Value)
			if !reflect.DeepEqual(lines, tc.lines) {
				t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(tc.lines, "\n"))
			}
			for _, l := range lines {
				if strings.Contains(l, "\n") {
					t.Errorf("problem %q is more than one line", l)
				}
			}
			if tc.got != nil {
				if got := tc.got(o); !reflect.DeepEqual(got, tc.want) {
					t.Errorf("parsed %#v, want %#v", got, tc.want)
				}
			}
		})
	}
}

// Every typed flag's default parses, and a value set again replaces the one before: a problem
// does not outlive a good value.
func TestTypedFlagDefaults(t *testing.T) {
	t.Parallel()
	o := new(runOptions)
	for name, f := range typedFlags(t, o) {
		if lines := problemLines(f.Value); len(lines) > 0 {
			t.Errorf("--%s's default %q: %s", name, f.Value.String(), strings.Join(lines, "; "))
		}
	}
	if o.interval.val != time.Second || o.timeout.val <= 0 || o.abort.window.val <= 0 {
		t.Errorf("defaults: --interval %v, --timeout %v, --abort-window %v", o.interval.val, o.timeout.val, o.abort.window.val)
	}
	f := typedFlags(t, o)["timeout"]
	_ = f.Value.Set("soon")
	_ = f.Value.Set("5")
	if lines := problemLines(f.Value); len(lines) > 0 || o.timeout.val != 5*time.Second {
		t.Errorf("--timeout soon, then 5: %v, problems %q", o.timeout.val, lines)
	}
}

// urfave/cli copies a flag given by one name to its others (-H to --header); a repeatable
// flag keeps each value once, and -C shows them as given.
func TestTypedFlagAliases(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := webload(t, nil, "-C", "-H", "X-A: 1", "-H", "X-B: 2", "-c", "3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var headers []string
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "header:") || strings.HasPrefix(line, "concurrent:") {
			headers = append(headers, strings.Join(strings.Fields(line), " "))
		}
	}
	want := []string{"concurrent: 3 (command line)", "header: X-A: 1 (command line)", "header: X-B: 2 (command line)"}
	if !reflect.DeepEqual(headers, want) {
		t.Errorf("-C shows\n%s\nwant\n%s", strings.Join(headers, "\n"), strings.Join(want, "\n"))
	}
}

// Every typed flag's problem is named in one try, a line each, in the order the settings are
// checked, with the problems that concern several flags among them; exit 2.
func TestEveryBadTypedFlagAtOnce(t *testing.T) {
	t.Parallel()
	_, stderr, code := webload(t, nil,
		"-c", "0", "-r", "0", "-t", "5X", "--timeout", "soon", "--rate", "x", "--ramp", "y", "-d", "z",
		"--interval", "0", "--repeat-pause", "q", "--abort-window", "1ms", "--shard", "9/2",
		"--start-at", "nope", "--start-after", "-3s", "-H", "oops", "--resolve", "bad",
		"--connect-to", "bad", "--volatile", "(", "--resource-hosts", "http://x/,ok.com,ftp://y",
		"--check", "bogus", "--connection", "maybe", "--header-buffer", "1", "--max-body", "0",
		"--siege-format", "9", "--data-pick", "odd", "--assert", "p96<1", "--abort-on", "p96>1",
		"-u", "nocolon", "http://127.0.0.1:1/")
	want := []string{
		"-c: the number of users must be at least 1 (got 0)",
		`-r: want a number of requests per user or "once" (got "0")`,
		`-t: want NUM[S|M|H] such as 30S, 5M or 1H (got "5X")`,
		`-d: want seconds or a duration such as 500ms (got "z")`,
		`--timeout: want a positive number of seconds or a duration such as 500ms (got "soon")`,
		`--rate: want requests per second such as 500, or per a period such as 30/1m (got "x")`,
		"-c sets the users of the closed model; with --rate the schedule starts users as needed, capped by --max-users",
		"-d pauses closed-model users; with --rate the schedule alone decides when requests start",
		`--ramp: want seconds or a duration such as 500ms (got "y")`,
		`--data-pick: want sequential, random or unique (got "odd")`,
		`-H: want "Name: value" (got "oops")`,
		"--volatile: error parsing regexp: missing closing ): `(`",
		`--connection: want keep-alive or close (got "maybe")`,
		`--header-buffer: want a size from 1KB to 1MB (got "1")`,
		"--check: col 1: want status, size, body or header:NAME",
		`--max-body: want a size such as 512KB, 10MB or 1GB (got "0")`,
		`--resource-hosts: bad host "http://x/": want a host name such as example.com, or host:port, not a URL`,
		`--resource-hosts: bad host "ftp://y": want a host name such as example.com, or host:port, not a URL`,
		`--resolve: bad entry "bad": want HOST:PORT:ADDR`,
		`--connect-to: bad entry "bad": want HOST1:PORT1:HOST2:PORT2`,
		"-u: want USER:PASSWORD (got a value without a colon)",
		`--siege-format: unknown siege format "9" (want 4.0 or 4.1)`,
		`--interval: want a duration of at least 1ms such as 1s or 500ms (got "0")`,
		`--repeat-pause: want seconds or a duration such as 500ms (got "q")`,
		`--assert: bad gate "p96<1": at column 1: unknown metric "p96": write p(96) for that percentile`,
		`--abort-on: bad gate "p96>1": at column 1: unknown metric "p96": write p(96) for that percentile`,
		`--abort-window: want a duration of at least 100ms such as 10s (got "1ms")`,
		`--shard: want I/N with 0 <= I < N, e.g. 0/4 (got "9/2")`,
		"give --start-at or --start-after, not both",
		`--start-at: want an RFC 3339 time such as 2026-12-01T10:00:00Z (got "nope")`,
		`--start-after: want a duration such as 30s (got "-3s")`,
	}
	for i := range want {
		want[i] = "webload: " + want[i]
	}
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if got := strings.TrimSuffix(stderr, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("stderr:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
