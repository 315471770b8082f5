package resulttest

import (
	"testing"
	"time"

	"github.com/webload/webload/extract"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// SessionTargets are a shop's URL list with a flow (add to cart, then view the cart with the id
// the first answer gave) and a MediaWiki-shaped login: a form page whose token and session
// cookie are taken, then the POST that redirects to the account page.
func SessionTargets(t testing.TB) []urls.Target {
	t.Helper()
	rule := func(s string) extract.Rule {
		r, err := extract.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	return []urls.Target{
		{Method: "GET", URL: "http://127.0.0.1/account"},
		{Method: "POST", URL: "http://127.0.0.1/cart", Extracts: []extract.Rule{rule("cart_id json:id")}},
		{Method: "GET", URL: "http://127.0.0.1/cart/$(cart_id)"},
		{Method: "GET", URL: "http://127.0.0.1/login", Extracts: []extract.Rule{
			rule(`token css:input[name=wpLoginToken] value`), rule("session cookie:wiki_session")}},
		{Method: "POST", URL: "http://127.0.0.1/login"},
	}
}

// SessionResult is a login or URL result of user u on target ti of SessionTargets that took d
// milliseconds. The rules of targets 1 and 3 read its answer, as the loader marks it, unless it
// is a redirect, which the run follows.
func SessionResult(ti, u int32, kind loader.Kind, status uint16, err loader.ErrKind, d int) loader.Result {
	lat := time.Duration(d) * time.Millisecond
	if err == loader.ErrExtract && status == 0 {
		lat = 0 // nothing was sent
	}
	read := (ti == 1 || ti == 3) && status != 0 && status/100 != 3 && (err == loader.ErrNone || err == loader.ErrExtract)
	return loader.Result{Target: ti, User: u, Kind: kind, Status: status, Err: err, Latency: lat, BodyBytes: 100, Decoded: 100,
		Extracted: read}
}
