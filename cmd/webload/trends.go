package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/internal/atomicfile"
	"github.com/webload/webload/judge"
	"github.com/webload/webload/report"
	"github.com/webload/webload/stats"
)

// historyFiles lists the results of a history folder (written by --history), oldest first: their
// names start with the UTC time of the run. An empty or missing folder is a usage error, so a
// job whose runs did not keep their results fails on the first night.
func historyFiles(dir string) ([]string, error) {
	if fi, err := os.Stat(dir); err != nil {
		return nil, usagef("--history: %w", err)
	} else if !fi.IsDir() {
		return nil, usagef("--history %s: not a folder", dir)
	}
	// Listed, not globbed: the folder's name may hold a glob's characters (nightly[prod]).
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, usagef("--history: %w", err)
	}
	var paths []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, usagef("%s holds no results (*.json written by --history)", dir)
	}
	return paths, nil
}

// reportHistory is `webload report --history DIR --html FILE`: the trend page of a history,
// each night linked to its own report when NAME.html sits beside its NAME.json.
func reportHistory(c *cli.Context, dir, out string) error {
	if c.Args().Len() > 0 {
		return usagef("report: give either result files or --history DIR, not both")
	}
	cfg, err := changeConfig(c)
	if err != nil {
		return err
	}
	paths, err := historyFiles(dir)
	if err != nil {
		return err
	}
	nights := make([]report.Night, 0, len(paths))
	for _, p := range paths {
		rep, err := stats.ReadJSON(p)
		if err != nil {
			return usageError{err}
		}
		// A night is drawn from the figures a result keeps as fields, not its histograms, so a
		// year of nights of a long URL list fits in memory.
		rep = judge.ForChanges(rep)
		if rep.Label == "" {
			rep.Label = strings.TrimSuffix(filepath.Base(p), ".json")
		}
		nights = append(nights, report.Night{Result: rep, Link: report.NightLink(out, p)})
	}
	title := c.String("title")
	if title == "" {
		// The folder names the history (nightly-shop, staging); its nights' labels are commits.
		title = "webload trends: " + filepath.Base(filepath.Clean(dir))
	}
	var b bytes.Buffer
	if err := report.WriteTrendsHTML(&b, nights, report.TrendOptions{Title: title, Changes: cfg}); err != nil {
		return err
	}
	if err := atomicfile.Write(out, b.Bytes()); err != nil {
		return fmt.Errorf("write trend page %s: %w", out, err)
	}
	return nil
}
