package main

import "strings"

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
