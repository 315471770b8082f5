package wikisite

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var tokenField = regexp.MustCompile(`name="wpLoginToken" type="hidden" value="([^"]*)"`)

// browser is one visitor with its own cookies.
type browser struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newBrowser(t *testing.T, base string) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	// A transport of its own: httptest.Server.Close closes the idle connections of
	// http.DefaultTransport, which breaks a request of a parallel test that shares it just as
	// its connection is made ("http: CloseIdleConnections called").
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &browser{t, base, &http.Client{Jar: jar, Transport: tr}}
}

func (b *browser) get(title string) (int, string) {
	b.t.Helper()
	resp, err := b.c.Get(b.base + "/index.php?title=" + url.QueryEscape(title))
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// login fetches the form and posts it; token replaces the form's token unless "".
func (b *browser) login(user, pass, token string) string {
	b.t.Helper()
	_, form := b.get(LoginPage)
	m := tokenField.FindStringSubmatch(form)
	if m == nil {
		b.t.Fatalf("no token in the form:\n%s", form)
	}
	if token == "" {
		token = m[1]
	}
	resp, err := b.c.PostForm(b.base+"/index.php?title=Special:UserLogin&returnto=Main+Page",
		url.Values{"wpName": {user}, "wpPassword": {pass}, "wpLoginToken": {token}, "wpRemember": {"1"}})
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

func TestLoginAndLoggedInPages(t *testing.T) {
	t.Parallel()
	s, err := Start(map[string]string{"alice": "p&ss +1", "bob": "hunter2"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })

	anon := newBrowser(t, s.URL())
	if code, _ := anon.get(PreferencesPage); code != http.StatusForbidden {
		t.Errorf("preferences without a login: %d, want 403", code)
	}
	if page := anon.login("bob", "wrong", ""); !strings.Contains(page, "Incorrect username or password") {
		t.Errorf("a wrong password: %s", page)
	}
	if page := anon.login("bob", "hunter2", "0123+\\"); !strings.Contains(page, "problem with your login session") {
		t.Errorf("a wrong token: %s", page)
	}

	for user, pass := range map[string]string{"alice": "p&ss +1", "bob": "hunter2"} {
		b := newBrowser(t, s.URL())
		if page := b.login(user, pass, ""); !strings.Contains(page, `<p id="pt-userpage">`+user+"</p>") {
			t.Errorf("%s: after the login:\n%s", user, page)
		}
		for _, title := range []string{PreferencesPage, WatchlistPage, "User:" + user} {
			if code, page := b.get(title); code != http.StatusOK || !strings.Contains(page, user) {
				t.Errorf("%s: %s answered %d:\n%s", user, title, code, page)
			}
		}
	}
	if got := s.Logins(); len(got) != 2 || got["alice"] != 1 || got["bob"] != 1 {
		t.Errorf("logins %v, want alice and bob once", got)
	}
	if got := s.Views(); got["alice"] != 2 || got["bob"] != 2 {
		t.Errorf("views %v, want 2 each", got)
	}
	if s.FailedLogins() != 2 || s.Refused() != 1 {
		t.Errorf("%d failed logins and %d refused pages, want 2 and 1", s.FailedLogins(), s.Refused())
	}
}

// TestShortPaths: the engine tests' /login and /account, served by New through httptest; a
// refused login is 403 there, a form asked for again with the session counts, and ?u=NAME
// refuses another account's preferences.
func TestShortPaths(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New(map[string]string{"alice": "a+&1"}))
	t.Cleanup(srv.Close)
	site := srv.Config.Handler.(*Site)
	b := newBrowser(t, srv.URL)
	get := func(path string) (int, string) {
		resp, err := b.c.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	post := func(pass string) int {
		_, form := get("/login")
		m := regexp.MustCompile(`value="([^"]*)" name="wpLoginToken"`).FindStringSubmatch(form)
		if m == nil {
			t.Fatalf("no token in %s", form)
		}
		resp, err := b.c.PostForm(srv.URL+"/login", url.Values{"wpName": {"alice"}, "wpPassword": {pass}, "wpLoginToken": {m[1]}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code, _ := get("/account"); code != http.StatusForbidden {
		t.Errorf("/account without a login: %d", code)
	}
	if code := post("wrong"); code != http.StatusForbidden {
		t.Errorf("a wrong password: %d, want 403", code)
	}
	if code := post("a+&1"); code != http.StatusOK { // the redirect to /account, followed
		t.Errorf("a login: %d, want 200 from /account", code)
	}
	if code, page := get("/account"); code != http.StatusOK || page != `<h1 id="user">alice</h1>` {
		t.Errorf("/account: %d %q", code, page)
	}
	for u, want := range map[string]int{"alice": http.StatusOK, "bob": http.StatusForbidden} {
		if code, _ := get("/wiki/Special:Preferences?u=" + u); code != want {
			t.Errorf("preferences of %s: %d, want %d", u, code, want)
		}
	}
	if all, again := site.Forms(); all != 2 || again != 1 {
		t.Errorf("forms %d, %d with a session; want 2 and 1", all, again)
	}
	if site.Logins()["alice"] != 1 || site.FailedLogins() != 1 {
		t.Errorf("logins %v, %d failed", site.Logins(), site.FailedLogins())
	}
}
