package run

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/webload/webload/internal/progress"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// banner says what is about to happen.
func banner(s *Spec) string {
	c := &s.Config
	var plan string
	switch {
	case c.Once:
		plan = "each URL once"
	case c.Reps > 0 && c.Duration > 0:
		plan = fmt.Sprintf("%d requests%s or %v, whichever ends first", c.Reps, perUser(c), c.Duration)
	case c.Reps > 0:
		plan = fmt.Sprintf("%d requests%s", c.Reps, perUser(c))
	case c.Duration > 0:
		plan = fmt.Sprintf("for %v", c.Duration)
	default:
		plan = "until Ctrl-C"
	}
	who := fmt.Sprintf("%d users", c.Users)
	if c.Rate > 0 {
		who = fmt.Sprintf("%.6g requests/s (open model, up to %d users)", c.Rate, c.MaxUsers)
	}
	if c.Ramp > 0 {
		who += fmt.Sprintf(" after a %v ramp", c.Ramp)
	}
	noun := "URLs"
	if len(s.Targets) == 1 {
		noun = "URL"
	}
	return fmt.Sprintf("** webload %s\n** %s, %s, over %d %s%s\nLoading... Ctrl-C stops and reports what was measured.\n",
		s.Info.Version, who, plan, len(s.Targets), noun, bannerHosts(s.Targets))
}

// bannerHostsShown is how many hosts the banner names before it counts the rest.
const bannerHostsShown = 3

// bannerHosts names the scheme and host the targets go to, in the order of the list, as
// " on http://127.0.0.1:8101": a list pointed at the wrong stack shows before the run. User
// information is left out, since it may hold a password.
func bannerHosts(targets []urls.Target) string {
	var hosts []string
	seen := map[string]bool{}
	for _, t := range targets {
		u, err := url.Parse(t.URL)
		if err != nil || u.Host == "" {
			continue
		}
		h := u.Scheme + "://" + u.Host
		if !seen[h] {
			seen[h] = true
			hosts = append(hosts, h)
		}
	}
	switch n := len(hosts); {
	case n == 0:
		return ""
	case n == 1:
		return " on " + hosts[0]
	case n <= bannerHostsShown:
		return " on " + strings.Join(hosts[:n-1], ", ") + " and " + hosts[n-1]
	default:
		return fmt.Sprintf(" on %s and %d more hosts", strings.Join(hosts[:bannerHostsShown], ", "), n-bannerHostsShown)
	}
}

func perUser(c *loader.Config) string {
	if c.Rate > 0 {
		return " in all"
	}
	return " each"
}

// plannedProgress is what the progress line measures against: the run time, else the number
// of requests.
func plannedProgress(s *Spec) progress.Plan {
	c := &s.Config
	plan := progress.Plan{Duration: c.Duration}
	switch {
	case c.Once:
		plan.Requests = int64(len(s.Targets))
	case c.Reps > 0 && c.Rate > 0:
		plan.Requests = int64(c.Reps)
	case c.Reps > 0:
		plan.Requests = int64(c.Reps) * int64(c.Users)
	}
	return plan
}
