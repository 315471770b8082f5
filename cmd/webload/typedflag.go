package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// A flag whose text means something more than a name or a path (a duration, a rate, a size, a
// gate) is parsed when it is set, into the value the run uses, as vegeta's flags.go does. Unlike
// there, Set never fails: Go's flag package stops at the first error it is given, and webload
// names every problem of a command line at once. A problem waits in the value, worded as a whole
// line that names the flag as the user knows it, until specFromFlags books it with the others
// (book), in the order it always did. A siegerc's settings reach the values through the same Set.

// typed is the value of a flag given once: the text given (or the default), what it parses
// to, and the problem with it.
type typed[T any] struct {
	flagParser[T]
	typedItem[T]
}

// flagParser is what a typed value knows of its flag: how its text parses, and the names a
// problem goes by.
type flagParser[T any] struct {
	flag  string // the flag's name, which a problem is booked under (see origin)
	name  string // the flag as the user knows it, "-t" or "--timeout", which starts a problem
	parse func(string) (T, error)
}

// typedItem is one value given: the text, what it parses to, its problem.
type typedItem[T any] struct {
	text string
	val  T
	err  error
}

// read parses part of text, a value as given, into an item whose problem names the flag.
func (f *flagParser[T]) read(text, part string) typedItem[T] {
	it := typedItem[T]{text: text}
	var err error
	if it.val, err = f.parse(part); err != nil {
		it.err = fmt.Errorf("%s: %w", f.name, err)
	}
	return it
}

// Set implements flag.Value: it parses s, keeping the problem for book.
func (v *typed[T]) Set(s string) error {
	if s != aliasCopy {
		v.typedItem = v.read(s, s)
	}
	return nil
}

// String implements flag.Value: the text as given, which the help shows as the default.
func (v *typed[T]) String() string {
	if v == nil {
		return ""
	}
	return v.text
}

// Get implements flag.Getter for -C, which shows the text as given.
func (v *typed[T]) Get() any { return v.text }

// Serialize implements cli.Serializer: see aliasCopy.
func (v *typed[T]) Serialize() string { return aliasCopy }

// book adds the value's problem, if it has one, to p.
func (v *typed[T]) book(p *problems) {
	if v.err != nil {
		p.add(v.flag, v.err)
	}
}

// typedFlag is f holding v, which parses the default def now and each value given later with
// parse. The help shows the default quoted, as it shows a string flag's.
func typedFlag[T any](f *cli.GenericFlag, v *typed[T], def string, parse func(string) (T, error)) *cli.GenericFlag {
	v.flagParser = parserOf(f, parse)
	if def != "" {
		_ = v.Set(def) // Set never fails; a default that does not parse is a bug a test finds
		if f.DefaultText == "" {
			f.DefaultText = strconv.Quote(def)
		}
	}
	f.Value = v
	return f
}

// typedList is the value of a repeatable flag: each value given, parsed, with its problem.
// split, when set, cuts one value into several (a comma-separated list); each part is parsed
// on its own, and a problem is booked with the whole value, as the user gave it.
type typedList[T any] struct {
	flagParser[T]
	split func(string) []string

	given []string
	items []typedItem[T]
}

// Set implements flag.Value: it adds s, parsed, keeping its problem for book.
func (l *typedList[T]) Set(s string) error {
	if s == aliasCopy {
		return nil
	}
	l.given = append(l.given, s)
	parts := []string{s}
	if l.split != nil {
		parts = l.split(s)
	}
	for _, part := range parts {
		l.items = append(l.items, l.read(s, part))
	}
	return nil
}

// String implements flag.Value: the values given, which a repeatable flag has none of by default.
func (l *typedList[T]) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(l.given, ", ")
}

// Get implements flag.Getter for -C, which shows each value as given.
func (l *typedList[T]) Get() any { return append([]string(nil), l.given...) }

// Serialize implements cli.Serializer: see aliasCopy.
func (l *typedList[T]) Serialize() string { return aliasCopy }

// texts are the values as given.
func (l *typedList[T]) texts() []string { return l.given }

// values are what the values given parse to, those with a problem left out.
func (l *typedList[T]) values() []T {
	var out []T
	for _, it := range l.items {
		if it.err == nil {
			out = append(out, it.val)
		}
	}
	return out
}

// book adds the problem of each value that has one to p, with the value, which tells a
// siegerc's from the command line's.
func (l *typedList[T]) book(p *problems) {
	for _, it := range l.items {
		if it.err != nil {
			p.addValue(l.flag, it.text, it.err)
		}
	}
}

// typedListFlag is f holding l, which parses each value given with parse.
func typedListFlag[T any](f *cli.GenericFlag, l *typedList[T], parse func(string) (T, error)) *cli.GenericFlag {
	l.flagParser = parserOf(f, parse)
	f.Value = l
	return f
}

// aliasCopy is what a typed value gives urfave/cli to copy it from the name it was set by to
// the flag's other names (-H to --header), which Set then ignores: every name of a flag holds
// the same value already, and a list given its own values again would hold each twice. No
// argument can be it: a NUL ends a C string.
const aliasCopy = "\x00"

// parserOf is f's parser: its problems name f by its one-letter alias, as siege's users
// write it (-t, -H), else by its name (--timeout).
func parserOf[T any](f *cli.GenericFlag, parse func(string) (T, error)) flagParser[T] {
	name := "--" + f.Name
	for _, a := range f.Aliases {
		if len(a) == 1 {
			name = "-" + a
			break
		}
	}
	return flagParser[T]{flag: f.Name, name: name, parse: parse}
}
