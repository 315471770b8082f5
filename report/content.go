package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/webload/webload/judge"
)

// contentTable lists the URLs that answer differently from the baseline, biggest change first,
// as `webload compare` prints them, and words the note under it. urls counts the URLs compared
// (0 for results saved before sizes were recorded: then nothing is said when nothing changed).
func contentTable(sec judge.ContentSection) (table, string) {
	changes, urls := sec.Content, sec.ContentURLs
	t := table{Sortable: true, Columns: []column{
		{Title: "Run"}, {Title: "Method"}, {Title: "Path", Sticky: true},
		{Title: "change", Hint: "the first of status, content and size that changed; the others follow in brackets"},
		{Title: "how much", Num: true, Hint: "status: the share of responses that answer otherwise; size: the mean's move; content: the fingerprints' measure"},
		{Title: "before"}, {Title: "after"}, {Title: "content excerpt"},
	}}
	for _, ch := range changes {
		kind := ch.Change
		if len(ch.Also) > 0 {
			kind += " (also " + strings.Join(ch.Also, ", ") + ")"
		}
		how := cell{Text: fmt.Sprintf("%.0f %%", ch.Magnitude*100), Key: ch.Magnitude, Class: "worse"}
		excerpt := none()
		if ch.Excerpt != "" {
			excerpt = text(ch.Excerpt)
		}
		t.Rows = append(t.Rows, []cell{text(ch.Label), text(ch.Method), text(ch.Path), text(kind), how,
			text(ch.Before), text(ch.After), excerpt})
	}
	// The URLs whose content was not judged follow, unmarked: they are no change.
	for _, ch := range slices.Concat(sec.ContentVaries, sec.ContentNotJudged) {
		t.Rows = append(t.Rows, []cell{text(ch.Label), text(ch.Method), text(ch.Path), text(ch.Change),
			{Text: fmt.Sprintf("%.0f %%", ch.Magnitude*100), Key: ch.Magnitude}, text(ch.Before), text(ch.After), none()})
	}
	note := ""
	if n := len(sec.ContentVaries) + len(sec.ContentNotJudged); n > 0 {
		were := "URLs were"
		if n == 1 {
			were = "URL was"
		}
		note = fmt.Sprintf(" %d %s not judged on content (listed last): %q ones vary by themselves "+
			"(%d segments and %.0f %% of them or more differed among one run's answers), %q ones had fewer than %d answers fingerprinted on a side.",
			n, were, judge.ContentVariesKind, judge.VariesSegments, judge.VariesShare*100, judge.ContentNotJudgedKind, judge.MinContentSamples)
	}
	if sec.ContentIgnored > 0 {
		note += fmt.Sprintf(" URLs left out by --content-ignore: %d.", sec.ContentIgnored)
	}
	switch {
	case len(changes) > 0:
		return t, "Each URL whose answers changed, once, under the first of status, content and size that changed. " +
			"A status mix changes when a status's share moved beyond chance (Fisher's exact test, p < 0.01) by at least 1 %; " +
			"a size when its mean moved beyond the requests' spread (Welch's t-test, p < 0.01) by at least 5 %." + note
	case urls > 0:
		return t, fmt.Sprintf("The %d URLs answer as the baseline did: the same status mix, content and size.", urls) + note
	}
	return t, strings.TrimSpace(note)
}
