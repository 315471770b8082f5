package content

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/webload/webload/mask"
)

func TestNormalise(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"price kept", "Price: 15.65 EUR", "Price: 15.65 EUR"},
		{"clock", "generated at 22:35:19 today", "generated at #time today"},
		{"clock with fraction", "at 9:05:01.123Z", "at #time"},
		{"iso date and time", "updated 2026-12-01T22:35:19+01:00.", "updated #date."},
		{"iso date", "2026-12-01", "#date"},
		{"slash date", "on 01/12/2026 at", "on #date at"},
		{"dotted date", "am 1.12.2026", "am #date"},
		{"day month year", "Tue, 01 Dec 2026 22:35:19 GMT", "#date, #date #time GMT"},
		{"month day, year", "December 1, 2026 sale", "#date sale"},
		{"lone month", "in May we sell", "in May we sell"},
		{"timing", "served in 0.012 s", "served in #n s"},
		{"timing with unit", "took 12.3456ms", "took #nms"},
		{"unix time", "ts 1764628519", "ts #n"},
		{"short number", "42 items, 2026 edition", "42 items, 2026 edition"},
		{"hex token", `value="d41d8cd98f00b204e9800998ecf8427e"`, `value="#tok"`},
		{"base64 token", "nonce Zm9vYmFyYmF6cXV4MTIz", "nonce #tok"},
		{"slug kept", "summer-sale-2026-edition", "summer-sale-2026-edition"},
		{"slug with numbers kept", "kettle-2-blue-3-litres-x", "kettle-2-blue-3-litres-x"},
		{"base64url token", `content="e5Kq-9zX_Lm3-4Pa0Qw7rT2"`, `content="#tok"`},
		{"token starting with a dash", `content="-e5Kq9zX_Lm3-4Pa0Qw7rT2"`, `content="#tok"`},
		{"uuid", "id 550e8400-e29b-41d4-a716-446655440000.", "id #tok."},
		{"long word kept", "internationalization", "internationalization"},
		{"CamelCase kept", "JavaScriptObjectNotation HTTPServerRequestHandler", "JavaScriptObjectNotation HTTPServerRequestHandler"},
		{"base64 with one digit", "qGpvhVceNbin3d_QcWVcXtIJKxIaBaUF", "#tok"},
		{"spaces collapsed", "  a \t\r b  ", "a b"},
		{"version kept", "v1.2.3", "v1.2.3"},
		{"ip kept", "10.0.0.12", "10.0.0.12"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := string(normalise(nil, []byte(tt.in))); got != tt.want {
				t.Errorf("normalise(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestScanSegments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		body     string
		volatile string
		want     []string
	}{
		{"attributes apart", `<input type="hidden" name="csrf" value="a b">`,
			"", []string{"<input", `<input type="hidden"`, `<input name="csrf"`, `<input value="a b"`}},
		{"boolean attribute", `<!DOCTYPE html>`, "", []string{"<!DOCTYPE", "<!DOCTYPE html"}},
		{"text lines", "<p>one\n  two  </p>", "", []string{"<p>", "one", "two", "</p>"}},
		{"comments are left out", "<!-- served by app3 in 0.2 s; cache key wiki_mariadb -->x<!-- unclosed", "", []string{"x"}},
		{"self-closing", `<br/><img src="a.png" />`, "", []string{"<br/>", "<img", `<img src="a.png"`}},
		{"scripts and styles are left out", "<script src=\"/a.js\"></script><SCRIPT>RLCONF={\"wgBackendResponseTime\":145};\nif (a</b) x()</Script >" +
			"<style>p{color:red}</style>x<scripts>y</scripts><script>unclosed", "",
			[]string{"<script", `<script src="/a.js"`, "</script>", "<SCRIPT>", "</Script", "<style>", "</style>", "x", "<scripts>", "y", "</scripts>", "<script>"}},
		{"volatile pattern", "<p>order #4711 ready</p>", `#\d+`, []string{"<p>", "order #v ready", "</p>"}},
		{"json", `{"id": 7,` + "\n" + `"name": "kettle"}`, "", []string{`{"id": 7,`, `"name": "kettle"}`}},
		{"unclosed tag", `<a href="x`, "", []string{"<a", `<a href="x`}},
		{"cut short after a script's name", "<p>x</p><script", "", []string{"<p>", "x", "</p>", "<script"}},
		{"cut short after a style's name", "<STYLE", "", []string{"<STYLE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var h hiding
			if tt.volatile != "" {
				h.volatile = []*regexp.Regexp{regexp.MustCompile(tt.volatile)}
			}
			var s Scanner
			s.scan([]byte(tt.body), &h)
			var got []string
			for _, sg := range s.segs {
				got = append(got, string(s.text[sg.off:sg.end]))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("segments of %q = %q, want %q", tt.body, got, tt.want)
			}
		})
	}
}

func TestScanCutsLongLines(t *testing.T) {
	t.Parallel()
	var s Scanner
	s.scan([]byte(strings.Repeat("word ", 200)), nil)

	if len(s.segs) < 4 {
		t.Fatalf("a 1000-byte line gave %d segments, want it cut at %d bytes", len(s.segs), MaxSegment)
	}
	for _, sg := range s.segs {
		if sg.end-sg.off > MaxSegment {
			t.Errorf("segment of %d bytes, longer than %d", sg.end-sg.off, MaxSegment)
		}
	}
}

func TestLearnerLearnsWhatVaries(t *testing.T) {
	t.Parallel()
	p := run(1, 5, nil)
	if p.Samples != 5 {
		t.Fatalf("samples = %d, want 5", p.Samples)
	}
	var volatile []string
	stable := map[string]bool{}
	prev := ""
	for _, s := range p.Segments() {
		if s.Volatile() {
			volatile = append(volatile, "after "+prev)
		} else {
			stable[s.Text] = true
			prev = s.Text
		}
	}
	// The token, clock and timing are normalised; the ad slot is learned.
	for _, want := range []string{"Price: 15.65 EUR", `<input value="#tok"`, `<meta content="#tok"`, "<title>", "Blue kettle - Shop",
		"Page generated at #time, served in #n s"} {
		if !stable[want] {
			t.Errorf("segment %q not stable", want)
		}
	}
	if want := []string{`after <div class="ad"`}; !reflect.DeepEqual(volatile, want) {
		t.Errorf("volatile segments %q, want %q", volatile, want)
	}
	if tc := p.Types; len(tc) != 1 || tc[0] != (TypeCount{"text/html", 5}) {
		t.Errorf("types = %v, want 5 text/html", tc)
	}
}

func TestLearnerSamples(t *testing.T) {
	t.Parallel()
	l := NewLearner(Options{})
	var s Scanner
	var chosen int
	for i := range 1000 {
		status := 200
		if i%10 == 9 {
			status = 404
		}
		if l.Sample(status, []byte("text/html")) {
			chosen++
			l.Observe(&s, []byte("<p>same</p>"))
		}
	}
	// 900 answers of 2xx: the first 8, then 0, 64, 128... of them (15 in all, 0 counted once).
	if want := FirstSamples + 900/SampleEvery; chosen != want {
		t.Errorf("fingerprinted %d answers, want %d", chosen, want)
	}
	p := l.Profile()
	if p.Samples != int64(chosen) {
		t.Errorf("samples = %d, want %d", p.Samples, chosen)
	}
	if p.Types[0].Count != 1000 {
		t.Errorf("types = %v, want every answer counted", p.Types)
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	many := run(1, 20, nil)
	price := func(a *answer) { a.price = "18.65" }
	tests := []struct {
		name          string
		before, after Profile
		changed       bool
		excerpt       [2]string
	}{
		{"same stack, many answers", many, run(2, 20, nil), false, [2]string{}},
		{"same stack, once after", many, run(3, 1, nil), false, [2]string{}},
		{"same stack, once before", run(4, 1, nil), many, false, [2]string{}},
		{"price changed", many, run(5, 20, price), true, [2]string{"Price: 15.65 EUR", "Price: 18.65 EUR"}},
		{"price changed, once after", many, run(6, 1, price), true, [2]string{"Price: 15.65 EUR", "Price: 18.65 EUR"}},
		{"database error page", many, learn(errorPage(), errorPage()), true,
			[2]string{"Blue kettle - Shop", "Database error"}},
		{"no answer after", many, Profile{}, false, [2]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := Compare(&tt.before, &tt.after)
			if c.Changed != tt.changed {
				t.Fatalf("Compare = %+v, want changed %v", c, tt.changed)
			}
			if got := [2]string{c.Before, c.After}; got != tt.excerpt {
				t.Errorf("excerpt %q → %q, want %q → %q", c.Before, c.After, tt.excerpt[0], tt.excerpt[1])
			}
			if !tt.changed && c.Share != 0 || tt.changed && (c.Share <= 0 || c.Share > 1) {
				t.Errorf("share = %g", c.Share)
			}
		})
	}
}

func TestCompareShareOrdersChanges(t *testing.T) {
	t.Parallel()
	many := run(1, 20, nil)
	price := Compare(&many, new(run(2, 20, func(a *answer) { a.price = "18.65" })))
	broken := learn(errorPage(), errorPage())
	whole := Compare(&many, &broken)
	if !(price.Share < whole.Share) || whole.Share < 0.9 {
		t.Errorf("share of a price change %g, of an error page %g: want the error page near 1 and above", price.Share, whole.Share)
	}
}

func TestCompareNil(t *testing.T) {
	t.Parallel()
	p := run(1, 3, nil)
	if c := Compare(nil, &p); c != (Change{}) {
		t.Errorf("Compare(nil, p) = %+v, want nothing", c)
	}
}

func TestMerge(t *testing.T) {
	t.Parallel()
	a, b := run(1, 10, nil), run(2, 1, nil)
	ab, ba := Merge(a, b), Merge(b, a)
	if !reflect.DeepEqual(ab, ba) {
		t.Fatal("Merge(a, b) differs from Merge(b, a)")
	}
	// 10 answers of which FirstSamples were fingerprinted, and 1.
	if ab.Samples != FirstSamples+1 || ab.Types[0].Count != 11 {
		t.Errorf("merged samples %d, types %v; want %d and 11", ab.Samples, ab.Types, FirstSamples+1)
	}
	// Stable after the merge: stable on both sides.
	for _, s := range ab.Segments() {
		if !s.Volatile() && (!stableIn(a, s.Text) || !stableIn(b, s.Text)) {
			t.Errorf("segment %q stable in the merge but not on both sides", s.Text)
		}
	}
	if countVolatile(ab) != countVolatile(a) {
		t.Errorf("merge has %d volatile segments, want the %d the learned side has", countVolatile(ab), countVolatile(a))
	}
	if got := Merge(a, Profile{}); !reflect.DeepEqual(got, a) {
		t.Error("merging with an empty profile changed it")
	}
}

func TestMergeTypes(t *testing.T) {
	t.Parallel()
	a := Profile{Types: []TypeCount{{"text/html", 5}, {"a/1", 1}, {"a/2", 1}, {"a/3", 1}}}
	b := Profile{Types: []TypeCount{{"text/html", 2}, {"a/4", 3}, {OtherType, 2}}}
	want := []TypeCount{{"text/html", 7}, {"a/4", 3}, {"a/1", 1}, {"a/2", 1}, {OtherType, 3}}
	if got := Merge(a, b).Types; !reflect.DeepEqual(got, want) {
		t.Errorf("types = %v, want %v", got, want)
	}
}

func stableIn(p Profile, text string) bool {
	for _, s := range p.Segments() {
		if s.Text == text {
			return true
		}
	}
	return false
}

func countVolatile(p Profile) int {
	n := 0
	for _, s := range p.Segments() {
		if s.Volatile() {
			n++
		}
	}
	return n
}

func TestSavedRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		p    Profile
	}{
		{"learned", run(1, 10, nil)},
		{"once", run(2, 1, nil)},
		{"nothing", Profile{}},
		{"types only", Profile{Types: []TypeCount{{"text/html", 3}}}},
		{"empty bodies", learn([]byte{}, []byte{})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			var got Profile
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("loading %s: %v", b, err)
			}
			if !reflect.DeepEqual(got, tt.p) {
				t.Errorf("load(save(p)) differs from p; saved as %s", b)
			}
		})
	}
}

