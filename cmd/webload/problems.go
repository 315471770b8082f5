package main

import (
	"errors"
	"fmt"

	"github.com/webload/webload/siegerc"
)

// problems collects every mistake in a run's settings, so that one try names them all instead of
// one per try.
type problems struct {
	list []problem
}

// problem is one mistake and the flag it concerns (its long name), for telling where the
// setting came from.
type problem struct {
	flag, value string // value: the one at fault of a repeatable flag ("" for the others)
	err         error
}

// addf books a problem with the flag's single value, worded as fmt.Errorf does.
func (p *problems) addf(flag, format string, args ...any) {
	p.list = append(p.list, problem{flag: flag, err: fmt.Errorf(format, args...)})
}

// add books a problem with the flag's single value.
func (p *problems) add(flag string, err error) {
	p.list = append(p.list, problem{flag: flag, err: err})
}

// addValue books a problem with one value of a repeatable flag.
func (p *problems) addValue(flag, value string, err error) {
	p.list = append(p.list, problem{flag: flag, value: value, err: err})
}

// origin tells where a flag's value came from when not the command line: "FILE:LINE" of the
// siegerc that set it. value is the value at fault of a repeatable flag, "" for the others.
type origin func(flag, value string) (where string, ok bool)

// err is nil without problems, one usage error for one problem (worded as it always was), and
// usageErrors, printed a line each, for several. A problem with a setting that a siegerc made
// names the siegerc's line first.
func (p *problems) err(from origin) error {
	var errs []error
	for _, pr := range p.list {
		err := pr.err
		if where, ok := from(pr.flag, pr.value); ok {
			err = fmt.Errorf("%s: %w", where, err)
		}
		errs = append(errs, err)
	}
	return usageErrorOf(errs)
}

// usageErrorOf is nil for no errors, a usage error for one (worded as it always was), and
// usageErrors, printed a line each, for several.
func usageErrorOf(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return usageError{errs[0]}
	}
	return usageErrors(errs)
}

// usageErrors are several mistakes in what the user asked for: exit 2, after a line each.
type usageErrors []error

func (e usageErrors) Error() string   { return errors.Join(e...).Error() }
func (e usageErrors) Unwrap() []error { return e }

// fromSiegerc is the origin of the settings applied from the siegerc at path: the command line
// wins over a siegerc, so a single-valued flag among them took its value there; a repeatable
// one (-H, --login) gathers both, and the value tells.
func fromSiegerc(path string, applied []siegerc.Setting) origin {
	return func(flag, value string) (string, bool) {
		for _, s := range applied {
			if s.Flag == flag && (value == "" || s.Value == value) {
				return fmt.Sprintf("%s:%d", path, s.Line), true
			}
		}
		return "", false
	}
}

// siegercOrigin is fromSiegerc for the siegerc that applySiegerc read, if it applied anything.
func siegercOrigin(o *runOptions, env lookupEnv, applied []siegerc.Setting) origin {
	if len(applied) == 0 {
		return func(string, string) (string, bool) { return "", false }
	}
	path := o.rc
	if path == "" {
		path, _ = env("SIEGERC")
	}
	return fromSiegerc(path, applied)
}
