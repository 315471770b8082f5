// Package wikisite is a loopback site with MediaWiki's login, for the tests of logged-in
// users: the login form carries a hidden wpLoginToken (ending in "+\" as MediaWiki's do, so it
// reaches the server intact only form-encoded) bound to the session cookie the form page sets,
// the POST checks it and the account's own password, and the account pages answer only a
// session logged in. The site counts logins, refused logins and logged-in page views per
// account, so a test can tell that each user logged in as its own account.
//
// It answers two sets of paths. MediaWiki's own, as examples/login uses them:
//
//	GET  /index.php?title=Special:UserLogin  the form, with a new session and its token
//	POST /index.php?title=Special:UserLogin  wpName, wpPassword, wpLoginToken: a new session
//	                                         and 302 to Main_Page; else the form again with an
//	                                         error box, status 200, as MediaWiki answers
//	GET  /index.php?title=Special:Preferences (and Special:Watchlist) 200 for a logged-in
//	                                         session, else 403
//	GET  /index.php?title=User:NAME, Main_Page  200 for anyone
//
// (/wiki/TITLE is the same as /index.php?title=TITLE), and short ones for the engine's tests:
//
//	GET  /login    the form: a new session cookie (wiki_session) and token
//	POST /login    wpName, wpPassword, wpLoginToken: 302 to /account, else 403
//	GET  /account  <h1 id="user">NAME</h1> for a logged-in session, else 403
//
// where /wiki/Special:Preferences?u=NAME answers 200 only to the session logged in as NAME.
package wikisite

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"maps"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// SessionCookie is the name of the session cookie, as a wiki whose database is "wiki" has it.
const SessionCookie = "wiki_session"

// The pages, as /index.php?title=PAGE (or /wiki/PAGE) asks for them.
const (
	LoginPage       = "Special:UserLogin"
	PreferencesPage = "Special:Preferences"
	WatchlistPage   = "Special:Watchlist"
	MainPage        = "Main_Page"
)

// Site is the wiki: serve it with net/http (New), or let Start serve it on loopback. It is
// safe for concurrent use.
type Site struct {
	base string        // set by Start
	srv  *http.Server  // set by Start
	done chan struct{} // closed when srv has stopped

	mu        sync.Mutex
	passwords map[string]string // account -> password
	tokens    map[string]string // session -> its login token
	sessions  map[string]string // session -> the account logged in
	logins    map[string]int    // account -> successful logins
	failed    int               // login attempts refused
	views     map[string]int    // account -> logged-in pages it viewed
	refused   int               // logged-in pages asked for without a login
	forms     int               // login forms asked for
	again     int               // of them, by a client that sent a session cookie
}

// New makes a wiki whose accounts are passwords' keys (account -> password).
func New(passwords map[string]string) *Site {
	return &Site{passwords: maps.Clone(passwords), tokens: map[string]string{}, sessions: map[string]string{},
		logins: map[string]int{}, views: map[string]int{}}
}

// Start serves New(passwords) on a free port of 127.0.0.1; Close stops it.
func Start(passwords map[string]string) (*Site, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the wiki: %w", err)
	}
	s := New(passwords)
	s.base, s.done = "http://"+ln.Addr().String(), make(chan struct{})
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // ends with ErrServerClosed at Close
	}()
	return s, nil
}

// URL is the base of a site that Start serves, http://127.0.0.1:PORT.
func (s *Site) URL() string { return s.base }

// Close stops a site that Start serves and waits for its server to end.
func (s *Site) Close() error {
	if s.srv == nil {
		return nil
	}
	err := s.srv.Close()
	<-s.done
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Logins counts the successful logins of each account.
func (s *Site) Logins() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.logins)
}

// FailedLogins counts the login attempts refused: a wrong password, or a token missing or
// not the one of the session.
func (s *Site) FailedLogins() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed
}

// Views counts the logged-in pages (Preferences, Watchlist) each account viewed.
func (s *Site) Views() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.views)
}

// Refused counts the logged-in pages asked for without a logged-in session (answered 403).
func (s *Site) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Forms is how many login forms were asked for, and how many of them by a client that sent a
// session cookie (one that logs in again without having dropped its cookies).
func (s *Site) Forms() (all, withSession int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.forms, s.again
}

// ServeHTTP answers as the package comment says.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	session := ""
	if c, err := r.Cookie(SessionCookie); err == nil {
		session = c.Value
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	user, loggedIn := s.sessions[session]
	switch r.URL.Path {
	case "/login":
		if r.Method == http.MethodPost {
			s.shortLogin(w, r, session)
			return
		}
		token := s.newForm(w, session)
		fmt.Fprintf(w, `<form method="post" name="userlogin"><input name="wpName"><input type="password" name="wpPassword">`+
			`<input type="hidden" value="%s" name="wpLoginToken"></form>`, html.EscapeString(token))
		return
	case "/account":
		if !loggedIn {
			s.refuse(w)
			return
		}
		fmt.Fprintf(w, `<h1 id="user">%s</h1>`, html.EscapeString(user))
		return
	case "/index.php":
		s.page(w, r, r.URL.Query().Get("title"), session)
		return
	}
	if title, ok := strings.CutPrefix(r.URL.Path, "/wiki/"); ok {
		s.page(w, r, title, session)
		return
	}
	http.NotFound(w, r)
}

