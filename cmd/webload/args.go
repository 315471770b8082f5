package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// normalizeArgs rewrites siege-style command lines into what the flag parser accepts: glued short
// values (-c25, -t1M, -l/tmp/x.log) are split, and flags given after the URL (getopt permutes,
// Go's flag package stops at the first argument) are moved before it. "--" ends the flags.
func normalizeArgs(args []string, takesValue map[string]bool) []string {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			flags = append(flags, a)
			continue
		}
		if !strings.HasPrefix(a, "--") && len(name) > 1 && takesValue[name[:1]] && !takesValue[name] {
			flags = append(flags, "-"+name[:1], name[1:])
			continue
		}
		flags = append(flags, a)
		if takesValue[name] && i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	if len(positional) == 0 {
		return flags
	}
	return append(append(flags, "--"), positional...)
}

// checkLogFlag refuses -l (--log) without its FILE, in args as normalizeArgs leaves them.
// siege's -l takes the file glued (-l/tmp/x.log) and alone logs to siege's own file; here the
// FILE is required, so a bare -l would take the next argument: the URL (leaving "no URL"),
// another flag, or the "--" before the URL.
func checkLogFlag(args []string, flags []cli.Flag) error {
	takesValue := valueFlags(flags)
	if !takesValue["log"] {
		return nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		name := strings.TrimLeft(a, "-")
		if !strings.HasPrefix(a, "-") || !takesValue[name] {
			continue
		}
		if !slices.Contains(logNames, name) {
			i++ // another flag's value
			continue
		}
		next := ""
		if i+1 < len(args) {
			next = args[i+1]
		}
		switch {
		case strings.Contains(next, "://"):
			return usagef("%s needs the FILE to log to before the URL (%s FILE %s); siege's -l without a FILE is not supported", a, a, next)
		case next == "" || next == "--":
			return usagef("%s needs the FILE to log to (%s FILE); siege's -l without a FILE is not supported", a, a)
		case strings.HasPrefix(next, "-") && next != "-":
			return usagef("%s needs the FILE to log to (%s FILE), not %q; siege's -l without a FILE is not supported", a, a, next)
		}
		i++
	}
	return nil
}

// logNames are the names of the run's --log flag.
var logNames = []string{"log", "l"}
