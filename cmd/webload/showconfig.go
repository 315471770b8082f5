package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/siegerc"
	"github.com/webload/webload/urls"
)

// flagValues is what effectiveConfig reads of a *cli.Context.
type flagValues interface {
	IsSet(name string) bool
	Value(name string) interface{}
	StringSlice(name string) []string
}

// effectiveConfig renders the run's effective settings (-C, like siege's -C/--config): one
// "name: value" line per run flag in flags order (a line per value for repeatable flags),
// defaults included, secrets shown as "***". rc holds the siegerc settings that were applied to
// c, those the command line did not override: a flag set to a value that one of them gives is
// marked "(siegerc line N)", any other flag that is set "(command line)".
func effectiveConfig(c flagValues, flags []cli.Flag, rc []siegerc.Setting) string {
	type row struct{ name, value, from string }
	var rows []row
	width := 0
	for _, f := range flags {
		name := f.Names()[0]
		if name == "version" || name == "help" {
			continue // actions, not settings
		}
		values := []string{fmt.Sprint(c.Value(name))}
		if list, ok := c.Value(name).([]string); ok { // a typedList's values as given
			if values = list; len(values) == 0 {
				values = []string{""}
			}
		}
		if _, ok := f.(*cli.StringSliceFlag); ok {
			if values = c.StringSlice(name); len(values) == 0 {
				values = []string{""}
			}
		}
		for _, v := range values {
			from := ""
			if c.IsSet(name) {
				from = "command line"
				if i := slices.IndexFunc(rc, func(s siegerc.Setting) bool { return s.Flag == name && s.Value == v }); i >= 0 {
					from = fmt.Sprintf("siegerc line %d", rc[i].Line)
				}
			}
			rows = append(rows, row{name, redactSecret(name, v), from})
		}
		width = max(width, len(name))
	}
	var b strings.Builder
	for _, r := range rows {
		line := fmt.Sprintf("%-*s %s", width+1, r.name+":", r.value)
		if r.from != "" {
			line += "  (" + r.from + ")"
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// redactSecret hides credentials in a flag's value: the value of secret headers, the password
// of "user:password", the data of a login request, the password of any URL and a database
// DSN's password= parameter.
func redactSecret(flag, value string) string {
	switch flag {
	case "header":
		if name, _, _ := strings.Cut(value, ":"); loader.SecretHeader(name) {
			return name + ": ***"
		}
	case "user":
		if name, _, ok := strings.Cut(value, ":"); ok {
			return name + ":***"
		}
	case "db":
		return dbload.Redacted(value) // a password= parameter too
	case "login":
		if f := strings.Fields(value); len(f) > 2 && isMethod(f[1]) && !strings.HasPrefix(f[2], "<") {
			value = f[0] + " " + f[1] + " ***"
		}
	}
	return urls.Redacted(value)
}
