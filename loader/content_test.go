package loader

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webload/webload/content"
	"github.com/webload/webload/internal/contentsite"
	"github.com/webload/webload/urls"
)

// siteRun runs cfg over the content site's pages and returns what each answered.
func siteRun(t *testing.T, v contentsite.Variant, cfg Config) []content.Profile {
	t.Helper()
	site, err := contentsite.Start(v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	var targets []urls.Target
	for _, u := range site.URLs() {
		tg, err := urls.ParseLine(u, urls.Options{})
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, tg)
	}
	_, out := run(t, cfg, targets)
	if len(out.Content) != len(targets) {
		t.Fatalf("%d profiles for %d URLs", len(out.Content), len(targets))
	}
	profiles := make([]content.Profile, len(out.Content))
	for i, p := range out.Content {
		if p != nil {
			profiles[i] = *p
		}
	}
	return profiles
}

// contentRuns are the ways of running the site the tests compare.
func contentRuns() map[string]Config {
	browser := DefaultConfig()
	browser.Users, browser.Reps = 4, 20
	open := Config{Rate: 2000, MaxUsers: 4, Reps: 60}
	return map[string]Config{
		"c4 r20":         {Users: 4, Reps: 20},
		"once":           {Users: 1, Once: true},
		"browser c4 r20": browser,
		"open 60":        open,
	}
}

func TestContentOfOneStackDoesNotChange(t *testing.T) {
	t.Parallel()
	runs := contentRuns()
	profiles := map[string][]content.Profile{}
	for name, cfg := range runs {
		profiles[name] = siteRun(t, contentsite.Baseline, cfg)
	}
	base := profiles["c4 r20"]
	for name, got := range profiles {
		for i, p := range got {
			if p.Samples == 0 {
				t.Errorf("%s: %s has no fingerprinted answer", name, contentsite.Paths[i])
			}
		}
		for _, pair := range [][2][]content.Profile{{base, got}, {got, base}} {
			for i := range pair[0] {
				if c := content.Compare(&pair[0][i], &pair[1][i]); c.Changed {
					t.Errorf("c4 r20 and %s: %s changed: %q → %q", name, contentsite.Paths[i], c.Before, c.After)
				}
			}
		}
	}
}

func TestContentOfABrokenStack(t *testing.T) {
	t.Parallel()
	before := siteRun(t, contentsite.Baseline, Config{Users: 4, Reps: 20})
	for _, name := range []string{"c4 r20", "once"} {
		after := siteRun(t, contentsite.Broken, contentRuns()[name])
		var changed []string
		for i := range before {
			c := content.Compare(&before[i], &after[i])
			if !c.Changed {
				continue
			}
			path := contentsite.Paths[i]
			changed = append(changed, path)
			want := [2]string{"Product 2 - Kettle Shop", "Database error"}
			if path == "/product/5" {
				want[0] = "Product 5 - Kettle Shop"
			}
			if path == contentsite.PricePath {
				want = [2]string{"Price: 15.65 EUR", "Price: 18.65 EUR"}
			}
			if got := [2]string{c.Before, c.After}; got != want {
				t.Errorf("%s: %s excerpt %q → %q, want %q → %q", name, path, c.Before, c.After, want[0], want[1])
			}
		}
		want := append(slices.Clone(contentsite.BrokenPaths), contentsite.PricePath)
		slices.Sort(want)
		slices.Sort(changed)
		if !slices.Equal(changed, want) {
			t.Errorf("%s: changed %q, want %q", name, changed, want)
		}
		gone := after[slices.Index(contentsite.Paths, contentsite.GonePath)]
		if gone.Samples != 0 || len(gone.Types) != 1 || gone.Types[0].Type != "text/plain" {
			t.Errorf("%s: the 404 page's profile %+v, want no sample and its text/plain answers counted", name, gone)
		}
	}
}

func TestContentVolatileSetting(t *testing.T) {
	t.Parallel()
	_, err := New(Config{Users: 1, Reps: 1, Timeout: 1, Volatile: []string{"a(b"}}, []urls.Target{{Method: "GET", URL: "http://127.0.0.1:1/"}})
	if !errors.Is(err, ErrBadVolatile) || err.Error() != "Volatile: error parsing regexp: missing closing ): `a(b`" {
		t.Errorf("error %v, want ErrBadVolatile naming the setting", err)
	}
}

