package loader

import (
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/webload/webload/urls"
)

// table is a UserData of fixed rows: user i takes row i mod the rows, as --data does.
type table struct {
	names []string
	rows  [][]string
}

func (d table) Names() []string { return d.names }

func (d table) Row(user int, _ *rand.Rand) []string { return d.rows[user%len(d.rows)] }

// accounts is a table of n users, user0..user(n-1), each with a password that form-encoding
// must carry intact ('&', '+', '=' and a blank).
func accounts(n int) table {
	d := table{names: []string{"user", "pass"}}
	for i := range n {
		d.rows = append(d.rows, []string{fmt.Sprintf("user%d", i), fmt.Sprintf("p&ss %d+=", i)})
	}
	return d
}

// wiki is a loopback site with a MediaWiki-shaped login: the form page sets a session cookie
// and carries a hidden wpLoginToken ending in "+\" bound to that session; the POST checks the
// token and the user's own password; the preferences page answers 200 only to the session
// logged in as the user it names.
type wiki struct {
	*httptest.Server
	mu        sync.Mutex
	passwords map[string]string
	tokens    map[string]string // session -> login token
	sessions  map[string]string // session -> user logged in
	logins    map[string]int    // user -> successful logins
	formHits  int               // GET /login
	formAgain int               // GET /login that came with a session cookie
}

func newWiki(t *testing.T, data table) *wiki {
	t.Helper()
	w := &wiki{passwords: map[string]string{}, tokens: map[string]string{}, sessions: map[string]string{}, logins: map[string]int{}}
	for _, row := range data.rows {
		w.passwords[row[0]] = row[1]
	}
	w.Server = httptest.NewServer(w)
	t.Cleanup(w.Close)
	return w
}

func randomHex() string {
	b := make([]byte, 12)
	_, _ = crand.Read(b)
	return hex.EncodeToString(b)
}

func (s *wiki) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	session := ""
	if c, err := r.Cookie("wiki_session"); err == nil {
		session = c.Value
	}
	switch {
	case r.URL.Path == "/login" && r.Method == http.MethodGet:
		s.formHits++
		if session != "" {
			s.formAgain++
		}
		session = randomHex()
		token := randomHex() + `+\`
		s.tokens[session] = token
		http.SetCookie(w, &http.Cookie{Name: "wiki_session", Value: session, Path: "/", HttpOnly: true})
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<form method="post" name="userlogin"><input name="wpName"><input type="password" name="wpPassword">`+
			`<input type="hidden" value="%s" name="wpLoginToken"></form>`, token)
	case r.URL.Path == "/login" && r.Method == http.MethodPost:
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
		http.Redirect(w, r, "/wiki/Main_Page", http.StatusFound)
	case r.URL.Path == "/wiki/Main_Page":
		fmt.Fprint(w, "welcome")
	case r.URL.Path == "/wiki/Special:Preferences":
		if user, ok := s.sessions[session]; !ok || user != r.URL.Query().Get("u") {
			http.Error(w, "not logged in as "+r.URL.Query().Get("u"), http.StatusForbidden)
			return
		}
		fmt.Fprint(w, "preferences")
	default:
		http.NotFound(w, r)
	}
}

// loginCount is the successful logins of every user.
func (s *wiki) loginCount() (users, logins int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.logins {
		users, logins = users+1, logins+n
	}
	return users, logins
}

// perUserFiles parses a login file and a URL file as the command line does: the data's columns
// are per-user in both, and the names the login file extracts are per-user in the URL file.
func perUserFiles(t *testing.T, data []string, login, list string) (steps, targets []urls.Target) {
	t.Helper()
	names := map[string]bool{}
	for _, n := range data {
		names[n] = true
	}
	perUser := func(name string) bool { return names[name] }
	var err error
	if login != "" {
		if steps, err = urls.Parse(strings.NewReader(login), "login.txt", "", urls.Options{PerUser: perUser}); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range steps {
		for _, r := range s.Extracts {
			names[r.Name()] = true
		}
	}
	if targets, err = urls.Parse(strings.NewReader(list), "urls.txt", "", urls.Options{PerUser: perUser}); err != nil {
		t.Fatal(err)
	}
	return steps, targets
}

// wikiLogin is the login file of the wiki: the form, then its POST with the user's row and
// the token the form gave.
func wikiLogin(base string) string {
	return "#@extract token css:input[name=wpLoginToken] value\n" +
		base + "/login\n" +
		base + "/login POST wpName=$(user)&wpPassword=$(pass)&wpLoginToken=$(token)\n"
}

// TestSessionsLogInAsTheirOwnAccounts logs each user in through the token form with its own
// row, and its preferences page, which names the user, answers 200: the token and password
// reached the server form-encoded, and the session cookie stayed the user's.
func TestSessionsLogInAsTheirOwnAccounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		cfg        Config
		wantLogins func(out Outcome) int // successful logins the server saw
	}{
		{"closed model", Config{Users: 10, Reps: 3}, func(Outcome) int { return 10 }},
		{"open model", Config{Rate: 2000, MaxUsers: 10, Reps: 30}, func(out Outcome) int { return out.Users }},
		{"relogin every 2 of 4", Config{Users: 3, Reps: 4, ReloginEvery: 2}, func(Outcome) int { return 6 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data := accounts(10)
			site := newWiki(t, data)
			cfg := tc.cfg
			cfg.Data, cfg.Cookies, cfg.FollowRedirects = data, true, true
			cfg.ContentType = "application/x-www-form-urlencoded"
			cfg.Login, cfg.Headers = nil, nil
			var targets []urls.Target
			cfg.Login, targets = perUserFiles(t, data.names, wikiLogin(site.URL), site.URL+"/wiki/Special:Preferences?u=$(user)\n")
			l, results, out := runLoader(t, cfg, targets)

			users, logins := site.loginCount()
			if want := tc.wantLogins(out); logins != want || users != min(want, out.Users) {
				t.Errorf("%d logins by %d accounts, want %d by %d", logins, users, want, min(want, out.Users))
			}
			if site.formAgain != 0 {
				t.Errorf("%d login forms asked for with a session cookie: a relogin must start with an empty jar", site.formAgain)
			}
			pages, loginSteps := 0, 0
			for _, r := range results {
				switch r.Kind {
				case KindURL:
					pages++
					if r.Status != 200 || r.Err != ErrNone || r.Target != 0 {
						t.Fatalf("preferences page: %+v, want 200 booked under target 0", r)
					}
				case KindLogin:
					loginSteps++
				}
			}
			// Each login is the form, its POST and the redirect the POST answers with.
			if wantPages := max(cfg.Reps, 0) * max(cfg.Users, 1); pages != wantPages || loginSteps != 3*logins {
				t.Errorf("%d pages and %d login requests, want %d and %d", pages, loginSteps, wantPages, 3*logins)
			}
			if got := l.Targets()[0].URL; !strings.HasSuffix(got, "?u=$(user)") {
				t.Errorf("target booked as %q, want the line as written", got)
			}
			if out.ExtractSamples != nil {
				t.Errorf("extraction failures: %v", out.ExtractSamples)
			}
		})
	}
}
