package content

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// distinctPage is page n of a site whose pages share no text, about size bytes, with a line of
// text, server, that two answers of the same page may differ in.
func distinctPage(n, size int, server string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<html><head><title>Page %d</title></head><body>\n<p>Served by %s</p>\n", n, server)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "<div class=\"item-%d\"><a href=\"/p/%d\">item %d of page %d</a></div>\n<p>Text %d of page %d.</p>\n", i%7, n*1000+i, i, n, i, n)
	}
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}

// The learners of a run keep at most their budget in all, counted as allocated, however many
// distinct pages they meet; past it a URL is not fingerprinted, and so says nothing when
// compared. What a learner keeps is counted whole: every segment's hash and end besides its
// text, each slice rounded up as the allocator gives it.
func TestLearnersKeepWithinTheirBudget(t *testing.T) {
	t.Parallel()
	const budget, pages = 1 << 20, 200
	g := NewLearners(Options{Keep: 16 << 10, Budget: budget})
	var s Scanner
	var learned []*Learner
	for n := range pages {
		l := g.New()
		for _, token := range []string{"kettle", "teapot"} {
			if l.Sample(200, []byte("text/html")) {
				l.Observe(&s, distinctPage(n, 30<<10, token))
			}
			if g.Kept() > budget {
				t.Fatalf("after page %d the learners keep %d bytes, more than their budget of %d", n, g.Kept(), budget)
			}
		}
		learned = append(learned, l)
	}
	held, fingerprinted := 0, 0
	for _, l := range learned {
		p := l.Profile()
		for _, sg := range p.Segments() {
			held += len(sg.Text) + segmentCost
		}
		if p.Samples > 0 {
			fingerprinted++
			if countVolatile(p) != 1 {
				t.Errorf("a page whose server line varied has %d volatile segments, want 1", countVolatile(p))
			}
		}
	}
	if int64(held) > g.Kept() {
		t.Errorf("the learners hold %d bytes of segments but count %d", held, g.Kept())
	}
	if g.Kept() < budget-2*(16<<10) {
		t.Errorf("the learners keep %d bytes of a budget of %d: it should be nearly used", g.Kept(), budget)
	}
	// 16 KiB each fit about 50 times in 1 MiB; the rest find no room.
	if fingerprinted == 0 || fingerprinted == pages {
		t.Fatalf("%d of %d pages fingerprinted, want the budget to run out part way", fingerprinted, pages)
	}
	first, last := learned[0].Profile(), learned[pages-1].Profile()
	if last.Samples != 0 || len(last.Segments()) != 0 || last.Types[0] != (TypeCount{"text/html", 2}) {
		t.Errorf("a page past the budget: %d samples, %d segments, types %v; want none fingerprinted, its types counted",
			last.Samples, len(last.Segments()), last.Types)
	}
	if c := Compare(&first, &last); c.Changed {
		t.Errorf("a page not fingerprinted compared as a change: %+v", c)
	}
}

// A profile shares its learner's segments, which are never changed once made: taking the
// profiles of a long list at the end of a run copied as much as the learners held.
func TestProfileSharesTheLearnersSegments(t *testing.T) {
	l := NewLearner(Options{})
	var s Scanner
	for _, token := range []string{"kettle", "teapot"} {
		l.Sample(200, []byte("text/html"))
		l.Observe(&s, distinctPage(1, 30<<10, token))
	}
	const n = 200
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		p := l.Profile()
		runtime.KeepAlive(p)
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 1024 {
		t.Errorf("taking the profile of a learner of a 30 KB page allocated %d bytes, want at most 1 KiB (its types)", per)
	}
	// And a learner that learns more after a profile was taken leaves that profile as it was.
	p := l.Profile()
	text := p.Segments()
	l.Sample(200, []byte("text/html"))
	l.Observe(&s, distinctPage(2, 30<<10, "kettle"))
	if countVolatile(l.Profile()) <= countVolatile(p) {
		t.Fatal("another page should have made more segments volatile")
	}
	for i, sg := range p.Segments() {
		if sg != text[i] {
			t.Fatalf("segment %d of a profile taken earlier changed from %q to %q", i, text[i].Text, sg.Text)
		}
	}
}
