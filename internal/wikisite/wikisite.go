// Package wikisite is a loopback site with a MediaWiki-shaped login, for the tests of logins
// through a token form: the form page sets a session cookie and carries a hidden wpLoginToken
// bound to that session, ending in "+\" as MediaWiki's do (so it reaches the server intact
// only form-encoded); the form's POST checks the token and the user's own password; the
// account pages answer only the session logged in as their user. It counts what it saw, so a
// test can tell that each user logged in as its own account.
package wikisite

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"net/http"
	"sync"
)

// Site is the wiki; serve it with net/http (httptest.NewServer). It is safe for concurrent
// use.
//
//	GET  /login                       the form: a new session cookie (wiki_session) and token
//	POST /login                       wpName, wpPassword, wpLoginToken: 302 to /account, else 403
//	GET  /account                     <h1 id="user">NAME</h1> for a logged-in session, else 403
//	GET  /wiki/Special:Preferences?u=NAME  200 for the session logged in as NAME, else 403
//	GET  /wiki/Main_Page              200 for anyone
type Site struct {
	mu        sync.Mutex
	passwords map[string]string // user -> password
	tokens    map[string]string // session -> its login token
	sessions  map[string]string // session -> the user logged in
	logins    map[string]int    // user -> successful logins
	forms     int               // GET /login
	again     int               // GET /login that came with a session cookie
}

// New makes a wiki whose accounts are passwords' (user -> password).
func New(passwords map[string]string) *Site {
	return &Site{passwords: maps.Clone(passwords), tokens: map[string]string{}, sessions: map[string]string{},
		logins: map[string]int{}}
}

// Logins is how many times each user logged in.
func (s *Site) Logins() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.logins)
}

// Forms is how many login forms were asked for, and how many of them by a client that sent a
// session cookie (one that logs in again without having dropped its cookies).
func (s *Site) Forms() (all, withSession int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.forms, s.again
}

// ServeHTTP answers as the table on Site says.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	session := ""
	if c, err := r.Cookie("wiki_session"); err == nil {
		session = c.Value
	}
	user, loggedIn := s.sessions[session]
	switch {
	case r.URL.Path == "/login" && r.Method == http.MethodGet:
		s.form(w, session)
	case r.URL.Path == "/login" && r.Method == http.MethodPost:
		s.login(w, r, session)
	case r.URL.Path == "/account" && loggedIn:
		fmt.Fprintf(w, `<h1 id="user">%s</h1>`, user)
	case r.URL.Path == "/wiki/Special:Preferences" && loggedIn && user == r.URL.Query().Get("u"):
		fmt.Fprint(w, "preferences")
	case r.URL.Path == "/wiki/Main_Page":
		fmt.Fprint(w, "welcome")
	case r.URL.Path == "/account" || r.URL.Path == "/wiki/Special:Preferences":
		http.Error(w, "not logged in as this user", http.StatusForbidden)
	default:
		http.NotFound(w, r)
	}
}

// form starts a new session with its token. The caller holds mu.
func (s *Site) form(w http.ResponseWriter, session string) {
	s.forms++
	if session != "" {
		s.again++
	}
	session = randomHex(8)
	token := randomHex(16) + `+\`
	s.tokens[session] = token
	http.SetCookie(w, &http.Cookie{Name: "wiki_session", Value: session, Path: "/", HttpOnly: true})
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprintf(w, `<form method="post" name="userlogin"><input name="wpName"><input type="password" name="wpPassword">`+
		`<input type="hidden" value="%s" name="wpLoginToken"></form>`, token)
}

// login checks the form's POST. The caller holds mu.
func (s *Site) login(w http.ResponseWriter, r *http.Request, session string) {
	want, ok := s.tokens[session]
	user := r.PostFormValue("wpName")
	pass, known := s.passwords[user]
	if !ok || r.PostFormValue("wpLoginToken") != want || !known || r.PostFormValue("wpPassword") != pass {
		http.Error(w, "login failed", http.StatusForbidden)
		return
	}
	delete(s.tokens, session)
	s.sessions[session] = user
	s.logins[user]++
	http.Redirect(w, r, "/account", http.StatusFound)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
