package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/internal/atomicfile"
	"github.com/webload/webload/internal/inputfile"
	"github.com/webload/webload/urls"
)

// urlsCommand groups the URL-list tools: `webload urls import`.
func urlsCommand(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name:      "urls",
		Usage:     "work with URL lists",
		ArgsUsage: "COMMAND",
		HideHelp:  true,
		Flags:     []cli.Flag{helpFlag()},
		Action:    urlsGroup,
		Subcommands: []*cli.Command{{
			Name:      "import",
			Usage:     "turn analytics exports or access logs into a weighted URL file (siege's format)",
			ArgsUsage: "FILE...",
			HideHelp:  true,
			Flags:     importFlags(),
			Action:    func(c *cli.Context) error { return importCommand(c, stdout, stderr) },
		}},
	}
}

// urlsGroup answers "webload urls" without a known subcommand: its help when asked for (or
// given nothing), else a usage error, so a typo never exits 0 as if it had worked.
func urlsGroup(c *cli.Context) error {
	args := c.Args().Slice()
	switch {
	case c.Bool("help") || len(args) == 0:
		return cli.ShowSubcommandHelp(c)
	case args[0] == "help":
		return showHelpOf(c, append([]string{"urls"}, args[1:]...))
	}
	return usagef("urls: no command %q%s; see webload urls --help", args[0],
		didYouMean(closeNames(args[0], commandNames(c.Command.Subcommands))))
}

func importFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Usage: "`FORMAT` of the input: ga4, ua, yandex, matomo, csv or log (default: detected)"},
		&cli.StringFlag{Name: "url-column", Usage: "with --format csv: the `HEADER` of the URL or path column"},
		&cli.StringFlag{Name: "count-column", Usage: "with --format csv: the `HEADER` of the count column"},
		&cli.StringFlag{Name: "base", Usage: "the site under test, `URL` such as http://127.0.0.1:8080: paths are joined to it, full URLs get its scheme and host; '$(SITE)' is written as it is, for SITE=URL at run time"},
		&cli.StringFlag{Name: "host", Usage: "keep only rows of `HOST` when the input has full URLs of several"},
		&cli.StringFlag{Name: "status", Usage: "access logs: count requests answered with these `STATUSES` (default 2xx,3xx)"},
		&cli.StringFlag{Name: "methods", Usage: "access logs: count these `METHODS` (default GET,HEAD; add POST to keep forms)"},
		&cli.BoolFlag{Name: "include-assets", Usage: "access logs: keep static assets (by logged content type, else by path: load.php, /static/, /resources/, wp-content, *.css, *.js, images, fonts, favicon.ico, robots.txt...)"},
		&cli.StringSliceFlag{Name: "include", Usage: "keep only rows whose path and query match `REGEX` (repeatable); a match is kept even if it is an asset"},
		&cli.StringSliceFlag{Name: "exclude", Usage: "drop rows whose path and query match `REGEX` (repeatable), after every other rule"},
		&cli.BoolFlag{Name: "include-bots", Usage: "access logs: keep requests from obvious bots"},
		&cli.BoolFlag{Name: "strip-query", Usage: "drop query strings"},
		&cli.StringSliceFlag{Name: "drop-param", Usage: "drop query parameter `NAME` (repeatable), e.g. a session id"},
		&cli.IntFlag{Name: "top", Value: 50, Usage: "keep the `N` most visited pages (0 or less: all)"},
		&cli.Int64Flag{Name: "min-count", Usage: "drop pages visited fewer than `N` times"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the URL file to `FILE` instead of stdout"},
		helpFlag(),
	}
}

