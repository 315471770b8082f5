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
	if len(s.Ladder) > 1 {
		who, plan = ladderUsers(s.Ladder), plan+" per step"
	}
	if c.Rate > 0 {
		who = fmt.Sprintf("%.6g requests/s (open model, up to %d users)", c.Rate, c.MaxUsers)
	}
	if c.Ramp > 0 {
		who += fmt.Sprintf(" after a %v ramp", c.Ramp)
	}
	if s.Replay != nil {
		who, plan = fmt.Sprintf("%s (open model, up to %d users)", s.Replay.Describe(), c.MaxUsers), "to the log's end"
		if c.Duration > 0 {
			plan = fmt.Sprintf("to the log's end or for %v, whichever ends first", c.Duration)
		}
	}
	noun := "URLs"
	if len(s.Targets) == 1 {
		noun = "URL"
	}
	return fmt.Sprintf("** webload %s\n** %s, %s, over %d %s%s\n%s%s%sLoading... Ctrl-C stops and reports what was measured.\n",
		s.Info.Version, who, plan, len(s.Targets), noun, bannerHosts(s.Targets), bannerRoutes(c, s.Targets), bannerSessions(s), bannerDatabases(s))
}

// bannerSessions names the data file users take their rows from and the login steps they
// begin with, when there is a login file or a relogin (a lone --login shows as it always did).
func bannerSessions(s *Spec) string {
	var b strings.Builder
	ss := &s.Sessions
	if ss.DataFile != "" {
		fmt.Fprintf(&b, "** data: %s, %s, %s\n", ss.DataFile, plural(ss.DataRows, "row"), ss.DataPick)
	}
	c := &s.Config
	if ss.LoginFile == "" && (c.ReloginEvery == 0 || len(c.Login) == 0) {
		return b.String()
	}
	var from []string
	if ss.LoginFile != "" {
		from = append(from, plural(ss.LoginSteps, "step")+" from "+ss.LoginFile)
	}
	if n := len(c.Login) - ss.LoginSteps; n > 0 {
		if len(from) == 0 {
			from = append(from, plural(n, "step")+" from --login")
		} else {
			from = append(from, fmt.Sprintf("%d from --login", n))
		}
	}
	fmt.Fprintf(&b, "** login: %s", strings.Join(from, " and "))
	if c.ReloginEvery > 0 {
		fmt.Fprintf(&b, ", again after every %s", plural(c.ReloginEvery, "URL"))
	}
	b.WriteString("\n")
	return b.String()
}

// plural is "1 row", "2 rows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// bannerDatabases names the databases the run reads (--db), passwords hidden, and when.
func bannerDatabases(s *Spec) string {
	when := "before and after the run"
	if s.Interval > 0 {
		when = fmt.Sprintf("before, every %v during and after the run", s.Interval)
	}
	var b strings.Builder
	for _, t := range s.Databases {
		fmt.Fprintf(&b, "** reading the database %s %s\n", t, when)
	}
	return b.String()
}

// bannerHostsShown is how many hosts the banner names before it counts the rest.
const bannerHostsShown = 3

// bannerHosts names the scheme and host the targets go to, in the order of the list, as
// " on http://127.0.0.1:8101": a list pointed at the wrong stack shows before the run. User
// information is left out, since it may hold a password.
func bannerHosts(targets []urls.Target) string {
	var hosts []string
	for _, u := range targetHosts(targets) {
		hosts = append(hosts, u.String())
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

// targetHosts are the distinct schemes and hosts of the targets, in the order of the list,
// without user information.
func targetHosts(targets []urls.Target) []*url.URL {
	var hosts []*url.URL
	seen := map[string]bool{}
	for _, t := range targets {
		u, err := url.Parse(t.URL)
		if err != nil || u.Host == "" {
			continue
		}
		h := &url.URL{Scheme: u.Scheme, Host: u.Host}
		if !seen[h.String()] {
			seen[h.String()] = true
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// bannerRoutes says where the connections of hosts that the configuration maps elsewhere
// (curl's --resolve and --connect-to) go, a line each, and warns of a mapping no URL's host
// uses (see routeWarnings).
func bannerRoutes(c *loader.Config, targets []urls.Target) string {
	if len(c.Resolve) == 0 && len(c.ConnectTo) == 0 {
		return ""
	}
	var b strings.Builder
	shown := 0
	for _, u := range targetHosts(targets) {
		to := c.Connects(urls.DialHostPort(u))
		if to == nil {
			continue
		}
		if shown++; shown > bannerHostsShown {
			continue
		}
		verb := "connects to"
		if c.Proxy != "" {
			verb = "tunnels through the proxy to"
		}
		fmt.Fprintf(&b, "** %s %s %s", u, verb, to[0])
		if len(to) > 1 {
			fmt.Fprintf(&b, " (then %s)", strings.Join(to[1:], ", "))
		}
		b.WriteString("\n")
	}
	if shown > bannerHostsShown {
		fmt.Fprintf(&b, "** and %d more hosts connect elsewhere\n", shown-bannerHostsShown)
	}
	if c.Proxy != "" && len(c.Resolve) > 0 {
		b.WriteString("** the proxy resolves the URLs' host names: a mapping to an address applies only to the proxy's own\n")
	}
	for _, w := range routeWarnings(c, targets) {
		b.WriteString(w + "\n")
	}
	return b.String()
}

// routeWarnings warn of each mapping (curl's --resolve and --connect-to) no URL's host and
// port uses: a port mistyped in it leaves the URLs it was meant for unmapped.
func routeWarnings(c *loader.Config, targets []urls.Target) []string {
	if len(c.Resolve) == 0 && len(c.ConnectTo) == 0 {
		return nil
	}
	var hostports []string
	for _, u := range targetHosts(targets) {
		hostports = append(hostports, urls.DialHostPort(u))
	}
	var out []string
	for _, e := range c.UnusedRoutes(hostports) {
		out = append(out, fmt.Sprintf("** warning: %q maps none of the URLs' hosts and ports (only redirects and resources could use it)", e))
	}
	return out
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
