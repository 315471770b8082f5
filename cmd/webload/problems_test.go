package main

import (
	"strings"
	"testing"
)

// Every bad setting is reported at once, a line each, and one that a siegerc made names the
// siegerc's line.
func TestEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	rc := writeRC(t, "# settings\nconcurrent = 5\nlogin-url = ftp://127.0.0.1/login\n")
	badRC := writeRC(t, "concurrent = 0\ntime = 5x\nverbose = maybe\nreps = 3\n")
	tests := []struct {
		name string
		args []string
		want []string // the lines printed, in order
	}{
		{"several flags", []string{"-c", "0", "-t", "5X", "--timeout", "soon", "-m", "x", "http://127.0.0.1:1/"}, []string{
			"webload: -c: the number of users must be at least 1 (got 0)",
			`webload: -t: want NUM[S|M|H] such as 30S, 5M or 1H (got "5X")`,
			`webload: --timeout: want a positive number of seconds or a duration such as 500ms (got "soon")`,
			"webload: -m: a mark goes into the log file; give one with -l FILE",
		}},
		{"a siegerc's settings", []string{"-R", rc, "--rate", "10", "-H", "oops", "http://127.0.0.1:1/"}, []string{
			"webload: " + rc + ":2: -c sets the users of the closed model; with --rate the schedule starts users as needed, capped by --max-users",
			`webload: -H: want "Name: value" (got "oops")`,
			"webload: " + rc + `:3: --login 1: command line: unsupported scheme "ftp"`,
		}},
		// A bad siegerc line does not hide the next ones, nor the command line's problems.
		{"a siegerc's bad lines", []string{"-R", badRC, "--timeout", "soon", "http://127.0.0.1:1/"}, []string{
			"webload: " + badRC + `:1: concurrent: want a whole number from 1 (got "0")`,
			"webload: " + badRC + `:2: time: want NUM[S|M|H] such as 30S, 5M or 1H (got "5x")`,
			"webload: " + badRC + `:3: verbose: want true or false, on or off, yes or no (got "maybe")`,
			`webload: --timeout: want a positive number of seconds or a duration such as 500ms (got "soon")`,
		}},
		{"a siegerc's bad lines under -C", []string{"-R", badRC, "-C"}, []string{
			"webload: " + badRC + `:1: concurrent: want a whole number from 1 (got "0")`,
			"webload: " + badRC + `:2: time: want NUM[S|M|H] such as 30S, 5M or 1H (got "5x")`,
			"webload: " + badRC + `:3: verbose: want true or false, on or off, yes or no (got "maybe")`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, tc.args...)
			if code != exitUsage || stdout != "" {
				t.Errorf("exit %d, stdout %q; want %d and nothing", code, stdout, exitUsage)
			}
			if got := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n"); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, strings.Join(tc.want, "\n"))
			}
		})
	}
}
