package judge

import (
	"fmt"
	"strings"

	"github.com/webload/webload/stats"
)

// sizedURLs counts cand's URLs that were requested, when both results record sizes, so that the
// Content section can say "2 of 50 URLs"; 0 when either was saved before sizes were recorded.
func sizedURLs(base, cand *stats.Report) int {
	sized := func(r *stats.Report) bool {
		for i := range r.URLs {
			if r.URLs[i].Size != nil {
				return true
			}
		}
		return false
	}
	if !sized(base) || !sized(cand) {
		return 0
	}
	n := 0
	for i := range cand.URLs {
		if cand.URLs[i].Hits+cand.URLs[i].Failures > 0 {
			n++
		}
	}
	return n
}

// shown is a change as the section shows it: before → after (for content, the excerpt when
// there is one), the excerpt after it when the content changed too, and the other kinds that
// changed.
func (ch *ContentChange) shown() string {
	s := ch.Before + " → " + ch.After
	switch {
	case ch.Excerpt == "":
	case ch.Change == ChangeContent:
		s = ch.Excerpt
	default:
		s += "; content: " + ch.Excerpt
	}
	if len(ch.Also) > 0 {
		s += " (also " + strings.Join(ch.Also, ", ") + ")"
	}
	return s
}

const contentOrder = "one line per URL, under the first of status, content and size that changed; biggest change first"

// writeContent writes the Content section: the URLs that answer differently from the run they
// are compared against, which against names ("the baseline"). Results saved before sizes were
// recorded and without a changed status say nothing.
// notJudged counts the URLs whose content was not judged, listed after.
func writeContent(b *strings.Builder, changes []ContentChange, urls int, against string, md bool, notJudged int) {
	if len(changes) == 0 {
		switch {
		case urls > 0 && notJudged > 0:
			fmt.Fprintf(b, "\nContent: the %d URLs answer as %s did in status mix and size, and in content where it was judged\n", urls, against)
		case urls > 0:
			fmt.Fprintf(b, "\nContent: the %d URLs answer as %s did (status mix, content and size)\n", urls, against)
		case notJudged > 0:
			b.WriteString("\n")
		}
		return
	}
	of := ""
	if urls > 0 {
		of = fmt.Sprintf(" of %d", urls)
	}
	verb := "answer"
	if len(changes) == 1 {
		verb = "answers"
	}
	fmt.Fprintf(b, "\nContent: %d URL%s%s %s differently from %s (%s):\n", len(changes), plural(len(changes)), of, verb, against, contentOrder)
	if md {
		b.WriteString("\n| Run | URL | change | before → after |\n|---|---|---|---|\n")
		for _, ch := range changes {
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", markdownCell(ch.Label), markdownCell(ch.Method+" "+ch.Path),
				ch.Change, markdownCell(ch.shown()))
		}
		return
	}
	labels, paths := 0, 0
	for _, ch := range changes {
		labels = max(labels, len([]rune(ch.Label)))
		paths = max(paths, len([]rune(ch.Method+" "+ch.Path)))
	}
	for _, ch := range changes {
		fmt.Fprintf(b, "  %-*s  %-7s  %-*s  %s\n", labels, ch.Label, ch.Change, paths, ch.Method+" "+ch.Path, ch.shown())
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// contentVerdicts holds the changes to a limit of maxChanged URLs: each changed URL is a check of
// its own, failed when more URLs changed than allowed, so that CI names every page that answers
// differently. With no change, one check says so.
func contentVerdicts(changes []ContentChange, maxChanged int) []stats.Verdict {
	if len(changes) == 0 {
		return []stats.Verdict{{Check: "content", Figure: "content", Passed: true,
			Text: fmt.Sprintf("Content: no URL answers differently (allowed %d): ok", maxChanged)}}
	}
	over := len(changes) > maxChanged
	outcome := fmt.Sprintf("ok (%d URL%s changed, allowed %d)", len(changes), plural(len(changes)), maxChanged)
	if over {
		outcome = fmt.Sprintf("FAILED (%d URL%s changed, allowed %d)", len(changes), plural(len(changes)), maxChanged)
	}
	var out []stats.Verdict
	for _, ch := range changes {
		name := ch.Method + " " + ch.Path
		out = append(out, stats.Verdict{
			Check:    fmt.Sprintf("content: %s %s", ch.Label, name),
			Figure:   "content",
			Passed:   !over,
			Measured: float64(len(changes)),
			Text:     fmt.Sprintf("Content %s %s: %s %s: %s", ch.Label, name, ch.Change, ch.shown(), outcome),
		})
	}
	return out
}

// CheckContent holds the comparison to --max-content-changes: more than maxChanged URLs that
// answer differently from the baseline, over all candidates, fail.
func (c *Comparison) CheckContent(maxChanged int) []stats.Verdict {
	return c.ContentSection.verdicts(maxChanged)
}