// page answers a wiki page by its title. The caller holds mu.
func (s *Site) page(w http.ResponseWriter, r *http.Request, title, session string) {
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	w.Header().Set("Cache-Control", "private, must-revalidate, max-age=0")
	user, loggedIn := s.sessions[session]
	switch {
	case title == LoginPage && r.Method == http.MethodPost:
		s.login(w, r, session)
	case title == LoginPage:
		s.loginForm(w, session, "")
	case title == PreferencesPage || title == WatchlistPage:
		// ?u=NAME asks for NAME's page: another account's is refused too.
		if u := r.URL.Query().Get("u"); !loggedIn || u != "" && u != user {
			s.refuse(w)
			return
		}
		s.views[user]++
		fmt.Fprint(w, wikiPage(strings.TrimPrefix(title, "Special:"), `<p id="pt-userpage">`+html.EscapeString(user)+`</p>`))
	case title == MainPage || strings.HasPrefix(title, "User:"):
		who := "Not logged in"
		if loggedIn {
			who = user
		}
		fmt.Fprint(w, wikiPage(strings.ReplaceAll(title, "_", " "), `<p id="pt-userpage">`+html.EscapeString(who)+`</p>`))
	default:
		http.NotFound(w, r)
	}
}

// refuse answers a logged-in page asked for without a login. The caller holds mu.
func (s *Site) refuse(w http.ResponseWriter) {
	s.refused++
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprint(w, wikiPage("Login required", `<p>Please <a href="/index.php?title=Special:UserLogin">log in</a> to view this page.</p>`))
}

// newForm starts a new session with its login token, as MediaWiki does for a login form, and
// returns the token. The caller holds mu.
func (s *Site) newForm(w http.ResponseWriter, old string) string {
	s.forms++
	if old != "" {
		s.again++
	}
	session, token := randomHex(16), randomHex(16)+`+\`
	s.tokens[session] = token
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: session, Path: "/", HttpOnly: true})
	return token
}

// loginForm answers Special:UserLogin with a new session and its token; problem, if any, is
// shown above the form as MediaWiki's error box. The caller holds mu.
func (s *Site) loginForm(w http.ResponseWriter, old, problem string) {
	token := s.newForm(w, old)
	var b strings.Builder
	if problem != "" {
		fmt.Fprintf(&b, `<div class="cdx-message cdx-message--error errorbox">%s</div>`, problem)
	}
	fmt.Fprintf(&b, `<form name="userlogin" method="post" action="/index.php?title=Special:UserLogin&amp;returnto=Main+Page">
<input id="wpName1" name="wpName" size="20" autofocus="">
<input id="wpPassword1" name="wpPassword" size="20" type="password">
<input name="wpRemember" type="checkbox" value="1" id="wpRemember">
<button id="wpLoginAttempt" type="submit" name="wploginattempt" value="Log in">Log in</button>
<input name="wpEditToken" type="hidden" value="+\">
<input name="title" type="hidden" value="Special:UserLogin">
<input name="authAction" type="hidden" value="login">
<input name="wpLoginToken" type="hidden" value="%s">
</form>`, html.EscapeString(token))
	fmt.Fprint(w, wikiPage("Log in", b.String()))
}

// check tells whether the form's POST carries the session's token and the account's password,
// and counts a refusal. The caller holds mu.
func (s *Site) check(r *http.Request, session string) (user string, tokenOK, ok bool) {
	want, hasToken := s.tokens[session]
	user = r.PostFormValue("wpName")
	pass, known := s.passwords[user]
	tokenOK = hasToken && r.PostFormValue("wpLoginToken") == want
	ok = tokenOK && known && r.PostFormValue("wpPassword") == pass
	if !ok {
		s.failed++
	}
	return user, tokenOK, ok
}

// login answers MediaWiki's login POST: a new session against session fixation and a redirect
// to the main page, or the form again with an error box and status 200. The caller holds mu.
func (s *Site) login(w http.ResponseWriter, r *http.Request, session string) {
	user, tokenOK, ok := s.check(r, session)
	switch {
	case !tokenOK:
		s.loginForm(w, session, "There seems to be a problem with your login session; this action has been canceled as a precaution against session hijacking.")
		return
	case !ok:
		s.loginForm(w, session, "Incorrect username or password entered. Please try again.")
		return
	}
	delete(s.tokens, session)
	delete(s.sessions, session)
	session = randomHex(16)
	s.sessions[session] = user
	s.logins[user]++
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: session, Path: "/", HttpOnly: true})
	http.SetCookie(w, &http.Cookie{Name: "wikiUserName", Value: user, Path: "/", HttpOnly: true})
	http.Redirect(w, r, "/index.php?title="+MainPage, http.StatusFound)
}

// shortLogin answers POST /login: the session is kept, logged in, with a redirect to /account;
// a refusal is 403. The caller holds mu.
func (s *Site) shortLogin(w http.ResponseWriter, r *http.Request, session string) {
	user, _, ok := s.check(r, session)
	if !ok {
		http.Error(w, "login failed", http.StatusForbidden)
		return
	}
	delete(s.tokens, session)
	s.sessions[session] = user
	s.logins[user]++
	http.Redirect(w, r, "/account", http.StatusFound)
}

// wikiPage is a wiki page with its title and content.
func wikiPage(title, content string) string {
	return `<!DOCTYPE html>
<html lang="en" dir="ltr"><head><meta charset="UTF-8"><title>` + html.EscapeString(title) + ` - Test Wiki</title></head>
<body><h1 id="firstHeading">` + html.EscapeString(title) + `</h1>
` + content + `
</body></html>
`
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
