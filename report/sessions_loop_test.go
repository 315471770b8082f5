package report

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/extract"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// Against a loopback site whose login form posts to a redirect that sets the session cookie,
// each user's login is counted once (the POST's redirect hop is no second one), the steps'
// rows are marked and their requests counted apart, and the account page every logged-in user
// then visits answers 200.
func TestLoginsOnLoopback(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/login" && r.Method == http.MethodPost:
			http.SetCookie(w, &http.Cookie{Name: "session", Value: r.FormValue("user")})
			http.Redirect(w, r, "/welcome", http.StatusFound)
		case r.URL.Path == "/login":
			fmt.Fprint(w, `<form method=post><input name=user></form>`)
		case r.URL.Path == "/account":
			if _, err := r.Cookie("session"); err != nil {
				http.Error(w, "log in first", http.StatusForbidden)
				return
			}
			fmt.Fprint(w, "your account")
		default:
			fmt.Fprint(w, "welcome")
		}
	}))
	t.Cleanup(srv.Close)
	const users, reps = 4, 3
	cfg := loader.Config{Users: users, Reps: reps, Timeout: 10 * time.Second, Cookies: true, FollowRedirects: true, MaxRedirects: 5,
		Login: []urls.Target{{Method: "GET", URL: srv.URL + "/login"},
			{Method: "POST", URL: srv.URL + "/login", Body: []byte("user=wiki")}}, ContentType: "application/x-www-form-urlencoded"}
	l, err := loader.New(cfg, []urls.Target{{Method: "GET", URL: srv.URL + "/account", Source: "u:1"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rec := stats.NewRecorder(l.Targets(), stats.Options{})
	rep := rec.Report(l.Run(ctx, rec), stats.RunInfo{}, "")
	if err := rep.Check(); err != nil {
		t.Fatal(err)
	}
	if g := rep.Logins; g == nil || g.Logins != users || g.Requests != 3*users || g.Failed != 0 || g.Max <= 0 {
		t.Fatalf("logins %+v; want %d made of %d requests (form, POST, its redirect), none failed", g, users, 3*users)
	}
	if u := rep.URLs[0]; u.Login || u.Hits != users*reps || u.StatusCodes["200"] != users*reps {
		t.Errorf("account page %+v: want %d answers of 200 (logged in), not a login row", u, users*reps)
	}
	for _, u := range rep.URLs[1:] {
		if !u.Login {
			t.Errorf("login step %s %s not marked", u.Method, u.URL)
		}
	}
	if rep.Extractions != nil {
		t.Errorf("extractions %+v in a run without rules", rep.Extractions)
	}
}

// loginSite is a loopback site whose login can fail: a form with a token, a POST that sets the
// session cookie, and an account page only a session sees. refuse says whether the nth POST
// (from 0) is refused with 403; noToken leaves the token out of the form; onForm runs before
// the form is answered.
type loginSite struct {
	*httptest.Server
	forms, posts, pages atomic.Int64
}

func newLoginSite(t *testing.T, noToken bool, refuse func(n int64) bool, onForm func()) *loginSite {
	t.Helper()
	s := &loginSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/login" && r.Method == http.MethodPost:
			if n := s.posts.Add(1) - 1; refuse(n) || r.FormValue("token") != "t0k3n" {
				http.Error(w, "wrong password", http.StatusForbidden)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "s"})
			fmt.Fprint(w, "welcome")
		case r.URL.Path == "/login":
			s.forms.Add(1)
			if onForm != nil {
				onForm()
			}
			if noToken {
				fmt.Fprint(w, `<form method=post><input name=user></form>`)
				return
			}
			fmt.Fprint(w, `<form method=post><input name=token value=t0k3n></form>`)
		case r.URL.Path == "/account":
			s.pages.Add(1)
			if _, err := r.Cookie("session"); err != nil {
				http.Error(w, "log in first", http.StatusForbidden)
				return
			}
			fmt.Fprint(w, "your account")
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// A user whose login fails (a step refused with 403, which siege would count a success, or a
// form without the token the next step needs) does not load its pages logged out: each page it
// was to load is not sent and fails as kind "login", and it tries to log in again before its
// next page. The report counts the logins begun, made, failed and cut short by the run's end,
// and the users that never logged in, in its figures, text and JSON.
func TestFailedLoginsOnLoopback(t *testing.T) {
	t.Parallel()
	never := func(int64) bool { return false }
	for _, tc := range []struct {
		name                string
		users, reps         int
		noToken             bool
		refuse              func(n int64) bool
		abortOnForm         bool // the run ends while the first form is answered
		forms, posts, pages int64
		logins, made        int64
		failed, neverIn     int64
		failures            map[string]int64
		notSent             int64 // pages failed as kind "login"
		text                string
	}{
		{name: "refused with 403", users: 3, reps: 2, refuse: func(int64) bool { return true },
			forms: 6, posts: 6, logins: 6, made: 0, failed: 6, neverIn: 3, failures: map[string]int64{"HTTP 403": 6}, notSent: 6,
			text: "6 begun: 0 made, 6 failed (HTTP 403: 6); 3 users never logged in; 12 requests;"},
		{name: "form without the token", users: 2, reps: 2, noToken: true, refuse: never,
			forms: 4, logins: 4, failed: 4, neverIn: 2, failures: map[string]int64{"extract": 4}, notSent: 4,
			text: "4 begun: 0 made, 4 failed (extract: 4); 2 users never logged in; 4 requests;"},
		{name: "refused once, then logged in", users: 1, reps: 3, refuse: func(n int64) bool { return n == 0 },
			forms: 2, posts: 2, pages: 2, logins: 2, made: 1, failed: 1, failures: map[string]int64{"HTTP 403": 1}, notSent: 1,
			text: "2 begun: 1 made, 1 failed (HTTP 403: 1); 0 users never logged in; 4 requests;"},
		{name: "cut short between the steps", users: 1, reps: 1, refuse: never, abortOnForm: true,
			forms: 1, logins: 1, text: "1 begun: 0 made, 0 failed, 1 cut short by the run's end; 0 users never logged in; 1 requests;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var l atomic.Pointer[loader.Loader]
			onForm := func() {}
			if tc.abortOnForm {
				onForm = func() { l.Load().Abort() } // before the form's answer leaves
			}
			site := newLoginSite(t, tc.noToken, tc.refuse, onForm)
			token, err := extract.Parse(`token css:input[name=token] value`)
			if err != nil {
				t.Fatal(err)
			}
			cfg := loader.Config{Users: tc.users, Reps: tc.reps, Timeout: 10 * time.Second, Cookies: true, FollowRedirects: true, MaxRedirects: 5,
				ContentType: "application/x-www-form-urlencoded",
				Login: []urls.Target{{Method: "GET", URL: site.URL + "/login", Extracts: []extract.Rule{token}, Source: "login:1"},
					{Method: "POST", URL: site.URL + "/login", Body: []byte("token=$(token)"), BodyVars: urls.CompileTemplate("token=$(token)", isToken), Source: "login:2"}}}
			ld, err := loader.New(cfg, []urls.Target{{Method: "GET", URL: site.URL + "/account", Source: "u:1"}})
			if err != nil {
				t.Fatal(err)
			}
			l.Store(ld)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			rec := stats.NewRecorder(ld.Targets(), stats.Options{})
			rep := rec.Report(ld.Run(ctx, rec), stats.RunInfo{}, "")
			if err := rep.Check(); err != nil {
				t.Fatal(err)
			}
			if f, p, g := site.forms.Load(), site.posts.Load(), site.pages.Load(); f != tc.forms || p != tc.posts || g != tc.pages {
				t.Errorf("the site answered %d forms, %d POSTs and %d pages; want %d, %d and %d", f, p, g, tc.forms, tc.posts, tc.pages)
			}
			g := rep.Logins
			if g == nil || g.Made == nil {
				t.Fatalf("logins %+v: want them counted", g)
			}
			if g.Logins != tc.logins || *g.Made != tc.made || g.FailedLogins != tc.failed || g.NeverLoggedIn != tc.neverIn ||
				fmt.Sprint(g.Failures) != fmt.Sprint(tc.failures) {
				t.Errorf("logins: %d begun, %d made, %d failed %v, %d users never logged in; want %d, %d, %d %v, %d",
					g.Logins, *g.Made, g.FailedLogins, g.Failures, g.NeverLoggedIn, tc.logins, tc.made, tc.failed, tc.failures, tc.neverIn)
			}
			if u := rep.URLs[0]; rep.Errors["login"] != tc.notSent || u.Failures != tc.notSent || u.Hits != tc.pages {
				t.Errorf("account page: %d hits, %d failures, %d not sent for a failed login; want %d hits and %d of each",
					u.Hits, u.Failures, rep.Errors["login"], tc.pages, tc.notSent)
			}
			if tc.notSent > 0 && !strings.Contains(rep.ErrorSamples["login"], "the user's login failed at step") {
				t.Errorf("message of kind login %q", rep.ErrorSamples["login"])
			}
			text := string(textOf(t, &rep, TextOptions{}))
			if !strings.Contains(text, "Logins:\t\t\t"+fmt.Sprintf("%12s", "")[:12-len(strings.Fields(tc.text)[0])]+tc.text) {
				t.Errorf("text lacks the logins line %q:\n%s", tc.text, text)
			}
			saved := string(jsonOf(t, &rep))
			for _, key := range []string{`"made": ` + fmt.Sprint(tc.made), `"logins": ` + fmt.Sprint(tc.logins)} {
				if !strings.Contains(saved, key) {
					t.Errorf("JSON lacks %s:\n%s", key, saved)
				}
			}
			if tc.neverIn > 0 && !strings.Contains(saved, fmt.Sprintf(`"users_never_logged_in": %d`, tc.neverIn)) {
				t.Errorf("JSON lacks the users never logged in:\n%s", saved)
			}
			if v, _ := loginFailuresFigure.Run(&rep); v != float64(tc.failed) {
				t.Errorf("figure login_failures = %v; want %d", v, tc.failed)
			}
		})
	}
}

func isToken(name string) bool { return name == "token" }

var loginFailuresFigure, _ = stats.LookupFigure("login_failures")
