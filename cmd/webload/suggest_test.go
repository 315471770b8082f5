package main

import (
	"slices"
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"concurent", "concurrent", 1},  // a letter left out
		{"cocnurrent", "concurrent", 1}, // two letters swapped
		{"mrege", "merge", 1},
		{"kitten", "sitting", 3},
		{"tiem", "time", 1},
		{"é", "e", 1}, // runes, not bytes
	} {
		for _, pair := range [][2]string{{tc.a, tc.b}, {tc.b, tc.a}} {
			if got := editDistance(pair[0], pair[1]); got != tc.want {
				t.Errorf("editDistance(%q, %q) = %d, want %d", pair[0], pair[1], got, tc.want)
			}
		}
	}
}

func TestCloseNames(t *testing.T) {
	t.Parallel()
	flags := []string{"concurrent", "config", "connect-to", "connection", "content-type", "rate", "reps", "repeat", "repeat-pause", "rc", "time", "timeout"}
	for _, tc := range []struct {
		typed string
		want  []string
	}{
		{"concurent", []string{"concurrent"}},
		{"conc", []string{"concurrent"}},                        // the start of one name
		{"conn", []string{"connect-to", "connection"}},          // the start of two
		{"con", []string{"concurrent", "config", "connect-to"}}, // at most three
		{"rep", []string{"reps"}},                               // within an edit beats a start
		{"tiem", []string{"time"}},
		{"xyz", nil},  // far from everything
		{"rx", nil},   // a two-letter name is close to every short typo
		{"rqqe", nil}, // two edits from "rate", a name of four letters
		{"timeou", []string{"timeout"}},
	} {
		if got := closeNames(tc.typed, flags); !slices.Equal(got, tc.want) {
			t.Errorf("closeNames(%q) = %q, want %q", tc.typed, got, tc.want)
		}
	}
}

// TestDidYouMean: an unknown flag or command is one line on stderr, exit 2, naming what it is
// probably a typo of when something is close, and nothing on stdout (urfave/cli printed
// "Incorrect Usage" and the command's help there for a command's unknown flag).
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"flag", []string{"--concurent", "5", "http://127.0.0.1:1/"},
			"webload: flag provided but not defined: -concurent (did you mean --concurrent?)\n"},
		{"flag of the run command", []string{"run", "--timout", "5", "http://127.0.0.1:1/"},
			"webload: flag provided but not defined: -timout (did you mean --timeout?)\n"},
		{"flag far from any", []string{"--xyzzy", "http://127.0.0.1:1/"},
			"webload: flag provided but not defined: -xyzzy\n"},
		{"flag of a command", []string{"compare", "--histroy", "dir"},
			"webload: flag provided but not defined: -histroy (did you mean --history?)\n"},
		{"flag of a subcommand", []string{"urls", "import", "--bsae", "http://x/", "a.log"},
			"webload: flag provided but not defined: -bsae (did you mean --base?)\n"},
		{"command", []string{"compre", "old.json", "new.json"},
			"webload: expected one URL, got 3 arguments (put several URLs in a file and use -f); \"compre\" is not a command (did you mean webload compare?)\n"},
		{"subcommand", []string{"urls", "improt", "a.log"},
			"webload: urls: no command \"improt\" (did you mean import?); see webload urls --help\n"},
		{"help of a command", []string{"help", "mrege"},
			"webload: help: no command \"mrege\" (did you mean merge?); see webload --help\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, tc.args...)
			if code != exitUsage || stderr != tc.want || stdout != "" {
				t.Errorf("webload %s: exit %d, stderr %q, stdout %q; want exit %d, stderr %q and no stdout",
					strings.Join(tc.args, " "), code, stderr, stdout, exitUsage, tc.want)
			}
		})
	}
}
