// Package doclinks checks the relative links of Markdown files as GitHub renders them: each
// must name a file or folder that exists, and a #fragment must name a heading of the Markdown
// file it points into. Links to other sites are not followed (the tests stay off the network).
//
// It reads the Markdown the project writes, not every Markdown there is: ATX headings ("## x"),
// fenced code blocks, code spans, inline links and images ("[text](target)", the text may span
// lines) and reference definitions ("[label]: target"). Setext headings and HTML anchors are
// not read.
//
// It also finds the webload commands that the pages' shell code blocks show (Commands), so that
// a test can run each of them.
package doclinks

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// Link is a link target as written in a Markdown file.
type Link struct {
	Line   int    // 1-based line of the target
	Target string // as written: "docs/urls.md#url-files", "#speed", "https://..."
}

// Problem is a link that does not resolve.
type Problem struct {
	File   string // the Markdown file, relative to the root given to Check
	Line   int
	Target string
	Reason string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Target, p.Reason)
}

var (
	// inlineTarget is the "](target)" of an inline link or image, with an optional title; the
	// text before it may span lines, the target never does.
	inlineTarget = regexp.MustCompile(`\]\(\s*([^()\s]+)(?:\s+"[^"]*")?\s*\)`)
	// refDefinition is a reference-style link's definition line.
	refDefinition = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*(\S+)`)
	// atxHeading is "## Heading", with an optional closing run of #.
	atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	// fence opens or closes a fenced code block (also indented, inside a list item).
	fence = regexp.MustCompile("^\\s*(```+|~~~+)")
	// codeSpan is an inline code span of one to three backticks.
	codeSpan = regexp.MustCompile("(`{1,3})[^`]*?(?:`{1,3})")
	// scheme starts an absolute URL (https:, mailto:) or a network-path one (//host).
	scheme = regexp.MustCompile(`^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)`)
)

// outsideCode calls do with each line of markdown (0-based) that is not in a fenced code block.
func outsideCode(markdown string, do func(i int, line string)) {
	walk(markdown, func(i int, line string, block int, _ string) {
		if block < 0 {
			do(i, line)
		}
	})
}

// walk calls do with each line of markdown (0-based) but the fences, with the index of the
// fenced code block it is in (from 0; -1 outside code) and that block's info string ("sh").
func walk(markdown string, do func(i int, line string, block int, info string)) {
	open, info, block := "", "", -1 // the fence that opened the current block, and its info
	for i, line := range strings.Split(markdown, "\n") {
		if m := fence.FindStringSubmatch(line); m != nil {
			switch {
			case open == "":
				open, block = m[1], block+1
				info = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), m[1][:1]))
				continue
			case m[1][0] == open[0] && len(m[1]) >= len(open) && strings.TrimSpace(line) == m[1]:
				open = ""
				continue
			}
		}
		if open == "" {
			do(i, line, -1, "")
		} else {
			do(i, line, block, info)
		}
	}
}

// Links is every link target of markdown, outside code, in order.
func Links(markdown string) []Link {
	var links []Link
	outsideCode(markdown, func(i int, line string) {
		// A code span's text is no link: blanked, so that columns stay as written.
		line = codeSpan.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) })
		if m := refDefinition.FindStringSubmatch(line); m != nil {
			links = append(links, Link{i + 1, m[1]})
			return
		}
		for _, m := range inlineTarget.FindAllStringSubmatchIndex(line, -1) {
			if m[0] > 0 && line[m[0]-1] == '\\' {
				continue // an escaped "\]" followed by "(": text, not a link
			}
			links = append(links, Link{i + 1, line[m[2]:m[3]]})
		}
	})
	return links
}

// Anchors is the set of fragments that markdown's headings answer to, as GitHub makes them:
// the second heading with the same slug gets "-1", the third "-2".
func Anchors(markdown string) map[string]bool {
	seen := map[string]bool{}
	count := map[string]int{}
	outsideCode(markdown, func(_ int, line string) {
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			return
		}
		slug := Slug(m[1])
		base := slug
		for seen[slug] {
			count[base]++
			slug = fmt.Sprintf("%s-%d", base, count[base])
		}
		seen[slug] = true
	})
	return seen
}

// Slug is the anchor GitHub gives a heading's text: the text as rendered (link targets and
// markup dropped; a code span's text kept), lower-cased, with every character but letters, marks, digits, "-", "_" and
// spaces dropped, then each space made "-".
func Slug(heading string) string {
	heading = inlineTarget.ReplaceAllString(heading, "]") // [text](target): the text alone
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.No, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Check reads each file (a path relative to root) and returns the links among them that do not
// resolve: a relative path that names nothing under root, or a fragment that names no heading
// of the Markdown file it points into.
func Check(root string, files []string) ([]Problem, error) {
	anchors := map[string]map[string]bool{} // by cleaned path relative to root
	anchorsOf := func(rel string) (map[string]bool, error) {
		if a, ok := anchors[rel]; ok {
			return a, nil
		}
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return nil, fmt.Errorf("reading the headings of %s: %w", rel, err)
		}
		anchors[rel] = Anchors(string(data))
		return anchors[rel], nil
	}
	var problems []Problem
	for _, file := range files {
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			return nil, fmt.Errorf("reading the links of %s: %w", file, err)
		}
		for _, l := range Links(string(data)) {
			if scheme.MatchString(l.Target) {
				continue
			}
			problem := func(reason string) {
				problems = append(problems, Problem{File: file, Line: l.Line, Target: l.Target, Reason: reason})
			}
			path, frag, _ := strings.Cut(l.Target, "#")
			path, err := url.PathUnescape(path)
			if err != nil {
				problem("not a valid path: " + err.Error())
				continue
			}
			target := filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), filepath.FromSlash(path))))
			if path == "" {
				target = filepath.ToSlash(filepath.Clean(file))
			}
			if target == ".." || strings.HasPrefix(target, "../") || filepath.IsAbs(path) {
				problem("leads out of the repository")
				continue
			}
			info, err := os.Stat(filepath.Join(root, filepath.FromSlash(target)))
			if err != nil {
				problem("no such file or folder")
				continue
			}
			if frag == "" {
				continue
			}
			if info.IsDir() || !strings.EqualFold(filepath.Ext(target), ".md") {
				problem("a #fragment on a file that is not Markdown")
				continue
			}
			a, err := anchorsOf(target)
			if err != nil {
				return nil, err
			}
			if frag, err = url.PathUnescape(frag); err != nil || !a[frag] {
				problem("no heading of " + target + " has this anchor")
			}
		}
	}
	return problems, nil
}
