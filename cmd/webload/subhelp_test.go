package main

import (
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// commandPaths lists every command of the App as the words that name it ("urls import"), so a
// subcommand added later is covered by the help test without editing it.
func commandPaths(prefix []string, cmds []*cli.Command) [][]string {
	var out [][]string
	for _, c := range cmds {
		path := append(append([]string{}, prefix...), c.Name)
		out = append(out, path)
		out = append(out, commandPaths(path, c.Subcommands)...)
	}
	return out
}

// TestEveryCommandPrintsItsHelp: --help, -h and "help CMD" print the command's own help on
// standard output and exit 0, for every command and subcommand; urfave/cli answers a command
// that lacks a help flag with "Incorrect Usage: flag: help requested" and exit 2.
func TestEveryCommandPrintsItsHelp(t *testing.T) {
	t.Parallel()
	paths := commandPaths(nil, newApp(io.Discard, io.Discard, nil).Commands)
	if len(paths) < 8 {
		t.Fatalf("found only the commands %q", paths)
	}
	for _, path := range paths {
		name := strings.Join(path, " ")
		for _, tc := range []struct {
			form string
			args []string
		}{
			{"--help", append(append([]string{}, path...), "--help")},
			{"-h", append(append([]string{}, path...), "-h")},
			{"help", append([]string{"help"}, path...)},
		} {
			t.Run(name+" "+tc.form, func(t *testing.T) {
				t.Parallel()
				stdout, stderr, code := webload(t, nil, tc.args...)
				if code != 0 || stderr != "" {
					t.Fatalf("webload %s: exit %d, stderr %q", strings.Join(tc.args, " "), code, stderr)
				}
				want := "NAME:\n   webload " + name + " - "
				if name == "help" {
					want = "NAME:\n   webload - " // the help of help is the App's, which lists the commands
				}
				if !strings.HasPrefix(stdout, want) {
					t.Errorf("webload %s: the help does not start with %q:\n%s", strings.Join(tc.args, " "), want, stdout)
				}
			})
		}
	}
}

// TestUnknownSubcommandIsAUsageError: a typo under a command group is not answered with the
// group's help and exit 0, which would make a script believe it ran.
func TestUnknownSubcommandIsAUsageError(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"urls", "imprt", "x.log"}, {"help", "nosuch"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			_, stderr, code := webload(t, nil, args...)
			if code != exitUsage || !strings.Contains(stderr, args[1]) {
				t.Errorf("exit %d, stderr %q; want exit %d naming %q", code, stderr, exitUsage, args[1])
			}
		})
	}
}
