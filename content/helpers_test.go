package content

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// answer is one response's variable parts.
type answer struct {
	token  string // per-response CSRF token
	served string // "served in" time
	ad     int    // random ad slot
	clock  string // time of the response
	price  string
}

// randomAnswer draws the parts that vary from response to response.
func randomAnswer(rng *rand.Rand) answer {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	tok := make([]byte, 32)
	for i := range tok {
		tok[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return answer{
		token:  string(tok),
		served: fmt.Sprintf("0.0%02d", rng.IntN(100)),
		ad:     rng.IntN(10000),
		clock:  fmt.Sprintf("%02d:%02d:%02d", rng.IntN(24), rng.IntN(60), rng.IntN(60)),
		price:  "15.65",
	}
}

// productPage is a shop page of about size bytes with a's variable parts in it.
func productPage(a answer, size int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="csrf-token" content="%s">
<title>Blue kettle - Shop</title><link rel="stylesheet" href="/static/shop.css"></head>
<body><header><nav><a href="/">Home</a> <a href="/cart">Cart</a></nav></header>
<h1>Blue kettle</h1>
<p class="price">Price: %s EUR</p>
<form method="post" action="/cart"><input type="hidden" name="csrf" value="%s"><button>Add to cart</button></form>
<div class="ad" data-slot="ad-%d">Advertisement</div>
`, a.token, a.price, a.token, a.ad)
	for i := 0; b.Len() < size-200; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d: the kettle boils a litre of water in three minutes, and its handle stays cool.</p>\n", i)
	}
	fmt.Fprintf(&b, "<footer>Page generated at %s, served in %s s</footer>\n</body></html>\n", a.clock, a.served)
	return []byte(b.String())
}

// errorPage is what a broken stack answers with a 200.
func errorPage() []byte {
	return []byte(`<!DOCTYPE html>
<html><head><title>Database error</title></head>
<body><h1>A database query error has occurred</h1>
<p>This may indicate a bug in the software.</p></body></html>
`)
}

// learn fingerprints bodies as one URL's answers in a run.
func learn(bodies ...[]byte) Profile {
	l := NewLearner(Options{})
	var s Scanner
	for _, b := range bodies {
		if l.Sample(200, []byte("text/html; charset=utf-8")) {
			l.Observe(&s, b)
		}
	}
	return l.Profile()
}

// run fingerprints n random answers of the product page, changed by edit.
func run(seed uint64, n int, edit func(*answer)) Profile {
	rng := rand.New(rand.NewPCG(seed, 1))
	bodies := make([][]byte, n)
	for i := range bodies {
		a := randomAnswer(rng)
		if edit != nil {
			edit(&a)
		}
		bodies[i] = productPage(a, 4<<10)
	}
	return learn(bodies...)
}
