package loader

import (
	crand "crypto/rand"
	"encoding/hex"
	"errors"
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

// TestExtractFailures pins what a missing value does, with plain requests and with visits: the
// request whose answer lacks it fails as ErrExtract with its status; the user's later requests
// that need it are not sent and fail the same way with no status; the value is unset on a
// miss, not kept from an earlier answer; messages name the variable, never a value.
func TestExtractFailures(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-token"
	for _, browser := range []bool{false, true} {
		t.Run(fmt.Sprintf("browser=%v", browser), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			forms := 0
			site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/form" {
					mu.Lock()
					forms++
					n := forms
					mu.Unlock()
					if n == 1 { // the first answer has the token, the later ones do not
						fmt.Fprintf(w, "token=%s;", secret)
						return
					}
					fmt.Fprint(w, "no token today")
				}
			})
			_, targets := perUserFiles(t, nil, "", "#@extract token regex:token=([\\w-]+);\n"+
				site.URL+"/form\n"+site.URL+"/use?t=$(token)\n")
			results, out := run(t, Config{Users: 1, Reps: 6, Cookies: browser}, targets)

			var got []string
			for _, r := range results {
				if r.Kind == KindURL {
					got = append(got, fmt.Sprintf("%d:%d:%s", r.Target, r.Status, r.Err))
				}
			}
			want := []string{"0:200:none", "1:200:none", "0:200:extract", "1:0:extract", "0:200:extract", "1:0:extract"}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("results %v, want %v", got, want)
			}
			if n := site.count("GET /use?t=" + secret); n != 1 || len(site.snapshot()) != 2 {
				t.Errorf("server saw %v, want /use only once, with the token", site.snapshot())
			}
			msgs := []string{out.ExtractSamples[0], out.ExtractSamples[1], out.ErrorSamples[ErrExtract]}
			if !strings.Contains(msgs[0], "extract token") || !strings.Contains(msgs[1], "$(token) has no value") || msgs[2] != msgs[0] {
				t.Errorf("samples %q", msgs)
			}
			for _, m := range msgs {
				if strings.Contains(m, secret) {
					t.Errorf("message %q shows the value", m)
				}
			}
		})
	}
}

// TestPerUserHeaders fills the run's headers per user: a bearer token a login step takes from a
// JSON answer (the login step itself goes without the header, which it cannot fill yet), an
// API key from the data with plain requests; and a value with a line break, which would end
// the header, fails the request unsent like a missing one.
func TestPerUserHeaders(t *testing.T) {
	t.Parallel()
	data := table{names: []string{"user", "key"}, rows: [][]string{{"ann", "k-ann"}, {"bob", "k-bob"}, {"eve", "k\r\nX-Evil: 1"}}}
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		user := r.URL.Query().Get("u")
		switch r.URL.Path {
		case "/api/login":
			if r.Header.Get("Authorization") != "" {
				http.Error(w, "a login with a token", http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			token := "tok-" + user
			if user == "eve" {
				token = "tok\r\nX-Evil: 1"
			}
			_, _ = fmt.Fprintf(w, `{"token":%q}`, token)
		case "/api/me":
			if r.Header.Get("Authorization") != "Bearer tok-"+user && r.Header.Get("X-Api-Key") != "k-"+user {
				http.Error(w, "who are you", http.StatusUnauthorized)
			}
		}
	})
	for _, tc := range []struct {
		name   string
		header Header
		login  string
	}{
		{"bearer from a login step", Header{"Authorization", "Bearer $(token)"}, "#@extract token json:token\n" + site.URL + "/api/login?u=$(user)\n"},
		{"api key from the data", Header{"X-Api-Key", "$(key)"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps, targets := perUserFiles(t, data.names, tc.login, site.URL+"/api/me?u=$(user)\n")
			results, out := run(t, Config{Users: 3, Reps: 2, Data: data, Headers: []Header{tc.header}, Login: steps}, targets)
			byUser := map[int32][]string{}
			for _, r := range results {
				if r.Kind == KindURL && r.Target == 0 {
					byUser[r.User] = append(byUser[r.User], fmt.Sprintf("%d:%s", r.Status, r.Err))
				}
			}
			want := map[int32]string{0: "200:none 200:none", 1: "200:none 200:none", 2: "0:extract 0:extract"}
			for u, w := range want {
				if got := strings.Join(byUser[u], " "); got != w {
					t.Errorf("user %d: %s, want %s", u, got, w)
				}
			}
			if msg := out.ExtractSamples[0]; !strings.Contains(msg, "cannot go into a header") || strings.Contains(msg, "Evil") {
				t.Errorf("sample %q", msg)
			}
		})
	}
}

