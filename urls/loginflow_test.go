package urls

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webload/webload/extract"
	"github.com/webload/webload/internal/wikisite"
)

// newWikiSite serves a wiki with a MediaWiki-shaped login (see package wikisite) whose
// accounts are users' on loopback.
func newWikiSite(t *testing.T, users map[string]string) *httptest.Server {
	srv := httptest.NewServer(wikisite.New(users))
	t.Cleanup(srv.Close)
	return srv
}

// login walks one user through the site as the engine will: GET the form, take the token and
// the session cookie out of the response, POST the form with the values put in by place, and
// return the account page's status and user.
func login(t *testing.T, base, body string, place Place, vars map[string]string) (int, string) {
	t.Helper()
	token, err := extract.Parse("token css:input[name=wpLoginToken] value")
	if err != nil {
		t.Fatal(err)
	}
	sid, err := extract.Parse("sid cookie:wiki_session")
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(base + "/login")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	got := toResponse(page, resp.Header)
	for _, r := range []extract.Rule{token, sid} {
		v, err := r.Extract(got)
		if err != nil {
			t.Fatal(err)
		}
		vars[r.Name()] = v
	}
	x := Expander{Lookup: func(name string) (string, bool) {
		v, ok := vars[name]
		if !ok {
			return "", false
		}
		e, err := EscapeValue(v, place)
		return e, err == nil
	}}
	form, err := x.Expand(body)
	if err != nil {
		t.Fatal(err)
	}
	cookie, err := EscapeValue(vars["sid"], InHeader)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/login", strings.NewReader(form))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cookie", "wiki_session="+cookie)
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		return resp.StatusCode, ""
	}
	req, _ = http.NewRequest(http.MethodGet, base+resp.Header.Get("Location"), nil)
	req.Header.Set("Cookie", "wiki_session="+cookie)
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	account, _ := io.ReadAll(resp.Body)
	user, _ := extract.Parse("user css:#user text")
	name, _ := user.Extract(toResponse(account, resp.Header))
	return resp.StatusCode, name
}

// toResponse hands a net/http answer to extract rules.
func toResponse(body []byte, h http.Header) extract.Response {
	return extract.Response{Body: body, Header: setCookieHeader(h)}
}

// setCookieHeader gives a net/http header the lookups extract reads, as fasthttp's header has.
type setCookieHeader http.Header

func (h setCookieHeader) Peek(name string) []byte { return []byte(http.Header(h).Get(name)) }

func (h setCookieHeader) PeekCookie(name string) []byte {
	for _, line := range http.Header(h).Values("Set-Cookie") {
		if strings.HasPrefix(line, name+"=") {
			return []byte(line)
		}
	}
	return nil
}

// TestLoginThroughTokenForm logs ten users in as ten accounts through a token form: the token
// and the session cookie are extracted per user, and the token, which ends in "+\", reaches the
// server intact only because it is form-encoded in the body.
func TestLoginThroughTokenForm(t *testing.T) {
	t.Parallel()
	users := map[string]string{}
	for i := range 10 {
		users[fmt.Sprintf("user%d", i)] = fmt.Sprintf("p&ss %d+=", i)
	}
	srv := newWikiSite(t, users)
	const body = "wpName=$(user)&wpPassword=$(pass)&wpLoginToken=$(token)"
	place := BodyPlace("application/x-www-form-urlencoded")
	for user, pass := range users {
		status, name := login(t, srv.URL, body, place, map[string]string{"user": user, "pass": pass})
		if status != http.StatusOK || name != user {
			t.Errorf("%s: account page %d for %q, want 200 for %s", user, status, name, user)
		}
	}
	// The same values put in as they are: '+' reads as a blank and '&' splits the password.
	status, _ := login(t, srv.URL, body, InBody, map[string]string{"user": "user1", "pass": users["user1"]})
	if status != http.StatusForbidden {
		t.Errorf("an unescaped token and password logged in (%d): the test site is too lenient", status)
	}
}
