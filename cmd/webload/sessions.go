package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/urls"
	"github.com/webload/webload/userdata"
)

// sessionFlags are the flags of logged-in users: each its own row of a data file, and a login
// file run before its first URL.
func sessionFlags(o *runOptions) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "data", Destination: &o.data, Category: catBrowser, Usage: "give each user its own variables from `FILE.csv`: a header row of names, then a row per user (user i takes row i mod N, see --data-pick); $(NAME) refers to a column in URL lines, bodies, -H values and login steps. The values, often passwords, are never shown"},
		typedFlag(&cli.GenericFlag{Name: "data-pick", Category: catBrowser, Usage: "`HOW` users take the rows of --data: sequential (user i takes row i mod N), random (each draws a row; --seed repeats the draws) or unique (user i takes row i; more users than rows is refused before the run)"}, &o.dataPick, userdata.Sequential.String(), userdata.ParsePick),
		&cli.StringFlag{Name: "login-file", Destination: &o.loginFile, Category: catBrowser, Usage: "each user first requests the lines of `FILE` in order, then any --login: siege's URL format, where \"#@extract NAME SOURCE\" takes a value such as a form's token out of the next line's answer for the later lines and the URLs as $(NAME) (SOURCE: regex:RE with a group, css:SELECTOR ATTR, css:SELECTOR text, json:PATH, header:NAME or cookie:NAME) and \"#@check EXPR\" fails a step whose answer does not pass EXPR, such as a refused login"},
		&cli.IntFlag{Name: "relogin-every", Destination: &o.reloginEvery, Category: catBrowser, Usage: "log each user in again after `N` of its URLs: the login steps again, with new cookies and extracted values (its data row stays)", DefaultText: "once, before the first URL"},
	}
}

// sessions is where users' own variables come from: the --data table and the names the login
// file's #@extract lines set. The URL file, --login and -H may refer to both.
type sessions struct {
	data      *userdata.Table
	extracts  map[string]bool
	loginFile string
	// broken is set when the data file or the login file could not be read: see env.
	broken bool
}

// perUser is urls.Options.PerUser for everything parsed after the login file.
func (s *sessions) perUser(name string) bool {
	return s.extracts[name] || s.data != nil && s.data.Has(name)
}

// explain adds to an undefined variable's error the names each user has of its own, so that a
// misspelt column shows beside the right one.
func (s *sessions) explain(err error) error {
	var undefined *urls.UndefinedVariableError
	if !errors.As(err, &undefined) {
		return err
	}
	var own []string
	if s.data != nil {
		own = append(own, fmt.Sprintf("%s (the columns of %s)", strings.Join(s.data.Names(), ", "), s.data.File()))
	}
	if len(s.extracts) > 0 {
		names := slices.Sorted(maps.Keys(s.extracts))
		own = append(own, fmt.Sprintf("%s (extracted by %s)", strings.Join(names, ", "), s.loginFile))
	}
	if len(own) == 0 {
		return err
	}
	return fmt.Errorf("%w; each user has %s", err, strings.Join(own, " and "))
}

// env is the environment for the files parsed after the data file and the login file. When one
// of them could not be read the run will not start, and every name is known (as ""), so that
// its problem is not followed by an "undefined variable" for each name it would have given.
func (s *sessions) env(env lookupEnv) lookupEnv {
	if !s.broken {
		return env
	}
	return func(name string) (string, bool) {
		if v, ok := env(name); ok {
			return v, ok
		}
		return "", true
	}
}

// sessionsFromFlags reads the data file and the login file; the login file's steps go first
// in the Config's Login, so that --login lines (parsed after) can use what they extract.
func sessionsFromFlags(c *cli.Context, o *runOptions, s *runSpec, env lookupEnv, p *problems) *sessions {
	sess := &sessions{extracts: map[string]bool{}}
	pick, err := o.dataPick.val, o.dataPick.err
	if err != nil {
		o.dataPick.book(p)
		sess.broken = o.data != ""
	}
	switch {
	case o.data != "" && err == nil:
		if sess.data, err = userdata.Read(o.data, pick); err != nil {
			p.add("data", fmt.Errorf("--data: %w", err))
			sess.broken = true
		} else {
			s.Config.Data = sess.data
			s.Sessions.DataFile, s.Sessions.DataRows, s.Sessions.DataPick = o.data, sess.data.Len(), pick.String()
		}
	case o.data == "" && c.IsSet("data-pick") && err == nil:
		p.addf("data-pick", "--data-pick: it picks the rows of a data file: give one with --data FILE.csv")
	}
	if o.loginFile == "" {
		return sess
	}
	opt := urls.Options{Getenv: sess.env(env), AllowAbsoluteBodies: o.allowAbsoluteBodies, PerUser: sess.perUser}
	steps, err := urls.ParseFile(o.loginFile, opt)
	if err != nil {
		p.add("login-file", fmt.Errorf("--login-file: %w", sess.explain(err)))
		sess.broken = true
		return sess
	}
	for _, t := range steps {
		for _, r := range t.Extracts {
			sess.extracts[r.Name()] = true
		}
	}
	s.Config.Login = append(steps, s.Config.Login...)
	s.Sessions.LoginFile, s.Sessions.LoginSteps = o.loginFile, len(steps)
	sess.loginFile = o.loginFile
	return sess
}

// checkSessions checks what needs the whole run known: a relogin needs a login, a unique pick
// enough rows for the run's users, and a header's $(NAME) a per-user name (a URL file's own
// #@extract names included).
func checkSessions(o *runOptions, s *runSpec, sess *sessions, p *problems) {
	cfg := &s.Config
	cfg.ReloginEvery = o.reloginEvery
	switch {
	case cfg.ReloginEvery < 0:
		p.addf("relogin-every", "--relogin-every: want a number of requests from 1 (got %d)", cfg.ReloginEvery)
	case cfg.ReloginEvery > 0 && len(cfg.Login) == 0:
		p.addf("relogin-every", "--relogin-every: there is no login to repeat: give --login-file FILE or --login URL")
	}
	if sess.data != nil {
		users, hint := cfg.Users, ""
		if cfg.Rate > 0 {
			// Each of the open model's users, up to the cap of each shard, takes a row of its own.
			users, hint = cfg.MaxUsers*max(cfg.Shards, 1), " (lower --max-users)"
		}
		if err := sess.data.Check(users); err != nil {
			p.addf("data-pick", "--data-pick unique: %w%s", err, hint)
		}
	}
	known := func(name string) bool {
		if sess.perUser(name) {
			return true
		}
		for _, t := range s.Targets {
			for _, r := range t.Extracts {
				if r.Name() == name {
					return true
				}
			}
		}
		return false
	}
	for _, h := range cfg.Headers {
		refs := urls.CompileTemplate(h.Value, func(string) bool { return true })
		if refs == nil {
			continue
		}
		for _, name := range refs.Names() {
			if !known(name) {
				p.addValue("header", h.Name+": "+h.Value, fmt.Errorf("-H: $(%s) is no --data column and no name an #@extract line sets", name))
			}
		}
	}
}
