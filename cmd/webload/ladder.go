package main

import (
	"fmt"
	"strconv"
	"strings"
)

// maxSteps bounds a ladder: sysbench's tables have a handful of thread counts, and a list of
// thousands is a typo that would run for hours.
const maxSteps = 64

// maxStepUsers bounds the users of a step, far beyond what one machine opens connections for,
// so a stray digit is refused rather than tried.
const maxStepUsers = 1_000_000

// usersFromFlags reads -c: a number of users, or a ladder of them (-c 10,20,40), whose steps
// the run makes one after the other. Config.Users is the first step's, so the settings checked
// against it (--data unique rows, the file limit) hold for a ladder's first step at least.
func usersFromFlags(o *runOptions, s *runSpec, p *problems) {
	if o.concurrent.err != nil {
		o.concurrent.book(p)
		return
	}
	users := o.concurrent.val
	s.Config.Users = users[0]
	if len(users) == 1 {
		return
	}
	s.Ladder = users
	if o.shard.text != "" {
		p.addf("concurrent", "-c %s: a ladder runs its steps on one machine; --shard cannot split it", o.concurrent.text)
	}
}

// parseUsers reads -c's value: one number of users, or several separated by commas, each
// more than the one before.
func parseUsers(s string) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) > maxSteps {
		return nil, fmt.Errorf("at most %d steps in a ladder (got %d)", maxSteps, len(parts))
	}
	users := make([]int, 0, len(parts))
	for _, part := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err == nil && n >= 1 && n <= maxStepUsers {
			if len(users) > 0 && n <= users[len(users)-1] {
				// A step with no more users than the one before measures nothing the ladder
				// has not, and one with fewer runs down a knee the ladder is there to find.
				return nil, fmt.Errorf("a ladder rises: each step has more users than the one before (got %d after %d in %q)", n, users[len(users)-1], s)
			}
			users = append(users, n)
			continue
		}
		switch {
		case len(parts) > 1:
			return nil, fmt.Errorf("want a number of users from 1 to %d per step, such as 10,20,40 (got %q in %q)", maxStepUsers, part, s)
		case err != nil:
			return nil, fmt.Errorf("want a number of users, or a ladder such as 10,20,40 (got %q)", s)
		case n < 1:
			return nil, fmt.Errorf("the number of users must be at least 1 (got %d)", n) // siege's wording before ladders
		}
		return nil, fmt.Errorf("the number of users must be at most %d (got %d)", maxStepUsers, n)
	}
	return users, nil
}
