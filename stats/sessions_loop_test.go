package stats

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/webload/webload/loader"
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
	rec := NewRecorder(l.Targets(), Options{})
	rep := rec.Report(l.Run(ctx, rec), RunInfo{}, "")
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
