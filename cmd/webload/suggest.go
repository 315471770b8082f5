package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
)

// urfave/cli's own suggestions (App.Suggest) come only with its whole help after the error, and
// name the nearest flag however far it is ("--xyz": did you mean "--rc"?); webload words one
// line and suggests only names a typo is likely to have come from.

// maxSuggestions bounds a "did you mean" to what a reader takes in at a glance.
const maxSuggestions = 3

// closeNames returns the names typed is probably a typo of: those within one edit (an insertion,
// a deletion, a substitution or two letters swapped; two edits for names of six letters or
// more, none below three), else those that begin
// with typed (three letters at least). The closest come first, at most maxSuggestions of them,
// in candidates' order.
func closeNames(typed string, candidates []string) []string {
	const prefixOnly = 3 // ranks a name typed only begins after every name within two edits
	type near struct {
		name string
		dist int
	}
	var found []near
	for _, name := range candidates {
		if name == typed {
			continue
		}
		n := utf8.RuneCountInString(name)
		limit := 1
		switch {
		case n >= 6:
			limit = 2
		case n < 3:
			limit = 0
		}
		if d := editDistance(typed, name); d <= limit {
			found = append(found, near{name, d})
		} else if utf8.RuneCountInString(typed) >= 3 && strings.HasPrefix(name, typed) {
			found = append(found, near{name, prefixOnly})
		}
	}
	if len(found) == 0 {
		return nil
	}
	best := slices.MinFunc(found, func(a, b near) int { return a.dist - b.dist }).dist
	var names []string
	for _, f := range found {
		if f.dist == best && len(names) < maxSuggestions && !slices.Contains(names, f.name) {
			names = append(names, f.name)
		}
	}
	return names
}

// didYouMean words names as " (did you mean --a, --b or --c?)", or "" for none.
func didYouMean(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return " (did you mean " + names[0] + "?)"
	}
	return " (did you mean " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + "?)"
}

// undefinedFlag is the start of the flag package's error for a flag that no command defines.
const undefinedFlag = "flag provided but not defined: -"

// onUsageError turns the flag parser's error into a one-line usage error (urfave/cli would
// print the whole help), suggesting the flags of the command an unknown one is close to.
func onUsageError(c *cli.Context, err error, _ bool) error {
	msg := err.Error()
	typed, ok := strings.CutPrefix(msg, undefinedFlag)
	if !ok || c.Command == nil {
		return usageError{err}
	}
	typed = strings.TrimLeft(typed, "-")
	var names []string
	for _, f := range c.Command.VisibleFlags() {
		for _, n := range f.Names() {
			if utf8.RuneCountInString(n) > 1 { // a one-letter name is close to every short typo
				names = append(names, n)
			}
		}
	}
	hits := closeNames(typed, names)
	for i, n := range hits {
		hits[i] = "--" + n
	}
	return usageError{fmt.Errorf("%w%s", err, didYouMean(hits))}
}

// commandNames are the names of the visible commands, for suggesting one.
func commandNames(cmds []*cli.Command) []string {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	return names
}

// withCommandHint adds to a failed run's usage error that its first argument, taken for a URL,
// is close to a command's name ("webload compre a.json b.json"). A host may be named like a
// command, so the run is tried first and only its failure gets the hint.
func withCommandHint(err error, first string, cmds []*cli.Command) error {
	var one usageError
	var several usageErrors
	if err == nil || strings.HasPrefix(first, "-") || strings.ContainsAny(first, ".:/") ||
		!(errors.As(err, &one) || errors.As(err, &several)) {
		return err
	}
	hits := closeNames(first, commandNames(cmds))
	if len(hits) == 0 {
		return err
	}
	for i, n := range hits {
		hits[i] = "webload " + n
	}
	hint := fmt.Sprintf("%q is not a command%s", first, didYouMean(hits))
	if errors.As(err, &several) {
		return append(several, errors.New(hint))
	}
	return usageError{fmt.Errorf("%w; %s", err, hint)}
}

// editDistance counts the insertions, deletions, substitutions and swaps of two neighbouring
// letters that turn a into b (optimal string alignment). The Levenshtein distance that
// urfave/cli's dependency smetrics offers counts a swap, the commonest slip, as two edits.
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// Three rows of the table: two back (for swaps), the previous and the current.
	back, prev, cur := make([]int, len(t)+1), make([]int, len(t)+1), make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], back[j-2]+1)
			}
		}
		back, prev, cur = prev, cur, back
	}
	return prev[len(t)]
}
