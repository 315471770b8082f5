package content

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchPage is a 31 KiB page as the benchmark site's /p/N pages are (a title, then paragraphs
// of text), with a token, a timestamp and an ad slot that change per answer.
func benchPage(a answer) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta name=\"csrf-token\" content=\"%s\"><title>Page 17</title></head>\n<body><h1>Page 17</h1>\n<div data-slot=\"ad-%d\"></div>\n", a.token, a.ad)
	for b.Len() < 31<<10-100 {
		b.WriteString("<p>Page 17: lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.</p>\n")
	}
	fmt.Fprintf(&b, "<footer>%s</footer>\n</body></html>\n", a.clock)
	return []byte(b.String())
}

// BenchmarkObserve fingerprints a 31 KiB page that differs from the first sample, the full
// cost of a sampled answer.
func BenchmarkObserve(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	pages := make([][]byte, 16)
	for i := range pages {
		pages[i] = benchPage(randomAnswer(rng))
	}
	l := NewLearner(Options{})
	var s Scanner
	l.Observe(&s, pages[0])
	b.SetBytes(int64(len(pages[0])))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		l.Observe(&s, pages[1+i%15])
	}
}

// BenchmarkObserveSame fingerprints the first sample's very body again: a hash, no cutting.
func BenchmarkObserveSame(b *testing.B) {
	page := benchPage(answer{token: "x", clock: "00:00:00"})
	l := NewLearner(Options{})
	var s Scanner
	l.Observe(&s, page)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		l.Observe(&s, page)
	}
}

// BenchmarkSample is the cost every answer pays: counting it under the URL's lock, from many
// goroutines at once.
func BenchmarkSample(b *testing.B) {
	l := NewLearner(Options{})
	ct := []byte("text/html; charset=utf-8")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Sample(200, ct)
		}
	})
}

// BenchmarkCompare compares two learned 31 KiB pages whose price differs.
func BenchmarkCompare(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	learnPages := func(price string) Profile {
		l := NewLearner(Options{})
		var s Scanner
		for range 8 {
			a := randomAnswer(rng)
			a.price = price
			page := benchPage(a)
			page = append([]byte("<p>Price: "+price+" EUR</p>\n"), page...)
			if l.Sample(200, nil) {
				l.Observe(&s, page)
			}
		}
		return l.Profile()
	}
	before, after := learnPages("15.65"), learnPages("18.65")
	b.ReportAllocs()
	for b.Loop() {
		if !Compare(&before, &after).Changed {
			b.Fatal("no change found")
		}
	}
}

// BenchmarkSave saves the profile of a learned 31 KiB page.
func BenchmarkSave(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	l := NewLearner(Options{})
	var s Scanner
	for range 4 {
		l.Sample(200, nil)
		l.Observe(&s, benchPage(randomAnswer(rng)))
	}
	p := l.Profile()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

// An answer without a Content-Type costs no allocation either.
func TestSampleAllocations(t *testing.T) {
	l := NewLearner(Options{})
	for _, ct := range [][]byte{nil, []byte("text/html; charset=utf-8")} {
		l.Sample(200, ct)
		if n := testing.AllocsPerRun(100, func() { l.Sample(200, ct) }); n != 0 {
			t.Errorf("Sample(%q) allocates %.0f times", ct, n)
		}
	}
}
