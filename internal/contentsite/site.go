// Package contentsite is a small shop on loopback whose pages change with every response the
// way real pages do (a CSRF token in a form and a meta tag, the time to the second, "served in
// 0.012 s", a random ad slot, a request counter in a comment), for the tests of content
// fingerprints: two runs of it must show no content change. Each page links to itself by the
// address the site is really served on, as MediaWiki's "Retrieved from" line names the
// configured server, so two stacks reached by one production name still print their own
// addresses. Its Broken variant answers as a
// failed migration does: two pages serve a database error page with status 200, one page is
// gone (404) and one product's price went up.
package contentsite

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Variant is which stack the site plays.
type Variant int

// The variants.
const (
	Baseline Variant = iota // every page as it should be
	Broken                  // BrokenPaths answer the database error page, GonePath 404 and PricePath a new price
)

// The paths of the site, and those the Broken variant breaks.
var (
	Paths = []string{"/", "/product/1", "/product/2", "/product/3", "/product/4", "/product/5",
		"/category/kettles", "/category/mugs", "/about", "/contact"}
	BrokenPaths = []string{"/product/2", "/product/5"}
)

// The pages the Broken variant changes besides BrokenPaths.
const (
	GonePath  = "/about"
	PricePath = "/product/3"
)

// Site is a running content site on 127.0.0.1.
type Site struct {
	variant  Variant
	base     string
	srv      *http.Server
	done     chan struct{}
	requests atomic.Int64
}

// Start serves the variant on a free port of 127.0.0.1.
func Start(v Variant) (*Site, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the content site: %w", err)
	}
	s := &Site{variant: v, base: "http://" + ln.Addr().String(), done: make(chan struct{})}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // ends with ErrServerClosed at Close
	}()
	return s, nil
}

// URLs lists the site's pages, absolute.
func (s *Site) URLs() []string {
	out := make([]string, len(Paths))
	for i, p := range Paths {
		out[i] = s.base + p
	}
	return out
}

// Requests counts the requests served so far.
func (s *Site) Requests() int64 { return s.requests.Load() }

// Close stops the site and waits for its server to end.
func (s *Site) Close() error {
	err := s.srv.Close()
	<-s.done
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// ServeHTTP implements http.Handler.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.requests.Add(1)
	i := indexOf(r.URL.Path)
	if i < 0 || s.variant == Broken && r.URL.Path == GonePath {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if s.variant == Broken && indexIn(BrokenPaths, r.URL.Path) >= 0 {
		fmt.Fprint(w, errorPage)
		return
	}
	price := prices[i]
	if s.variant == Broken && r.URL.Path == PricePath {
		price = "18.65"
	}
	fmt.Fprint(w, page(s.base, i, price, n, time.Now()))
}

// prices are the products' prices by page; PricePath's is 15.65.
var prices = []string{"9.99", "24.90", "12.50", "15.65", "31.00", "7.25", "19.99", "4.50", "0.00", "0.00"}

// errorPage is what MediaWiki and many PHP stacks answer when their database fails, with 200.
const errorPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Database error</title></head>
<body><h1>A database query error has occurred</h1>
<p>This may indicate a bug in the software.</p>
</body></html>
`

// page renders page i of the site served at base for request n at now, with what varies per
// response.
func page(base string, i int, price string, n int64, now time.Time) string {
	token := randomToken()
	path := Paths[i]
	title := "Home"
	if words := strings.Fields(strings.ReplaceAll(path, "/", " ")); len(words) > 0 {
		words[0] = strings.ToUpper(words[0][:1]) + words[0][1:]
		title = strings.Join(words, " ")
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="csrf-token" content="%s">
<title>%s - Kettle Shop</title>
<link rel="stylesheet" href="/static/shop.css">
</head>
<body>
<header><nav><a href="/">Home</a> <a href="/category/kettles">Kettles</a> <a href="/category/mugs">Mugs</a></nav></header>
<!-- request %d -->
<h1>%s</h1>
<p class="price">Price: %s EUR</p>
<form method="post" action="/cart"><input type="hidden" name="csrf" value="%s"><button>Add to cart</button></form>
<div class="ad" data-slot="ad-%d">Advertisement</div>
`, token, title, n, title, price, token, rand.IntN(100000))
	for p := range 20 + 3*i {
		fmt.Fprintf(&b, "<p>%s, part %d: this kettle boils a litre of water in three minutes; its handle stays cool and its lid opens wide.</p>\n", title, p)
	}
	fmt.Fprintf(&b, `<p class="printfooter">Retrieved from "<a dir="ltr" href="%s%s">%s%s</a>"</p>
<footer>Generated %s, served in 0.0%02d s</footer>
</body></html>
`, base, path, base, path, now.Format("2006-01-02 15:04:05"), rand.IntN(100))
	return b.String()
}

// randomToken is a per-response CSRF token, 32 characters of base64url. Every eighth one is a
// digit between two letters, so that each token switches between letters and digits as a
// random one almost always does: drawn freely, about 1 token in 30 holds one digit or none,
// and a fingerprint made of one answer cannot tell such a token from a word.
func randomToken() string {
	const (
		letters  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		digits   = "0123456789"
		alphabet = letters + digits + "-_"
	)
	b := make([]byte, 32)
	for i := range b {
		switch i % 8 {
		case 2, 4:
			b[i] = letters[rand.IntN(len(letters))]
		case 3:
			b[i] = digits[rand.IntN(len(digits))]
		default:
			b[i] = alphabet[rand.IntN(len(alphabet))]
		}
	}
	return string(b)
}

func indexOf(path string) int { return indexIn(Paths, path) }

func indexIn(list []string, path string) int {
	for i, p := range list {
		if p == path {
			return i
		}
	}
	return -1
}
