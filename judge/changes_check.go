package judge

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/webload/webload/stats"
)

// write lists the change points under the trend: where each began, the sizes either side with
// the interval of the difference, and which way it went.
func (s *ChangeSection) write(b *strings.Builder) {
	over := fmt.Sprintf("all %d results", s.Nights)
	if s.Nights == 1 {
		over = "the 1 result"
	}
	fmt.Fprintf(b, "\nChange points over %s (E-divisive means, t-test p < %g, at least %.3g%%; URLs on nights with %d hits or more):\n",
		over, s.P, s.MinMagnitude*100, s.MinURLHits)
	if len(s.Changes) == 0 {
		b.WriteString("  none\n")
		return
	}
	var urls []ChangePoint
	for _, c := range s.Changes {
		if c.Path != "" || c.Method != "" {
			urls = append(urls, c)
			continue
		}
		s.writeLine(b, c)
	}
	// A change of the whole site moves every URL: the text shows the URLs that matter most
	// (inside the window, then the largest changes), the JSON all of them.
	slices.SortStableFunc(urls, func(x, y ChangePoint) int {
		if x.InWindow != y.InWindow {
			if x.InWindow {
				return -1
			}
			return 1
		}
		return cmp.Compare(math.Abs(y.Change), math.Abs(x.Change))
	})
	for i, c := range urls {
		if i == maxURLChangeLines {
			fmt.Fprintf(b, "  and %d more change points of URLs (--format json lists them all)\n", len(urls)-i)
			break
		}
		s.writeLine(b, c)
	}
}

// maxURLChangeLines is how many change points of URLs the text lists.
const maxURLChangeLines = 20

// writeLine is one change point's line.
func (s *ChangeSection) writeLine(b *strings.Builder, c ChangePoint) {
	name := c.Figure
	if c.Unit != "" {
		name += " " + c.Unit
	}
	if c.Path != "" {
		name += " " + c.Method + " " + c.Path
	}
	dec := columnFigure(c.Key).Compare.Decimals
	way := "improvement"
	if c.Regression {
		way = "REGRESSION"
	}
	fmt.Fprintf(b, "  %s: from %s, %s -> %s (%s, %s to %s), %s", name, nightText(c), formatValue(c.Before, dec),
		formatValue(c.After, dec), changeText(c.Change), signedValue(c.Low, dec), signedValue(c.High, dec), way)
	if !c.InWindow {
		fmt.Fprintf(b, " (before the last %d)", s.Window)
	}
	b.WriteString("\n")
}

// nightText names the night a change began: its index counted from 1, its start and label.
func nightText(c ChangePoint) string {
	var parts []string
	if c.Night != "" {
		parts = append(parts, c.Night)
	}
	if c.Label != "" {
		parts = append(parts, c.Label)
	}
	if len(parts) == 0 {
		return fmt.Sprintf("night %d", c.Index+1)
	}
	return fmt.Sprintf("night %d (%s)", c.Index+1, strings.Join(parts, ", "))
}

func signedValue(v float64, dec int) string {
	if v >= 0 {
		return "+" + formatValue(v, dec)
	}
	return formatValue(v, dec)
}

// WriteChanges writes the change points alone, as WriteText writes them under the trend.
func (s *ChangeSection) WriteChanges(w io.Writer) error {
	var b strings.Builder
	s.write(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// CheckChanges holds the newest segment of each limit's figure to the limit: it fails when a
// change point that began inside the trend's window made the figure worse by more than the
// limit allows (change points are significant by construction). A change that began before
// the window passes, so that a regression a team has accepted stops failing once the window
// has moved past it, as the trend's own rule forgets it. Limits on unknown figures are left to
// Trend.CheckLimits, which fails them. With fewer than minHistory results before the newest
// nothing is judged, as the trend judges nothing, so that a new nightly job starts green.
func (s *ChangeSection) CheckChanges(limits []Limit, minHistory int) []stats.Verdict {
	if s.Nights-1 < minHistory {
		return nil
	}
	var out []stats.Verdict
	for _, l := range limits {
		col, ok := stats.LookupFigure(l.Key)
		if !ok || !stats.PerRun(col) {
			continue
		}
		res := limitVerdict("newest segment", l)
		res.Figure = col.Name
		c, found := s.newest(col)
		name := "newest " + col.Compare.Title + " segment"
		if !found {
			res.Text = fmt.Sprintf("%s: no change point in %d results: ok", name, s.Nights)
			out = append(out, res)
			continue
		}
		res.Measured = c.After / col.Compare.Scale
		worse := c.Change
		if col.HigherIsBetter {
			worse = -worse
		}
		dec := col.Compare.Decimals
		text := fmt.Sprintf("%s from %s: %s%s vs %s%s before (%s, %s to %s%s, p = %.2g, allowed %.1f%% worse)", name, nightText(c),
			formatValue(c.After, dec), unitSuffix(c.Unit), formatValue(c.Before, dec), unitSuffix(c.Unit), changeText(c.Change),
			signedValue(c.Low, dec), signedValue(c.High, dec), unitSuffix(c.Unit), c.P, l.Max*100)
		switch {
		case !c.Regression || worse <= l.Max:
			res.Text = text + ": ok"
		case !c.InWindow:
			res.Text = text + fmt.Sprintf(": began before the last %d results, ok", s.Window)
		default:
			res.Passed = false
			res.Text = text + ": FAILED (change point)"
		}
		out = append(out, res)
	}
	return out
}