// TestFlowInURLFile walks a flow in the URL list itself: a line takes the cart's id from its
// JSON answer, the next views that cart with $(cart). Every user sees its own carts, and the
// results stay booked by line, with the line as written.
func TestFlowInURLFile(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	carts := map[string]string{} // id -> owner
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method == http.MethodPost {
			id := fmt.Sprintf("c%d", len(carts))
			carts[id] = r.URL.Query().Get("u")
			fmt.Fprintf(w, `{"cart":{"id":%q}}`, id)
			return
		}
		id := strings.TrimPrefix(r.URL.Path, "/cart/")
		if owner, ok := carts[id]; !ok || owner != r.URL.Query().Get("u") {
			http.Error(w, "not your cart", http.StatusNotFound)
		}
	})
	data := accounts(5)
	_, targets := perUserFiles(t, data.names, "", "#@extract cart json:cart.id\n"+
		site.URL+"/cart?u=$(user) POST {\"item\":1}\n"+site.URL+"/cart/$(cart)?u=$(user)\n")
	l, results, _ := runLoader(t, Config{Users: 5, Reps: 4, Data: data}, targets)
	seen := map[int32]int{}
	for _, r := range results {
		seen[r.Target]++
		if r.Status != 200 || r.Err != ErrNone {
			t.Fatalf("%+v", r)
		}
	}
	if len(carts) != 10 || seen[0] != 10 || seen[1] != 10 || len(seen) != 2 {
		t.Errorf("%d carts, results by line %v", len(carts), seen)
	}
	if got := l.Targets()[1].URL; got != site.URL+"/cart/$(cart)?u=$(user)" {
		t.Errorf("line booked as %q", got)
	}
}

// TestUnknownVariable refuses a run whose line refers to a per-user name that no data column
// and no #@extract defines: every one of its requests would fail.
func TestUnknownVariable(t *testing.T) {
	t.Parallel()
	tg, err := urls.ParseLine("http://127.0.0.1:1/a?u=$(usr)", urls.Options{PerUser: func(string) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(Config{Users: 1, Reps: 1, Timeout: 1e9, Data: accounts(1)}, []urls.Target{tg})
	if !errors.Is(err, ErrUnknownVariable) || !strings.Contains(err.Error(), "$(usr)") || !strings.Contains(err.Error(), "command line") {
		t.Errorf("error %v", err)
	}
}

// TestUserValuesStayOutOfFingerprints: the content fingerprints (Outcome.Content, saved with
// the results) of pages that echo a user's values, a token a rule took or a password of its
// data row, keep neither.
func TestUserValuesStayOutOfFingerprints(t *testing.T) {
	t.Parallel()
	const token, password = "purple-elephant", "correct-horse"
	site := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><body><h1>Edit</h1><p>%s</p><form><input type="hidden" name="wpEditToken" value="%s"></form></body></html>`, password, token)
	})
	data := table{names: []string{"pass"}, rows: [][]string{{password}}}
	_, targets := perUserFiles(t, data.names, "", "#@extract token css:input[name=wpEditToken] value\n"+site.URL+"/edit\n"+site.URL+"/save?t=$(token)&p=$(pass)\n")
	_, out := run(t, Config{Users: 1, Reps: 2, Data: data}, targets)
	if site.count("GET /save?t="+token+"&p="+password) != 1 {
		t.Fatalf("server saw %v", site.snapshot())
	}
	got := fmt.Sprintf("%+v", out.Content)
	if strings.Contains(got, token) || strings.Contains(got, password) || !strings.Contains(got, "Edit") {
		t.Errorf("content fingerprints: %s", got)
	}
}
