package loader

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/webload/webload/internal/wikisite"
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

// newWiki serves a wikisite with data's accounts on loopback.
func newWiki(t *testing.T, data table) (*wikisite.Site, string) {
	t.Helper()
	passwords := map[string]string{}
	for _, row := range data.rows {
		passwords[row[0]] = row[1]
	}
	site := wikisite.New(passwords)
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	return site, srv.URL
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
			site, base := newWiki(t, data)
			cfg := tc.cfg
			cfg.Data, cfg.Cookies, cfg.FollowRedirects = data, true, true
			cfg.ContentType = "application/x-www-form-urlencoded"
			cfg.Login, cfg.Headers = nil, nil
			var targets []urls.Target
			cfg.Login, targets = perUserFiles(t, data.names, wikiLogin(base), base+"/wiki/Special:Preferences?u=$(user)\n")
			l, results, out := runLoader(t, cfg, targets)

			users, logins := 0, 0
			for _, n := range site.Logins() {
				users, logins = users+1, logins+n
			}
			if want := tc.wantLogins(out); logins != want || users != min(want, out.Users) {
				t.Errorf("%d logins by %d accounts, want %d by %d", logins, users, want, min(want, out.Users))
			}
			if _, again := site.Forms(); again != 0 {
				t.Errorf("%d login forms asked for with a session cookie: a relogin must start with an empty jar", again)
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

// TestReloginForgetsValues: every ReloginEvery visits a user's extracted values are forgotten,
// with plain requests as with visits, so a line that needs one fails until a line takes it
// again.
func TestReloginForgetsValues(t *testing.T) {
	t.Parallel()
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "token=t1;") })
	for _, browser := range []bool{false, true} {
		t.Run(fmt.Sprintf("browser=%v", browser), func(t *testing.T) {
			t.Parallel()
			_, targets := perUserFiles(t, nil, "", "#@extract token regex:token=(\\w+);\n"+site.URL+"/get\n"+
				site.URL+"/use?t=$(token)\n"+site.URL+"/use?t=$(token)\n")
			results, _ := run(t, Config{Users: 1, Reps: 6, ReloginEvery: 2, Cookies: browser}, targets)
			var got []string
			for _, r := range results {
				if r.Kind == KindURL {
					got = append(got, r.Err.String())
				}
			}
			// get, use | use (forgotten), get | use, use (forgotten again)
			if want := "none none extract none extract extract"; strings.Join(got, " ") != want {
				t.Errorf("results %v, want %s", got, want)
			}
		})
	}
}

// rowLog is a UserData that books which users asked for a row.
type rowLog struct {
	table
	mu    sync.Mutex
	asked []int
}

func (d *rowLog) Row(user int, rng *rand.Rand) []string {
	d.mu.Lock()
	d.asked = append(d.asked, user)
	d.mu.Unlock()
	return d.table.Row(user, rng)
}

// TestRowsAcrossShards: the shards of a run take different rows, as one run would.
func TestRowsAcrossShards(t *testing.T) {
	t.Parallel()
	site := newHitServer(t, nil)
	for _, tc := range []struct {
		name string
		cfg  Config
		want []int
	}{
		{"closed model, users 2 and 3 of 4", Config{Users: 4, Reps: 1}, []int{2, 3}},
		{"open model, every other user", Config{Rate: 1e6, MaxUsers: 3, Reps: 40}, []int{1, 3, 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data := &rowLog{table: accounts(10)}
			_, targets := perUserFiles(t, data.names, "", site.URL+"/u/$(user)\n")
			cfg := tc.cfg
			cfg.Data, cfg.Shard, cfg.Shards = data, 1, 2
			run(t, cfg, targets)
			slices.Sort(data.asked)
			if len(data.asked) == 0 || !slices.Equal(data.asked, tc.want[:len(data.asked)]) {
				t.Errorf("rows of users %v, want among %v", data.asked, tc.want)
			}
		})
	}
}

// TestFilledURLIsTheVisitsURL: a visit of a URL filled per user resolves its page's resources
// against the URL as sent, not as written.
func TestFilledURLIsTheVisitsURL(t *testing.T) {
	t.Parallel()
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><img src="avatar.png"></body></html>`)
		}
	})
	data := accounts(2)
	_, targets := perUserFiles(t, data.names, "", site.URL+"/u/$(user)/\n")
	run(t, Config{Users: 2, Reps: 1, Data: data, Parser: true}, targets)
	for _, user := range []string{"user0", "user1"} {
		if n := site.count("GET /u/" + user + "/avatar.png"); n != 1 {
			t.Errorf("%s's avatar fetched %d times; server saw %v", user, n, site.snapshot())
		}
	}
}

// TestFilledBodyFollows307: a 307 redirect resends the method and the body as the user filled
// it.
func TestFilledBodyFollows307(t *testing.T) {
	t.Parallel()
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/post" {
			http.Redirect(w, r, "/done", http.StatusTemporaryRedirect)
		}
	})
	data := accounts(1)
	_, targets := perUserFiles(t, data.names, "", site.URL+"/post POST name=$(user)&pass=$(pass)\n")
	run(t, Config{Users: 1, Reps: 1, Data: data, FollowRedirects: true, ContentType: "application/x-www-form-urlencoded"}, targets)
	want := "name=user0&pass=p%26ss+0%2B%3D"
	if got := site.bodies["/done"]; got != want || site.count("POST /done") != 1 {
		t.Errorf("the redirect's body %q, want %q; server saw %v", got, want, site.snapshot())
	}
}
