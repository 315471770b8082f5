// Package wikisite is a loopback site with MediaWiki's login, for the tests of logged-in
// users: Special:UserLogin's form carries a hidden wpLoginToken (ending in "+\" as MediaWiki's
// do) bound to the session cookie the form page sets, the POST checks it and the account's own
// password, and Special:Preferences and Special:Watchlist answer only a logged-in session. The
// site counts logins and logged-in page views per account, so a test can tell that each user
// logged in as its own account.
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

// Site is a running wiki on 127.0.0.1. Its methods are safe for concurrent use.
type Site struct {
	base string
	srv  *http.Server
	done chan struct{}

	mu        sync.Mutex
	passwords map[string]string // account -> password
	tokens    map[string]string // session -> its login token
	sessions  map[string]string // session -> the account logged in
	logins    map[string]int    // account -> successful logins
	failed    int               // login attempts refused
	views     map[string]int    // account -> logged-in pages it viewed
	refused   int               // logged-in pages asked for without a login
}

// Start serves a wiki whose accounts are passwords' keys on a free port of 127.0.0.1.
func Start(passwords map[string]string) (*Site, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the wiki: %w", err)
	}
	s := &Site{base: "http://" + ln.Addr().String(), done: make(chan struct{}),
		passwords: maps.Clone(passwords), tokens: map[string]string{}, sessions: map[string]string{},
		logins: map[string]int{}, views: map[string]int{}}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // ends with ErrServerClosed at Close
	}()
	return s, nil
}

// URL is the site's base, http://127.0.0.1:PORT, to which /index.php?title=PAGE is added.
func (s *Site) URL() string { return s.base }

// Close stops the site and waits for its server to end.
func (s *Site) Close() error {
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

// ServeHTTP implements http.Handler.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	title := r.URL.Query().Get("title")
	if p, ok := strings.CutPrefix(r.URL.Path, "/wiki/"); ok {
		title = p
	} else if r.URL.Path != "/index.php" {
		http.NotFound(w, r)
		return
	}
	session := ""
	if c, err := r.Cookie(SessionCookie); err == nil {
		session = c.Value
	}
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	w.Header().Set("Cache-Control", "private, must-revalidate, max-age=0")
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case title == LoginPage && r.Method == http.MethodPost:
		s.login(w, r, session)
	case title == LoginPage:
		s.loginForm(w, "")
	case title == PreferencesPage || title == WatchlistPage:
		user, ok := s.sessions[session]
		if !ok {
			s.refused++
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, page("Login required", `<p>Please <a href="/index.php?title=Special:UserLogin">log in</a> to view this page.</p>`))
			return
		}
		s.views[user]++
		fmt.Fprint(w, page(strings.TrimPrefix(title, "Special:"), `<p id="pt-userpage">`+html.EscapeString(user)+`</p>`))
	case title == MainPage || strings.HasPrefix(title, "User:"):
		who := "Not logged in"
		if user, ok := s.sessions[session]; ok {
			who = user
		}
		fmt.Fprint(w, page(strings.ReplaceAll(title, "_", " "), `<p id="pt-userpage">`+html.EscapeString(who)+`</p>`))
	default:
		http.NotFound(w, r)
	}
}

// loginForm answers Special:UserLogin with a new session and its token, as MediaWiki does for a
// visitor without one; problem, if any, is shown above the form as MediaWiki's error box.
func (s *Site) loginForm(w http.ResponseWriter, problem string) {
	session, token := randomHex(16), randomHex(16)+`+\`
	s.tokens[session] = token
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: session, Path: "/", HttpOnly: true})
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
	fmt.Fprint(w, page("Log in", b.String()))
}

// login checks the form's token against the session's and the password against the account's.
// A success answers as MediaWiki does, with a redirect to the page to return to; a failure with
// the form again and an error box, status 200.
func (s *Site) login(w http.ResponseWriter, r *http.Request, session string) {
	want, ok := s.tokens[session]
	user, pass := r.PostFormValue("wpName"), r.PostFormValue("wpPassword")
	switch {
	case !ok || r.PostFormValue("wpLoginToken") != want:
		s.failed++
		s.loginForm(w, "There seems to be a problem with your login session; this action has been canceled as a precaution against session hijacking.")
		return
	case s.passwords[user] == "" || s.passwords[user] != pass:
		s.failed++
		s.loginForm(w, "Incorrect username or password entered. Please try again.")
		return
	}
	delete(s.tokens, session)
	// A new session on login, as MediaWiki does against session fixation.
	delete(s.sessions, session)
	session = randomHex(16)
	s.sessions[session] = user
	s.logins[user]++
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: session, Path: "/", HttpOnly: true})
	http.SetCookie(w, &http.Cookie{Name: "wikiUserName", Value: user, Path: "/", HttpOnly: true})
	http.Redirect(w, r, "/index.php?title="+MainPage, http.StatusFound)
}

// page is a wiki page with its title and content.
func page(title, content string) string {
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