func TestSavedRefusesBadInput(t *testing.T) {
	t.Parallel()
	good, _ := json.Marshal(run(1, 3, nil))
	var s saved
	_ = json.Unmarshal(good, &s)
	tests := []struct{ name, json, want string }{
		{"wrong id", strings.Replace(string(good), s.ID, "0000000000000000", 1), "does not match"},
		{"negative samples", `{"samples": -1}`, "want from 0"},
		{"more odd than samples", `{"samples": 1, "odd": 2}`, "want from 0"},
		{"not base64", `{"samples": 1, "segments": "!!"}`, "content segments"},
		{"not s2", `{"samples": 1, "segments": "/////w=="}`, "content segments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var p Profile
			err := json.Unmarshal([]byte(tt.json), &p)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestLearnerKeepsItsBound(t *testing.T) {
	t.Parallel()
	page := productPage(answer{token: "x", price: "1.00"}, 200<<10)
	tests := []struct {
		name string
		urls int
		keep int
	}{
		{"short list", 50, MaxKeep},
		{"long list", 100_000, keepBudget / 100_000},
		{"huge list", 10_000_000, minKeep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := KeepFor(tt.urls); got != tt.keep {
				t.Fatalf("KeepFor(%d) = %d, want %d", tt.urls, got, tt.keep)
			}
			l := NewLearner(Options{Keep: tt.keep})
			var s Scanner
			l.Sample(200, nil)
			l.Observe(&s, page)
			p := l.Profile()
			kept, text := 0, 0
			for _, sg := range p.Segments() {
				kept += len(sg.Text) + segmentCost
				text += len(sg.Text)
			}
			full := len(p.Segments()) == MaxSegments || text > MaxText-MaxSegment
			if kept > tt.keep || kept < tt.keep-MaxSegment-segmentCost && !full {
				t.Errorf("kept %d bytes in %d segments, want up to %d and near it", kept, len(p.Segments()), tt.keep)
			}
		})
	}
}

func TestSecretsAreNotKept(t *testing.T) {
	t.Parallel()
	echo := `{"headers": {"Authorization": "Basic dXNlcjpzM2NyZXQ=", "X-Api-Key": "k3y-Value"}, "pw": "s3cret"}`
	var secrets mask.Set
	for _, v := range []string{"Basic dXNlcjpzM2NyZXQ=", "dXNlcjpzM2NyZXQ=", "k3y-Value", "s3cret", "ab"} {
		secrets.Add(v)
	}
	l := NewLearner(Options{Secrets: &secrets})
	var s Scanner
	l.Sample(200, nil)
	l.Observe(&s, []byte(echo))
	p := l.Profile()
	saved, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, sg := range p.Segments() {
		all = append(all, sg.Text)
	}
	text := strings.Join(all, " ")
	for _, secret := range []string{"dXNlcjpzM2NyZXQ", "k3y-Value", "s3cret"} {
		if strings.Contains(text, secret) || strings.Contains(string(saved), secret) {
			t.Errorf("secret %q kept: %s", secret, text)
		}
	}
	if !strings.Contains(text, `"Authorization": "#secret"`) {
		t.Errorf("fingerprint text %q, want the secret replaced", text)
	}
}

func TestTypesCounted(t *testing.T) {
	t.Parallel()
	l := NewLearner(Options{})
	for _, ct := range []string{"text/html; charset=utf-8", "TEXT/HTML", "", "application/json", "image/png", "a/b", "c/d", " text/html "} {
		l.Sample(200, []byte(ct))
	}
	want := []TypeCount{{"text/html", 3}, {"application/json", 1}, {"image/png", 1}, {NoType, 1}, {OtherType, 2}}
	if got := l.Profile().Types; !reflect.DeepEqual(got, want) {
		t.Errorf("types = %v, want %v", got, want)
	}
}

func TestLearnerSetsOddAnswersApart(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 1))
	page := func() []byte { return productPage(randomAnswer(rng), 4<<10) }
	tests := []struct {
		name    string
		bodies  [][]byte
		odd     int64
		samples int64
	}{
		{"one error among pages", [][]byte{page(), page(), errorPage(), page(), page()}, 1, 5},
		{"error first", [][]byte{errorPage(), page(), page(), page(), page(), page()}, 1, 6},
		{"two errors first", [][]byte{errorPage(), errorPage(), page(), page(), page(), page(), page()}, 2, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := learn(tt.bodies...)
			if p.Samples != tt.samples || p.Odd != tt.odd {
				t.Errorf("samples %d, odd %d; want %d and %d", p.Samples, p.Odd, tt.samples, tt.odd)
			}
			if !strings.HasPrefix(p.OddExcerpt, "Database error A database query error has occurred") {
				t.Errorf("odd excerpt %q, want the error page's text", p.OddExcerpt)
			}
			if !stableIn(p, "Price: 15.65 EUR") || countVolatile(p) > 2 {
				t.Errorf("%d volatile segments, price stable %v: want the page learned", countVolatile(p), stableIn(p, "Price: 15.65 EUR"))
			}
			// The pages' own learning holds: compared with a run of pages only, no change.
			clean := run(9, 8, nil)
			if c := Compare(&clean, &p); c.Changed && c.Share < 0.1 {
				t.Errorf("stable content changed: %q → %q", c.Before, c.After)
			}
		})
	}
}