// Answers to a listed URL are fingerprinted; once the learner has its first sample, that adds
// no allocation to the request path, sampled requests included (one in SampleEvery of the 200).
func TestSendAllocationsWhileLearning(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	l := benchLoader(t)
	x := l.newExchange()
	for range 2 * content.FirstSamples {
		l.send(x, 0, 0) // warm the pools, the connection and the learner
	}
	allocs := testing.AllocsPerRun(200, func() { l.send(x, 0, 0) })
	const pinned = 4 // as TestSendAllocations
	if allocs > pinned {
		t.Errorf("%.1f allocations per request, pinned at %d", allocs, pinned)
	}
	p := l.content.profiles()[0]
	if len(p.Segments()) == 0 {
		t.Error("the answers' bodies were not fingerprinted")
	}
	if p.Samples < content.FirstSamples+200/content.SampleEvery {
		t.Errorf("%d answers fingerprinted, want the first %d and one in %d after", p.Samples, content.FirstSamples, content.SampleEvery)
	}
}

// A page that echoes the request's credentials keeps none of them in its fingerprint.
func TestContentKeepsNoSecrets(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "Authorization: %s\nX-Api-Key: %s\n", r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"))
	})
	u, _ := url.Parse(srv.URL)
	u.User = url.UserPassword("alice", "pa55word")
	tg, err := urls.ParseLine(u.String()+"/echo", urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, out := run(t, Config{Users: 1, Reps: 2, Headers: []Header{{Name: "X-Api-Key", Value: "Bearer k3y-s3cret"}}}, []urls.Target{tg})
	p := out.Content[0]
	saved, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, s := range p.Segments() {
		text = append(text, s.Text)
	}
	if want := []string{"Authorization: Basic #secret", "X-Api-Key: #secret"}; !slices.Equal(text, want) {
		t.Errorf("fingerprint %q, want %q", text, want)
	}
	for _, secret := range []string{"pa55word", "YWxpY2U6cGE1NXdvcmQ", "k3y-s3cret"} {
		if strings.Contains(string(saved), secret) {
			t.Errorf("saved profile has %q", secret)
		}
	}
}

// A compressed answer is fingerprinted on its decoded text.
func TestContentOfACompressedAnswer(t *testing.T) {
	t.Parallel()
	srv := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		z := gzip.NewWriter(w)
		fmt.Fprint(z, "<p>Price: 15.65 EUR</p>\n")
		_ = z.Close()
	})
	tg, err := urls.ParseLine(srv.URL+"/gz", urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, out := run(t, Config{Users: 1, Reps: 2, AcceptEncoding: "gzip"}, []urls.Target{tg})
	var text []string
	for _, s := range out.Content[0].Segments() {
		text = append(text, s.Text)
	}
	if want := []string{"<p>", "Price: 15.65 EUR", "</p>"}; !slices.Equal(text, want) || out.Content[0].Samples != 2 {
		t.Errorf("fingerprint %q of %d samples, want %q of 2", text, out.Content[0].Samples, want)
	}
}

// A page that serves a database error page now and then, with status 200: the answers that
// are the error page are counted apart, and the page's own content is still learned.
func TestContentOfAPageThatFailsNowAndThen(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	srv := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%4 == 0 {
			fmt.Fprint(w, "<html><head><title>Database error</title></head><body><h1>A database query error has occurred</h1></body></html>\n")
			return
		}
		fmt.Fprintf(w, "<html><head><title>Kettle</title></head><body>\n<p>Served at request %d</p>\n", n.Load())
		for i := range 20 {
			fmt.Fprintf(w, "<p>Paragraph %d of the kettle's description, which stays the same.</p>\n", i)
		}
		fmt.Fprint(w, "</body></html>\n")
	})
	tg, err := urls.ParseLine(srv.URL+"/kettle", urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, out := run(t, Config{Users: 1, Reps: 8}, []urls.Target{tg})
	p := out.Content[0]
	if p.Samples != 8 || p.Odd != 2 || !strings.HasPrefix(p.OddExcerpt, "Database error A database query error") {
		t.Fatalf("%d samples, %d odd (%q); want 8 and 2 of the error page", p.Samples, p.Odd, p.OddExcerpt)
	}
	var stable, volatile int
	for _, s := range p.Segments() {
		if s.Volatile() {
			volatile++
		} else {
			stable++
		}
	}
	if volatile != 1 || stable < 60 {
		t.Errorf("%d stable and %d volatile segments, want all but the request number stable", stable, volatile)
	}
}
