package judge

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/webload/webload/content"
	"github.com/webload/webload/stats"
)

// MinContentSamples is how many 2xx answers each side of a URL needs fingerprinted for its
// content to be judged: fewer may all have been alike by chance, so that a page which varies
// (search results in a varying order) learns one version as stable one night and sees another
// the next. The learning fingerprints the first 8 answers of every URL.
const MinContentSamples = 8

// VariesShare is the part of a URL's segments, and VariesSegments how many of them at least,
// that must have varied among its own answers, on either side, for the URL to vary by itself
// (a random page, a changing list): its content is then not judged, since whatever differs
// from the other run differed within one too. A page with a rotating ad slot or a form token
// varies in a segment or two and is still judged, however short it is. On MediaWiki 1.39 the
// article pages varied in none of their 700 to 1 500 segments, Special:Random in 18 to 31 %,
// searches in 9 to 15 % (130 to 170 segments).
const (
	VariesShare    = 0.05
	VariesSegments = 4
)

// The kinds of the notes the Content section keeps beside its changes.
const (
	ContentVariesKind    = "varies"     // the URL's answers differed among themselves
	ContentNotJudgedKind = "not judged" // too few answers fingerprinted on a side
)

// ContentSection is the Content section of a comparison or a trend.
type ContentSection struct {
	// Content lists, per candidate run, the URLs that answer differently from the baseline
	// (ContentChanges); absent when none does.
	Content []ContentChange `json:"content_changes,omitempty"`
	// ContentURLs counts the URLs whose answers were compared, for "2 of 50 URLs" (0 when the
	// results record no sizes, those saved before sizes were: then only changes are shown).
	ContentURLs int `json:"content_urls,omitempty"`
	// ContentVaries lists the URLs whose answers varied by themselves (VariesShare), whose
	// content is not judged: Before and After say how much of each side varied.
	ContentVaries []ContentChange `json:"content_varies,omitempty"`
	// ContentNotJudged lists the URLs with fewer than MinContentSamples answers fingerprinted
	// on a side: Before and After give each side's count. Their status mix and size are judged.
	ContentNotJudged []ContentChange `json:"content_not_judged,omitempty"`
	// ContentIgnored counts the URLs left out by --content-ignore.
	ContentIgnored int `json:"content_ignored,omitempty"`
}

// add appends another candidate's section.
func (s *ContentSection) add(o ContentSection) {
	s.Content = append(s.Content, o.Content...)
	s.ContentURLs = max(s.ContentURLs, o.ContentURLs)
	s.ContentVaries = append(s.ContentVaries, o.ContentVaries...)
	s.ContentNotJudged = append(s.ContentNotJudged, o.ContentNotJudged...)
	s.ContentIgnored += o.ContentIgnored
}

// note keeps a URL whose content is not judged.
func (s *ContentSection) note(ch ContentChange) {
	if ch.Change == ContentVariesKind {
		s.ContentVaries = append(s.ContentVaries, ch)
		return
	}
	s.ContentNotJudged = append(s.ContentNotJudged, ch)
}

// IgnoreContent leaves out of the section the URLs whose path and query match a pattern
// (--content-ignore): pages a user knows to answer at random.
func (s *ContentSection) IgnoreContent(patterns []*regexp.Regexp) {
	if len(patterns) == 0 {
		return
	}
	ignored := map[string]bool{}
	keep := func(list []ContentChange) []ContentChange {
		var out []ContentChange
		for _, ch := range list {
			if matchesAny(patterns, ch.Path) {
				ignored[ch.Label+" "+ch.Method+" "+ch.Path] = true
				continue
			}
			out = append(out, ch)
		}
		return out
	}
	s.Content, s.ContentVaries, s.ContentNotJudged = keep(s.Content), keep(s.ContentVaries), keep(s.ContentNotJudged)
	s.ContentIgnored += len(ignored)
}