func TestCompareOddAnswers(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(8, 1))
	page := func() []byte { return productPage(randomAnswer(rng), 4<<10) }
	clean := run(1, 8, nil)
	sometimes := learn(page(), page(), page(), errorPage(), page(), page(), page(), errorPage())
	c := Compare(&clean, &sometimes)
	if !c.Changed || c.Before != "" || !strings.HasPrefix(c.After, "Database error") || c.Share != 0.25 {
		t.Errorf("Compare = %+v, want a change to the error page in 25 %% of the answers", c)
	}
	if c := Compare(&sometimes, &sometimes); c.Changed {
		t.Errorf("a run compared with itself changed: %+v", c)
	}
}

// Two stacks under test at different addresses serve pages that link to themselves by their own
// address, as MediaWiki's canonical links and $wgServer do: with the run's hosts given, their
// pages compare alike, and a real change is still found.
func TestStacksAtOtherAddressesCompareAlike(t *testing.T) {
	t.Parallel()
	page := func(host, price string, rng *rand.Rand) []byte {
		a := randomAnswer(rng)
		a.price = price
		return []byte(strings.Replace(string(productPage(a, 4<<10)), "<body>",
			`<body><link rel="canonical" href="http://`+host+`/wiki/Kettle"><a href="//`+host+`/wiki/Main_Page">Main page</a>`, 1))
	}
	learn := func(host, price string, hosts []string) *Profile {
		l := NewLearner(Options{Hosts: hosts})
		var s Scanner
		rng := rand.New(rand.NewPCG(uint64(len(host)), 7))
		for range 4 {
			l.Sample(200, []byte("text/html"))
			l.Observe(&s, page(host, price, rng))
		}
		p := l.Profile()
		return &p
	}
	for _, tc := range []struct {
		name          string
		hosts         func(host string) []string
		price         string
		want          bool
		before, after string
	}{
		{"hosts given", func(h string) []string { return []string{h, "ab"} }, "15.65", false, "", ""},
		{"hosts given, price changed", func(h string) []string { return []string{h} }, "18.65", true, "15.65", "18.65"},
		{"no hosts", func(string) []string { return nil }, "15.65", true, "8101", "8102"},
	} {
		old := learn("127.0.0.1:8101", "15.65", tc.hosts("127.0.0.1:8101"))
		cand := learn("127.0.0.1:8102", tc.price, tc.hosts("127.0.0.1:8102"))
		c := Compare(old, cand)
		if c.Changed != tc.want || !strings.Contains(c.Before, tc.before) || !strings.Contains(c.After, tc.after) {
			t.Errorf("%s: %+v, want changed %v between %q and %q", tc.name, c, tc.want, tc.before, tc.after)
		}
	}
}
