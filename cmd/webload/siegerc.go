package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/siegerc"
)

// applySiegerc reads the siegerc named by -R or the SIEGERC variable, if any, and sets the
// flags it holds that the command line did not set (headers and logins add to the command
// line's). It warns once about keys webload ignores and returns the settings applied, for -C.
// A siegerc is read only when asked for, so a siege.conf at home never changes webload's runs.
// Its bad lines (bad) do not stop it: the good ones are applied, and the bad ones are reported
// with every other problem of the run's settings.
func applySiegerc(c *cli.Context, env lookupEnv, stderr io.Writer) (applied []siegerc.Setting, bad []error, err error) {
	path := c.String("rc")
	if path == "" {
		path, _ = env("SIEGERC")
	}
	if path == "" {
		return nil, nil, nil
	}
	settings, ignored, err := siegerc.Read(path, siegerc.Options{Getenv: env, Check: checkSiegercValue})
	var lines siegerc.LineErrors
	if errors.As(err, &lines) {
		bad = lines
	} else if err != nil {
		return nil, nil, usageError{err}
	}
	if len(ignored) > 0 {
		fmt.Fprintf(stderr, "webload: %s: ignoring keys webload does not use: %s\n", path, strings.Join(ignored, ", "))
	}
	for _, s := range settings {
		if c.IsSet(s.Flag) && s.Flag != "header" && s.Flag != "login" {
			continue // the command line wins
		}
		if s.Flag == "file" && c.Args().Present() {
			// As in siege, a URL on the command line replaces the siegerc's URL file rather
			// than conflicting with it.
			continue
		}
		if err := c.Set(s.Flag, s.Value); err != nil {
			bad = append(bad, fmt.Errorf("%s:%d: %s: %w", path, s.Line, s.Flag, err))
			continue
		}
		applied = append(applied, s)
	}
	return applied, bad, nil
}

// checkSiegercValue checks the siegerc values whose syntax is the run flags' (siege's -t and
// seconds), so that a bad one is reported with its siegerc line.
func checkSiegercValue(key, value string) error {
	switch key {
	case "time":
		_, err := parseRunTime(value)
		return err
	case "delay", "timeout":
		d, err := parseSeconds(value)
		if err == nil && d == 0 && key == "timeout" {
			err = fmt.Errorf("want more than 0 seconds (got %q)", value)
		}
		return err
	}
	return nil
}