func matchesAny(patterns []*regexp.Regexp, s string) bool {
	for _, re := range patterns {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// contentJudged says why the content of a URL's two profiles cannot be judged ("" when it
// can): too few answers on a side, or answers that varied by themselves.
func contentJudged(b, u *content.Profile) string {
	switch {
	case min(b.Samples, u.Samples) < MinContentSamples:
		return ContentNotJudgedKind
	case variesByItself(b) || variesByItself(u):
		return ContentVariesKind
	}
	return ""
}

// variesByItself tells whether a profile's answers varied among themselves (VariesShare).
func variesByItself(p *content.Profile) bool {
	volatile, of := p.Variation()
	return volatile >= VariesSegments && float64(volatile) >= VariesShare*float64(of)
}

// contentNote is the note of a URL whose content is not judged: how many answers each side
// fingerprinted, or how much of each side varied. false for a URL judged, or without content
// on a side (no 2xx answer: the status mix tells).
func contentNote(b, u *stats.URLStats) (ContentChange, bool) {
	bp, up := b.Content, u.Content
	if bp == nil || up == nil || bp.Samples == 0 || up.Samples == 0 {
		return ContentChange{}, false
	}
	switch contentJudged(bp, up) {
	case ContentNotJudgedKind:
		return ContentChange{Change: ContentNotJudgedKind, Before: answersText(bp.Samples), After: answersText(up.Samples)}, true
	case ContentVariesKind:
		vb, vu := bp.VolatileShare(), up.VolatileShare()
		return ContentChange{Change: ContentVariesKind, Magnitude: max(vb, vu),
			Before: fmt.Sprintf("%.0f %% varied", vb*100), After: fmt.Sprintf("%.0f %% varied", vu*100)}, true
	}
	return ContentChange{}, false
}

func answersText(n int64) string {
	if n == 1 {
		return "1 answer"
	}
	return fmt.Sprintf("%d answers", n)
}

// write writes the section: the changes (writeContent), then the URLs not judged.
func (s *ContentSection) write(b *strings.Builder, against string, md bool) {
	writeContent(b, s.Content, s.ContentURLs, against, md, len(s.ContentVaries)+len(s.ContentNotJudged))
	if n := len(s.ContentVaries); n > 0 {
		fmt.Fprintf(b, "Content: %d URL%s var%s by %s, not judged (%d segments and %.0f %% of them or more differed among the answers of one run; the share per side):\n",
			n, plural(n), map[bool]string{true: "y", false: "ies"}[n != 1], map[bool]string{true: "themselves", false: "itself"}[n != 1], VariesSegments, VariesShare*100)
		writeNotes(b, s.ContentVaries, md)
	}
	if n := len(s.ContentNotJudged); n > 0 {
		fmt.Fprintf(b, "Content: %d URL%s not judged, fewer than %d answers fingerprinted on a side (their status mix and size are judged; more requests judge them):\n",
			n, plural(n), MinContentSamples)
		writeNotes(b, s.ContentNotJudged, md)
	}
	if s.ContentIgnored > 0 {
		fmt.Fprintf(b, "Content: %d URL%s left out by --content-ignore\n", s.ContentIgnored, plural(s.ContentIgnored))
	}
}

// maxNotes is how many URLs not judged the text lists; the JSON has them all.
const maxNotes = 10

// writeNotes lists URLs not judged, at most maxNotes.
func writeNotes(b *strings.Builder, notes []ContentChange, md bool) {
	for i, ch := range notes {
		if i == maxNotes {
			fmt.Fprintf(b, "  … and %d more (all in the JSON)\n", len(notes)-maxNotes)
			return
		}
		if md {
			fmt.Fprintf(b, "- %s %s: %s → %s\n", markdownCell(ch.Label), markdownCell(ch.Method+" "+ch.Path), ch.Before, ch.After)
			continue
		}
		fmt.Fprintf(b, "  %s  %s  %s → %s\n", ch.Label, ch.Method+" "+ch.Path, ch.Before, ch.After)
	}
}

// verdicts holds the section's changes to --max-content-changes (contentVerdicts).
func (s *ContentSection) verdicts(maxChanged int) []stats.Verdict {
	return contentVerdicts(s.Content, maxChanged)
}

// nightlyVariation finds, among the URLs of earlier runs, those whose content changed between
// at least half of the pairs of runs that followed each other (content.Compare, both sides
// judged), or varied within one of the pair: a search whose results differ from night to night
// while each night answers alike, a random page whose variation a night happened to miss.
// Their content is not judged in the newest run, and the section says how often they changed.
// A real change is one step: it shows the night it comes, against runs that agreed, and once a
// few nights agree with it again the URL is judged again. By method, path and query, with how
// it varied.
//
// With a single earlier run, nothing tells yet which pages vary by night: the content of every
// URL is then left unjudged (its status mix and size are judged), and the URLs whose content
// differs are listed as such.
func nightlyVariation(earlier []stats.Report) map[string]string {
	out := map[string]string{}
	if len(earlier) == 1 {
		for i := range earlier[0].URLs {
			u := &earlier[0].URLs[i]
			out[u.Method+" "+stats.RequestURI(u.URL)] = "one earlier run: which pages vary by night is not known yet"
		}
		return out
	}
	changed := map[string]int{}
	pairs := len(earlier) - 1
	for i := 1; i < len(earlier); i++ {
		prev := map[string]*stats.URLStats{}
		for k := range earlier[i-1].URLs {
			u := &earlier[i-1].URLs[k]
			prev[u.Method+" "+stats.RequestURI(u.URL)] = u
		}
		for k := range earlier[i].URLs {
			u := &earlier[i].URLs[k]
			key := u.Method + " " + stats.RequestURI(u.URL)
			b := prev[key]
			if b == nil || b.Content == nil || u.Content == nil || b.Content.Samples == 0 || u.Content.Samples == 0 {
				continue
			}
			switch contentJudged(b.Content, u.Content) {
			case ContentVariesKind: // varied within a run: so it does from run to run
				changed[key]++
			case "":
				if c := content.Compare(b.Content, u.Content); c.Changed && !content.Reordered(b.Content, u.Content) {
					changed[key]++
				}
			}
		}
	}
	for k, n := range changed {
		if 2*n >= pairs {
			out[k] = fmt.Sprintf("changed between %d of %d pairs of earlier runs", n, pairs)
		}
	}
	return out
}
