// Package siegerc reads siege's configuration file, the siegerc, into the run settings of
// webload it holds: each as the run flag it sets, the value in that flag's syntax and the line
// that set it. It checks siege's grammar and each key's value; it sets no flag itself.
package siegerc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/webload/webload/internal/inputfile"
	"github.com/webload/webload/urls"
)

// Setting is one key of a siegerc file that webload uses, as the run flag it sets.
type Setting struct {
	Flag  string // the run flag's name, e.g. "concurrent", "timeout", "header"
	Value string // the value in the flag's own syntax
	Line  int    // the line that set it; for a setting made of several keys, the last of them
}

// Options are what a siegerc is read with.
type Options struct {
	// Getenv resolves the variables the file does not define; nil: none.
	Getenv func(name string) (string, bool)
	// Check, if set, checks the value of a single-valued siege key (lower-case, such as
	// "time" or "timeout") in the syntax of the flag it sets, after this package's own
	// checks, so that a value the flag would refuse is reported with its line rather than
	// later without one.
	Check func(key, value string) error
}

// MaxLine bounds one siegerc line; siege's longest real lines are login-url POST bodies.
const MaxLine = 1 << 20

// blanks are what siege's isspace() trims around lines and separates keys with.
const blanks = " \t\r\n\v\f"

// Read reads a siegerc file the way siege's load_conf does and maps each key webload
// supports to a run flag.
//
// Grammar (siege's): "key = value", "key: value" or "key value"; keys are case-insensitive;
// a '#' anywhere ends the line, except on lines starting with "login" (passwords and POST
// bodies may hold '#'); values are not unquoted. A key siege does not know defines a variable
// that later lines use as $(NAME), ${NAME} or $NAME (urls.Expander, any name in brackets);
// then Options.Getenv is tried. Unlike siege, an undefined variable is an error (siege
// substitutes "" silently), \$ is a literal '$', and on/off and yes/no are booleans too
// (siege reads anything but "true..." as false). An empty value ("key =") leaves that setting
// at webload's default.
//
// A single-valued key set twice keeps its last value; header and login-url keep every line.
// ignored lists, once each in file order, the keys that change nothing in webload: siege keys
// webload does not implement (unless they hold what webload does anyway, such as
// protocol = HTTP/1.1) and variables no line uses. A bad line is an error "FILE:LINE: problem".
func Read(path string, opt Options) (settings []Setting, ignored []string, err error) {
	f, err := inputfile.Open(path, inputfile.Settings)
	if err != nil {
		return nil, nil, fmt.Errorf("siegerc: %w", err)
	}
	defer f.Close()
	return Parse(f, path, opt)
}

// Parse is Read on any reader; name prefixes the errors.
//
// A bad line sets nothing, and the lines after it are still read: the error is then LineErrors,
// every bad line at once, with the settings of the good lines, so that a user fixes them all in
// one go. Any other error (the file cannot be read) comes with no settings.
func Parse(r io.Reader, name string, opt Options) (settings []Setting, ignored []string, err error) {
	rc := reader{opt: opt, vals: map[string]value{}, first: map[string]int{},
		vars: map[string]string{}, used: map[string]bool{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4<<10), MaxLine)
	var bad LineErrors
	n := 0
	for sc.Scan() {
		n++
		if err := rc.line(sc.Text(), n); err != nil {
			bad = append(bad, fmt.Errorf("%s:%d: %w", name, n, err))
		}
	}
	if err := sc.Err(); err != nil {
		if !errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, fmt.Errorf("siegerc: read %s: %w", name, err)
		}
		// The scanner cannot go past such a line: the lines after it are not read.
		bad = append(bad, fmt.Errorf("%s:%d: line longer than %d bytes", name, n+1, MaxLine))
	}
	settings, ignored = rc.result()
	if len(bad) > 0 {
		return settings, ignored, bad
	}
	return settings, ignored, nil
}

// LineErrors are the bad lines of a siegerc, each "FILE:LINE: problem", in file order.
type LineErrors []error

// Error gives one line per bad line.
func (e LineErrors) Error() string { return errors.Join(e...).Error() }

// Unwrap gives each line's error, for errors.Is and errors.As.
func (e LineErrors) Unwrap() []error { return e }

// value is a key's value, already checked and in its flag's syntax, and where it was set.
type value struct {
	value string
	line  int
}

// reader accumulates one file. Values are kept per key until the end because several
// settings are made of several keys (logging and logfile, proxy-host and proxy-port...).
type reader struct {
	opt      Options
	vals     map[string]value  // last value of each siege key, by lower-case name
	first    map[string]int    // first line of each key and variable, to list ignored ones in order
	repeated []Setting         // header and login-url lines, in file order
	vars     map[string]string // unknown keys: siege's variables
	used     map[string]bool   // variables some line referred to
}

// line reads line n. Like siege, it splits the key off before expanding variables, so a value
// can never turn into a second key.
func (rc *reader) line(text string, n int) error {
	if n == 1 {
		text = strings.TrimPrefix(text, "\ufeff")
	}
	text = strings.Trim(text, blanks)
	if !strings.HasPrefix(text, "login") {
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = strings.Trim(text[:i], blanks)
		}
	}
	if text == "" {
		return nil
	}
	end := strings.IndexAny(text, blanks+"=:")
	if end < 0 {
		end = len(text)
	}
	key, err := rc.expand(text[:end])
	if err != nil {
		return err
	}
	val, err := rc.expand(strings.TrimLeft(text[end:], blanks+"=:"))
	if err != nil {
		return err
	}
	if key == "" {
		return fmt.Errorf("missing setting name before %q", text)
	}
	lower := strings.ToLower(key)
	check, known := keyCheck(lower)
	switch {
	case !known:
		rc.vars[key] = val
		rc.mark(key, n)
	case lower == "header" || lower == "login-url":
		flag := "header"
		if lower == "login-url" {
			flag = "login"
		}
		v, err := check(val)
		if err != nil {
			return fmt.Errorf("%s: %w", lower, err)
		}
		rc.repeated = append(rc.repeated, Setting{Flag: flag, Value: v, Line: n})
	default:
		if val != "" {
			if val, err = check(val); err == nil && rc.opt.Check != nil {
				err = rc.opt.Check(lower, val)
			}
			if err != nil {
				return fmt.Errorf("%s: %w", lower, err)
			}
		}
		rc.vals[lower] = value{val, n}
		rc.mark(lower, n)
	}
	return nil
}

// mark remembers where a key first appeared, which orders the ignored keys.
func (rc *reader) mark(key string, n int) {
	if _, seen := rc.first[key]; !seen {
		rc.first[key] = n
	}
}

// expand resolves the variables of s: the file's own first, then the environment. Values are
// stored expanded, so one pass is enough. Bracketed names may hold anything, since siegerc
// keys have '-'.
func (rc *reader) expand(s string) (string, error) {
	x := urls.Expander{AnyBracketedName: true, Lookup: func(name string) (string, bool) {
		if v, ok := rc.vars[name]; ok {
			rc.used[name] = true
			return v, true
		}
		if rc.opt.Getenv != nil {
			return rc.opt.Getenv(name)
		}
		return "", false
	}}
	out, err := x.Expand(s)
	var undefined *urls.UndefinedVariableError
	if errors.As(err, &undefined) {
		return "", fmt.Errorf("undefined variable %q (define it on an earlier line or in the environment)", undefined.Name)
	}
	return out, err
}
