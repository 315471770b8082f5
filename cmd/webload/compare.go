package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/changepoint"
	"github.com/webload/webload/gate"
	"github.com/webload/webload/internal/atomicfile"
	"github.com/webload/webload/judge"
	"github.com/webload/webload/stats"
)

func compareFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT` of the table: text, md (Markdown) or json"},
		perURLFlag(),
		&cli.StringFlag{Name: "max-regression", Usage: "fail (exit 1) when a figure gets significantly worse than the baseline by more than `LIMITS`, e.g. p95=10%,trate=5%,p(99.5)=20% (any figure --assert takes); a change beyond the limit that the tests cannot decide exits 4"},
		&cli.IntFlag{Name: "max-content-changes", Usage: "fail (exit 1) when more than `N` URLs answer differently from the baseline (or, with --history, from the run before): another status mix, content or size; without it, changed URLs are listed but pass", DefaultText: "none"},
		&cli.StringFlag{Name: "junit", Usage: "write the --max-regression and --max-content-changes verdicts as JUnit XML to `FILE`, one test case per changed URL"},
		&cli.StringSliceFlag{Name: "content-ignore", Usage: "leave URLs whose path and query match `REGEX` out of the Content section and --max-content-changes (repeatable): pages known to answer at random, such as Special:Random"},
		&cli.StringFlag{Name: "history", Usage: "compare the newest result in `DIR` (written by --history) with the median of the ones before, and list where its figures changed level over all its results"},
		&cli.IntFlag{Name: "last", Value: 30, Usage: "with --history, use the last `N` results"},
		&cli.IntFlag{Name: "min-history", Value: judge.DefaultMinHistory, Usage: "with --history, judge the newest result only when `N` results come before it; with fewer, print the trend and pass"},
		&cli.Float64Flag{Name: "change-p", Value: changepoint.DefaultP, Usage: "with --history, list a change point only when the t-test between the nights either side gives p below `P`"},
		&cli.StringFlag{Name: "change-min", Value: "5%", Usage: "with --history, list a change point only when the figure's mean moved by `PERCENT` or more"},
		helpFlag(),
	}
}

// compareCommand is `webload compare A.json B.json ...` and `webload compare --history DIR`.
func compareCommand(c *cli.Context, stdout io.Writer) error {
	if c.Bool("help") {
		return cli.ShowCommandHelp(c, "compare")
	}
	format := c.String("format")
	if format != "text" && format != "md" && format != "json" {
		return usagef("--format: want text, md or json (got %q)", format)
	}
	perURL, err := perURLFigures(c)
	if err != nil {
		return err
	}
	var limits []judge.Limit
	if s := c.String("max-regression"); s != "" {
		var err error
		if limits, err = judge.ParseLimits(s); err != nil {
			return usagef("--max-regression: %w", err)
		}
	}
	g := compareGates{limits: limits, maxContent: -1}
	if c.IsSet("max-content-changes") {
		if g.maxContent = c.Int("max-content-changes"); g.maxContent < 0 {
			return usagef("--max-content-changes: want 0 or more URLs (got %d)", g.maxContent)
		}
	}
	for _, expr := range c.StringSlice("content-ignore") {
		re, err := regexp.Compile(expr)
		if err != nil {
			return usagef("--content-ignore %q: %w", expr, err)
		}
		g.contentIgnore = append(g.contentIgnore, re)
	}
	var results []stats.Verdict
	if dir := c.String("history"); dir != "" {
		if c.Args().Len() > 0 {
			return usagef("give either result files or --history DIR, not both")
		}
		w := historyWindow{last: c.Int("last"), min: c.Int("min-history"), perURL: perURL}
		if w.changes, err = changeConfig(c); err != nil {
			return err
		}
		results, err = compareHistory(dir, w, format, g, stdout)
	} else {
		results, err = compareFiles(c.Args().Slice(), format, perURL, g, stdout)
	}
	if err != nil {
		return err
	}
	// Under --format json the verdicts go to stderr: stdout stays one JSON document.
	lines := verdictLines{blankFirst: format != "json"}
	if format == "json" {
		stdout = c.App.ErrWriter
	}
	return finishVerdicts(results, lines, c.String("junit"), "webload compare", stdout)
}

// compareGates are the checks of a comparison: --max-regression limits and, unless maxContent is
// negative, --max-content-changes.
type compareGates struct {
	limits     []judge.Limit
	maxContent int
	// contentIgnore leaves the URLs it matches out of the Content section (--content-ignore).
	contentIgnore []*regexp.Regexp
}

// verdicts holds a comparison or trend to the gates.
func (g compareGates) verdicts(c interface {
	CheckLimits([]judge.Limit) []stats.Verdict
	CheckContent(int) []stats.Verdict
}) []stats.Verdict {
	v := c.CheckLimits(g.limits)
	if g.maxContent >= 0 {
		v = append(v, c.CheckContent(g.maxContent)...)
	}
	return v
}

func compareFiles(paths []string, format string, perURL []stats.Figure, g compareGates, stdout io.Writer) ([]stats.Verdict, error) {
	if len(paths) < 2 {
		return nil, usagef("compare needs at least two result files (webload compare old.json new.json)")
	}
	if _, err := os.Stat(paths[0]); err != nil {
		if _, isFigures := judge.ParseURLFigures(paths[0]); isFigures == nil {
			return nil, usagef("--per-url takes its figures after an =, as in --per-url=%s (%s is no result file)", paths[0], paths[0])
		}
	}
	reports, err := readReports(paths)
	if err != nil {
		return nil, err
	}
	cmp, err := judge.Compare(reports, false)
	if err != nil {
		return nil, usageError{err}
	}
	if len(perURL) > 0 {
		cmp.ListURLChanges(perURL)
	}
	cmp.IgnoreContent(g.contentIgnore)
	verdicts := g.verdicts(&cmp)
	switch format {
	case "json":
		cmp.Gates = gate.GateVerdicts(verdicts)
		err = stats.WriteJSON(stdout, cmp)
	case "md":
		err = cmp.WriteMarkdown(stdout)
	default:
		err = cmp.WriteText(stdout)
	}
	return verdicts, stdoutErr(err)
}

// perURLFlag is --per-url: alone, as it always was, it lists the URLs whose p95 changed most;
// with figures after an = (--per-url=p99,rtime) those whose figures did. urfave/cli has no flag
// whose value is optional, but Go's flag package, which parses for it, lets a flag whose value
// says it is boolean take a value after = only; the flag tells the help and normalizeArgs that
// it takes none after a space, so that "--per-url old.json new.json" keeps its meaning.
func perURLFlag() cli.Flag {
	return optionalValueFlag{&cli.GenericFlag{Name: "per-url", Value: &urlFiguresValue{},
		Usage: "also list the URLs whose p95 changed most, both ways; --per-url=p99,rtime lists those whose p99, " +
			"then whose mean, changed most: any response time kept per URL (rtime, p50, p90, p95, p99, p99.9, max or p(N))"}}
}

// perURLFigures are the figures --per-url asks for; nil without it.
func perURLFigures(c *cli.Context) ([]stats.Figure, error) {
	v, ok := c.Generic("per-url").(*urlFiguresValue)
	if !ok || v.figures == "" || v.figures == "false" {
		return nil, nil
	}
	if v.figures == "true" {
		return judge.ParseURLFigures("p95")
	}
	figs, err := judge.ParseURLFigures(v.figures)
	if err != nil {
		return nil, usagef("--per-url: %w", err)
	}
	return figs, nil
}

// urlFiguresValue holds --per-url as written: "true" when given alone. It is read by
// perURLFigures, so that a bad figure is a usage error naming the flag rather than the flag
// package's "invalid boolean value".
type urlFiguresValue struct{ figures string }

// IsBoolFlag tells Go's flag package that --per-url may come alone.
func (v *urlFiguresValue) IsBoolFlag() bool { return true }

// Set implements flag.Value.
func (v *urlFiguresValue) Set(s string) error {
	v.figures = s
	return nil
}

// String implements flag.Value; "" shows no default in the help.
func (v *urlFiguresValue) String() string { return "" }

// optionalValueFlag is a flag whose value comes only after an = (see perURLFlag): it takes no
// value after a space, so the help shows no placeholder and normalizeArgs leaves the next
// argument alone.
type optionalValueFlag struct{ *cli.GenericFlag }

// TakesValue implements cli.DocGenerationFlag.
func (f optionalValueFlag) TakesValue() bool { return false }

// String renders the flag for the help, as urfave/cli renders any flag.
func (f optionalValueFlag) String() string { return cli.FlagStringer(f) }

// historyWindow is how many results of a history a trend reads, and how many must come before
// the newest to judge it; how strict its change points are, and the figures of each URL whose
// change points are looked for (p95 unless --per-url says others).
type historyWindow struct {
	last, min int
	changes   changepoint.Config
	perURL    []stats.Figure
}

// changeConfig is --change-p and --change-min.
func changeConfig(c *cli.Context) (changepoint.Config, error) {
	cfg := changepoint.Config{P: c.Float64("change-p")}
	s := strings.TrimSpace(c.String("change-min"))
	pct, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		return cfg, usagef("--change-min: want a percentage such as 5%% (got %q)", s)
	}
	cfg.MinMagnitude = pct / 100
	if err := cfg.Validate(); err != nil {
		if errors.Is(err, changepoint.ErrP) {
			return cfg, usagef("--change-p: %w", err)
		}
		return cfg, usagef("--change-min: want a percentage of 0 or more such as 5%% (got %q)", s)
	}
	return cfg, nil
}

func compareHistory(dir string, w historyWindow, format string, g compareGates, stdout io.Writer) ([]stats.Verdict, error) {
	if w.min < 2 {
		return nil, usagef("--min-history: want at least 2 (got %d)", w.min)
	}
	if w.last <= w.min {
		return nil, usagef("--last: want more than --min-history (%d), got %d", w.min, w.last)
	}
	paths, err := historyFiles(dir)
	if err != nil {
		return nil, err
	}
	// Change points are looked for over every result; the trend judges the last ones. The
	// results before the window keep only what change points read, as they are read.
	var all []stats.Report
	for i, p := range paths {
		rep, err := stats.ReadJSON(p)
		if err != nil {
			return nil, usageError{err}
		}
		if i < len(paths)-w.last {
			rep = judge.ForChanges(rep)
		}
		all = append(all, rep)
	}
	trend, err := judge.NewTrend(all[max(0, len(all)-w.last):], w.min)
	if err != nil {
		return nil, usageError{err}
	}
	urlFigures := w.perURL
	if len(urlFigures) == 0 {
		urlFigures, _ = judge.ParseURLFigures("p95")
	}
	changes, err := judge.FindChanges(all, w.last, w.changes, urlFigures)
	if err != nil {
		return nil, usageError{err}
	}
	trend.Changes = &changes
	trend.IgnoreContent(g.contentIgnore)
	verdicts := g.verdicts(&trend)
	if format == "json" {
		trend.Gates = gate.GateVerdicts(verdicts)
		err = stats.WriteJSON(stdout, trend)
	} else {
		err = trend.WriteText(stdout)
	}
	return verdicts, stdoutErr(err)
}

func readReports(paths []string) ([]stats.Report, error) {
	var reports []stats.Report
	for _, p := range paths {
		rep, err := stats.ReadJSON(p)
		if err != nil {
			return nil, usageError{err}
		}
		reports = append(reports, rep)
	}
	return reports, nil
}

// verdictLines says how a command prints its verdicts: a run puts "Gate " before each and, with
// -q or -j, shows only the failures; compare sets them apart from its table by a blank line.
type verdictLines struct {
	prefix       string
	failuresOnly bool
	blankFirst   bool
}

// finishVerdicts prints the verdicts of gates or limits, writes them to the JUnit file when one
// is asked for, and fails with exit 1 when a check failed, else with exit 4 when a limit was
// inconclusive.
func finishVerdicts(results []stats.Verdict, lines verdictLines, junit, suite string, stdout io.Writer) error {
	if lines.blankFirst && len(results) > 0 {
		fmt.Fprintln(stdout)
	}
	for _, r := range results {
		if !lines.failuresOnly || !r.Passed {
			fmt.Fprintln(stdout, lines.prefix+r.Text)
		}
	}
	if junit != "" {
		if err := writeJUnitFile(junit, suite, results); err != nil {
			return err
		}
	}
	if failed := stats.Failed(results); failed > 0 {
		return gateError{failed: failed, total: len(results)}
	}
	if n := stats.CountInconclusive(results); n > 0 {
		return inconclusiveError{inconclusive: n, total: len(results)}
	}
	return nil
}

// inconclusiveError means no limit failed but a change beyond a limit could not be told from
// noise: exit 4, so that CI can tell "measure again" from "regressed".
type inconclusiveError struct{ inconclusive, total int }

func (e inconclusiveError) Error() string {
	return fmt.Sprintf("%d of %d gates inconclusive: each line above says what would decide it (more repeats, another search, figures that count the same thing)", e.inconclusive, e.total)
}

// gateError means the run or comparison broke a gate: exit 1.
type gateError struct{ failed, total int }

func (e gateError) Error() string {
	return fmt.Sprintf("%d of %d gates failed", e.failed, e.total)
}

func writeJUnitFile(path, suite string, results []stats.Verdict) error {
	var b strings.Builder
	if err := judge.WriteJUnit(&b, suite, results); err != nil {
		return err
	}
	if err := atomicfile.Write(path, []byte(b.String())); err != nil {
		return fmt.Errorf("write JUnit file: %w", err)
	}
	return nil
}