// importCommand reads the files, writes the URL file and a summary of what was kept.
func importCommand(c *cli.Context, stdout, stderr io.Writer) error {
	if c.Bool("help") {
		return cli.ShowSubcommandHelp(c)
	}
	if c.Args().Len() == 0 {
		return usagef("urls import: give the files to read (an analytics export or access logs)")
	}
	opt := logFilter(c, "base")
	opt.Format, opt.URLColumn, opt.CountColumn = c.String("format"), c.String("url-column"), c.String("count-column")
	opt.StripQuery, opt.DropParams = c.Bool("strip-query"), c.StringSlice("drop-param")
	opt.Top, opt.MinCount = c.Int("top"), c.Int64("min-count")
	if opt.Top <= 0 {
		opt.Top = -1
	}
	entries, sum, err := urls.Import(c.Args().Slice(), opt)
	if err != nil {
		return usageError{err}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Imported by webload from %s (%s): %d URLs, %.1f %% of %d counted visits.\n",
		strings.Join(c.Args().Slice(), ", "), sum.Format, len(entries), sum.Coverage, sum.Total)
	b.WriteString("# Each #@weight line gives the next URL's visits; siege reads the file as it is.\n")
	if ref, name := baseVariable(opt.Base); name != "" {
		fmt.Fprintf(&b, "# The URLs start with %s: run with %s=http://host:port in the environment, or add a line %s=http://host:port above them.\n", ref, name, name)
	}
	if err := urls.WriteEntries(&b, entries); err != nil {
		return err
	}
	if out := c.String("output"); out != "" {
		if err := atomicfile.Write(out, b.Bytes()); err != nil {
			return fmt.Errorf("write %s: %w", out, err)
		}
	} else if _, err := stdout.Write(b.Bytes()); stdoutErr(err) != nil {
		return err
	}
	writeImportSummary(stderr, sum, len(entries))
	return nil
}

// baseVariable returns the variable reference a --base starts with ("$(SITE)/x" gives
// "$(SITE)" and "SITE"), or "" for a literal base; urls.Import has checked its form.
func baseVariable(base string) (ref, name string) {
	if !strings.HasPrefix(base, "$") {
		return "", ""
	}
	ref = base
	if i := strings.IndexByte(base, '/'); i >= 0 {
		ref = base[:i]
	}
	return ref, strings.Trim(ref, "$(){}")
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// warnSiteVariables says when a site variable of the environment (SITE=...) does not reach
// the URL file's requests, because the file names its hosts or defines the variable itself.
// Standard input cannot be read twice, so a piped list is not checked.
func warnSiteVariables(file string, env lookupEnv, stderr io.Writer) {
	if file == "" || file == "-" {
		return
	}
	f, err := inputfile.Open(file, inputfile.Lists)
	if err != nil {
		return // read once already: a file gone since is the run's to report
	}
	defer f.Close()
	for _, w := range urls.SiteVariableWarnings(f, file, env) {
		fmt.Fprintf(stderr, "webload: warning: %s\n", w)
	}
}

// writeImportSummary says what was read, what was skipped and why, and how much traffic the
// kept URLs cover.
func writeImportSummary(w io.Writer, s urls.ImportSummary, kept int) {
	fmt.Fprintf(w, "Read %d rows (%s); kept %d URLs covering %.1f %% of the %d visits counted\n",
		s.RowsRead, s.Format, kept, s.Coverage, s.Total)
	reasons := make([]string, 0, len(s.Skipped))
	for r := range s.Skipped {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Fprintf(w, "  skipped %d rows: %s\n", s.Skipped[r], r)
	}
	for _, bad := range s.BadRows {
		fmt.Fprintf(w, "  unreadable: %s\n", bad)
	}
}

// logFilter reads the flags that pick an access log's lines, which urls import and replay
// share; base names the flag that gives the site (--base, or replay's --site).
func logFilter(c *cli.Context, base string) urls.ImportOptions {
	return urls.ImportOptions{
		Base:          c.String(base),
		Host:          c.String("host"),
		Status:        splitList(c.String("status")),
		Methods:       splitList(strings.ToUpper(c.String("methods"))),
		IncludeAssets: c.Bool("include-assets"),
		IncludeBots:   c.Bool("include-bots"),
		Include:       c.StringSlice("include"),
		Exclude:       c.StringSlice("exclude"),
	}
}
