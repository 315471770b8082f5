package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/webload/webload/internal/wikisite"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/userdata"
)

// startWiki serves a wiki whose accounts are the rows of the data file at path.
func startWiki(t *testing.T, path string) (*wikisite.Site, map[string]string) {
	t.Helper()
	data, err := userdata.Read(path, userdata.Sequential)
	if err != nil {
		t.Fatal(err)
	}
	accounts := map[string]string{}
	for i := range data.Len() {
		row := data.Row(i, nil)
		accounts[row[0]] = row[1]
	}
	site, err := wikisite.Start(accounts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	return site, accounts
}

// noSecret fails the test when any password shows in any of the outputs.
func noSecret(t *testing.T, accounts map[string]string, outputs map[string]string) {
	t.Helper()
	for name, out := range outputs {
		for user, pass := range accounts {
			if strings.Contains(out, pass) {
				t.Errorf("%s shows %s's password", name, user)
			}
		}
	}
}

// urlRow finds the per-URL row of method and the URL as written.
func urlRow(t *testing.T, rep *stats.Report, method, url string) stats.URLStats {
	t.Helper()
	for _, u := range rep.URLs {
		if u.Method == method && u.URL == url {
			return u
		}
	}
	var have []string
	for _, u := range rep.URLs {
		have = append(have, u.Method+" "+u.URL)
	}
	t.Fatalf("no row for %s %s; rows:\n%s", method, url, strings.Join(have, "\n"))
	return stats.URLStats{}
}

// TestLoginExampleLogsEveryUserIn runs examples/login as its README says, against a loopback
// wiki: ten users log in through the token form as the ten accounts of users.csv, stay logged
// in for their pages, and no password shows in any output.
func TestLoginExampleLogsEveryUserIn(t *testing.T) {
	t.Parallel()
	dir, out := filepath.Join("..", "..", "examples", "login"), t.TempDir()
	site, accounts := startWiki(t, filepath.Join(dir, "users.csv"))
	jsonFile, htmlFile, csvFile, logFile := filepath.Join(out, "run.json"), filepath.Join(out, "run.html"), filepath.Join(out, "requests.csv"), filepath.Join(out, "siege.log")
	stdout, stderr, code := webload(t, map[string]string{"WIKI": site.URL()}, "-v", "-c", "10", "-r", "3",
		"--data", filepath.Join(dir, "users.csv"), "--login-file", filepath.Join(dir, "login.txt"), "-f", filepath.Join(dir, "urls.txt"),
		"-o", jsonFile, "--html", htmlFile, "--csv", csvFile, "-l", logFile)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"** data: " + filepath.Join(dir, "users.csv") + ", 10 rows, sequential\n",
		"** login: 2 steps from " + filepath.Join(dir, "login.txt") + "\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the banner lacks %q:\n%s", want, stderr)
		}
	}
	logins, views := site.Logins(), site.Views()
	for user := range accounts {
		if logins[user] != 1 || views[user] != 2 {
			t.Errorf("%s: %d logins and %d logged-in pages, want 1 and 2 (Preferences, Watchlist)", user, logins[user], views[user])
		}
	}
	if n, r := site.FailedLogins(), site.Refused(); n != 0 || r != 0 {
		t.Errorf("%d failed logins, %d pages refused, want none", n, r)
	}

	rep, err := stats.ReadJSON(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Run.DataFile != filepath.Join(dir, "users.csv") || rep.Run.DataPick != "sequential" || rep.Run.LoginFile != filepath.Join(dir, "login.txt") {
		t.Errorf("the result's run: data %q %q, login %q", rep.Run.DataFile, rep.Run.DataPick, rep.Run.LoginFile)
	}
	if rep.FailedTransactions != 0 {
		t.Errorf("%d failures: %v %v", rep.FailedTransactions, rep.Errors, rep.ErrorSamples)
	}
	// One row per line as written, however many users filled it in.
	for _, title := range []string{"Special:Preferences", "Special:Watchlist", "User:$(user)&action=edit"} {
		u := urlRow(t, &rep, "GET", site.URL()+"/index.php?title="+title)
		if u.Hits != 10 || u.StatusCodes["200"] != 10 {
			t.Errorf("%s: %d hits, statuses %v; want 10 answered 200", title, u.Hits, u.StatusCodes)
		}
	}
	post := urlRow(t, &rep, "POST", site.URL()+"/index.php?title=Special:UserLogin&returnto=Main+Page")
	// Each POST redirects to the main page, which counts on the POST's row as redirects do.
	if post.StatusCodes["302"] != 10 || post.StatusCodes["200"] != 10 || post.Failures != 0 {
		t.Errorf("the login POST: statuses %v, %d failures; want 10 redirects to 10 pages and no failure", post.StatusCodes, post.Failures)
	}
	outputs := map[string]string{"stdout": stdout, "stderr": stderr}
	for _, path := range []string{jsonFile, htmlFile, csvFile, logFile} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		outputs[filepath.Base(path)] = string(b)
	}
	noSecret(t, accounts, outputs)
}

// writeLoginRun writes a data file of n accounts userI (see wikiAccounts) and the login and URL
// files of a wiki at base, the login file's extract rule being extract; it returns their paths.
func writeLoginRun(t *testing.T, base string, n int, extract string) (data, login, list string) {
	t.Helper()
	accounts := wikiAccounts(n)
	dir := writeFiles(t, map[string]string{
		"users.csv": usersCSV(n, func(i int) string { return accounts[fmt.Sprintf("user%d", i)] }),
		"login.txt": "W=" + base + "/index.php?title=Special:UserLogin\n#@extract token " + extract + "\n$(W)\n" +
			"$(W) POST wpName=$(user)&wpPassword=$(pass)&wpLoginToken=$(token)\n",
		"urls.txt": base + "/index.php?title=Special:Preferences\n",
	})
	return filepath.Join(dir, "users.csv"), filepath.Join(dir, "login.txt"), filepath.Join(dir, "urls.txt")
}

// wikiAccounts are n accounts userI with the passwords secret-I-Lantern.
func wikiAccounts(n int) map[string]string {
	accounts := map[string]string{}
	for i := range n {
		accounts[fmt.Sprintf("user%d", i)] = fmt.Sprintf("secret-%d-Lantern", i)
	}
	return accounts
}

// TestFailedExtractionFailsTheLogin: a token the form does not have fails the form's request as
// kind extract, with its message, and so the login: the POST that needs it is not made, the wiki
// sees no login attempt, and the logged-in page is not sent but fails as kind login.
func TestFailedExtractionFailsTheLogin(t *testing.T) {
	t.Parallel()
	site, err := wikisite.Start(wikiAccounts(2))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	data, login, list := writeLoginRun(t, site.URL(), 2, "css:input[name=wpLoginTokn] value")
	jsonFile := filepath.Join(t.TempDir(), "run.json")
	stdout, stderr, code := webload(t, nil, "-q", "-c", "2", "-r", "1", "--data", data, "--login-file", login, "-f", list, "-o", jsonFile)
	// Every request failed (the page too, refused to a user never logged in): exit 1, said.
	if code != exitGateFailed || !strings.HasPrefix(stderr, "webload: no request succeeded (") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	rep, err := stats.ReadJSON(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	if n, m := rep.Errors["extract"], rep.Errors["login"]; n != 2 || m != 2 {
		t.Errorf("%d failures of kind extract and %d of kind login, want 2 (the forms) and 2 (the pages); errors %v", n, m, rep.Errors)
	}
	if msg := rep.ErrorSamples["extract"]; !strings.Contains(msg, "token") {
		t.Errorf("the extract failures' message %q does not name the value", msg)
	}
	form := urlRow(t, &rep, "GET", site.URL()+"/index.php?title=Special:UserLogin")
	post := urlRow(t, &rep, "POST", site.URL()+"/index.php?title=Special:UserLogin")
	if form.Failures != 2 || post.Failures+post.Hits != 0 {
		t.Errorf("form: %d failures; POST: %d failures, %d hits; want 2 and none made", form.Failures, post.Failures, post.Hits)
	}
	if l := rep.Logins; l == nil || l.Made == nil || *l.Made != 0 || l.FailedLogins != 2 || l.NeverLoggedIn != 2 {
		t.Errorf("logins %+v: want 2 failed, 2 users never logged in", l)
	}
	if n := site.FailedLogins(); n != 0 || len(site.Logins()) != 0 || site.Refused() != 0 {
		t.Errorf("the wiki saw %d failed logins, logins %v and refused %d pages; want none", n, site.Logins(), site.Refused())
	}
	noSecret(t, wikiAccounts(2), map[string]string{"stdout": stdout, "stderr": stderr})
}

// TestRandomPickLogsInWithRowsReused: twenty users drawing from five accounts all log in, with
// the accounts reused and not dealt out in turn; the same seed draws the same rows again.
func TestRandomPickLogsInWithRowsReused(t *testing.T) {
	t.Parallel()
	run := func() map[string]int {
		site, err := wikisite.Start(wikiAccounts(5))
		if err != nil {
			t.Fatal(err)
		}
		defer site.Close()
		data, login, list := writeLoginRun(t, site.URL(), 5, "css:input[name=wpLoginToken] value")
		stdout, stderr, code := webload(t, nil, "-c", "20", "-r", "1", "--seed", "7", "--data", data, "--data-pick", "random", "--login-file", login, "-f", list)
		if code != 0 || !strings.Contains(stderr, ", 5 rows, random\n") {
			t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
		}
		if n := site.FailedLogins(); n != 0 || site.Refused() != 0 {
			t.Errorf("%d failed logins, %d pages refused; want none", n, site.Refused())
		}
		return site.Logins()
	}
	logins := run()
	total, even := 0, true
	for _, n := range logins {
		total += n
		even = even && n == 4
	}
	if total != 20 || even || len(logins) > 5 {
		t.Errorf("logins %v: want 20 over at most 5 accounts, not 4 each as in turn", logins)
	}
	if again := run(); fmt.Sprint(again) != fmt.Sprint(logins) {
		t.Errorf("the same seed logged in %v, then %v", logins, again)
	}
}

// TestRefusedLoginIsAFailure: a wrong password, which MediaWiki answers with the form again and
// status 200, fails the example's login POST by its #@check, and so the login: the user's pages
// are not sent logged out but fail as kind login, and the user tries to log in again before
// each of them.
func TestRefusedLoginIsAFailure(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "examples", "login")
	site, err := wikisite.Start(map[string]string{"Loadtest1": "another password"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	jsonFile := filepath.Join(t.TempDir(), "run.json")
	stdout, stderr, code := webload(t, map[string]string{"WIKI": site.URL()}, "-q", "-c", "1", "-r", "2",
		"--data", filepath.Join(dir, "users.csv"), "--login-file", filepath.Join(dir, "login.txt"), "-f", filepath.Join(dir, "urls.txt"), "-o", jsonFile)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	rep, err := stats.ReadJSON(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	post := urlRow(t, &rep, "POST", site.URL()+"/index.php?title=Special:UserLogin&returnto=Main+Page")
	if post.CheckFailures != 2 || !strings.Contains(post.CheckFailure, "errorbox") {
		t.Errorf("the refused logins: %d check failures (%q), want 2 naming the check", post.CheckFailures, post.CheckFailure)
	}
	if site.FailedLogins() != 2 || site.Refused() != 0 || rep.Errors["login"] != 2 {
		t.Errorf("the wiki saw %d failed logins and refused %d pages, %d pages failed as kind login; want 2, 0 and 2",
			site.FailedLogins(), site.Refused(), rep.Errors["login"])
	}
}

// TestReloginEvery: each user logs in again after every two of its pages, with a new session
// each time, and every page is answered logged in.
func TestReloginEvery(t *testing.T) {
	t.Parallel()
	site, err := wikisite.Start(wikiAccounts(2))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	data, login, list := writeLoginRun(t, site.URL(), 2, "css:input[name=wpLoginToken] value")
	stdout, stderr, code := webload(t, nil, "-c", "2", "-r", "6", "--relogin-every", "2", "--data", data, "--login-file", login, "-f", list)
	if code != 0 || !strings.Contains(stderr, "** login: 2 steps from "+login+", again after every 2 URLs\n") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	// Before pages 1, 3 and 5; none after the last page, which no page follows.
	if got := site.Logins(); got["user0"] != 3 || got["user1"] != 3 {
		t.Errorf("logins %v, want 3 each", got)
	}
	if got := site.Views(); got["user0"] != 6 || got["user1"] != 6 || site.Refused() != 0 || site.FailedLogins() != 0 {
		t.Errorf("views %v, %d refused, %d failed logins; want 6 each and none", got, site.Refused(), site.FailedLogins())
	}
}

// TestUniquePickGivesEachUserItsOwnAccount: as many users as rows, each logs in once as its
// own account.
func TestUniquePickGivesEachUserItsOwnAccount(t *testing.T) {
	t.Parallel()
	site, err := wikisite.Start(wikiAccounts(3))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = site.Close() })
	data, login, list := writeLoginRun(t, site.URL(), 3, "css:input[name=wpLoginToken] value")
	if stdout, stderr, code := webload(t, nil, "-q", "-c", "3", "-r", "1", "--data", data, "--data-pick", "unique", "--login-file", login, "-f", list); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if got := site.Logins(); len(got) != 3 || got["user0"] != 1 || got["user1"] != 1 || got["user2"] != 1 {
		t.Errorf("logins %v, want each account once", got)
	}
}

// TestHeaderTakesEachUsersValue: a -H value that names a data column and one the login file
// extracts is filled for each user: the server sees each account's own header.
func TestHeaderTakesEachUsersValue(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/token" {
			fmt.Fprint(w, `{"csrf":"t-`+r.URL.Query().Get("u")+`"}`)
			return
		}
		mu.Lock()
		seen[r.Header.Get("X-Account")]++
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	dir := writeFiles(t, map[string]string{
		"users.csv": usersCSV(3, func(i int) string { return fmt.Sprintf("pw-%d", i) }),
		"login.txt": "#@extract csrf json:csrf\n" + srv.URL + "/token?u=$(user)\n",
		"urls.txt":  srv.URL + "/account\n",
	})
	stdout, stderr, code := webload(t, nil, "-q", "--no-parser", "-c", "3", "-r", "2", "-H", "X-Account: $(user) $(csrf)",
		"--data", filepath.Join(dir, "users.csv"), "--login-file", filepath.Join(dir, "login.txt"), "-f", filepath.Join(dir, "urls.txt"))
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	want := map[string]int{"user0 t-user0": 2, "user1 t-user1": 2, "user2 t-user2": 2}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("the pages saw X-Account %v, want %v", seen, want)
	}
}

// TestURLFileFlow: a URL file carries a flow: each user adds to a cart, then views the cart it
// got, by the id its own answer gave. The cart's line stays one row as written.
func TestURLFileFlow(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	carts := map[string]int{} // cart -> views
	made := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/cart/add" && r.Method == http.MethodPost {
			made++
			id := fmt.Sprintf("c%d", made)
			carts[id] = 0
			fmt.Fprintf(w, `{"cart_id":%q}`, id)
			return
		}
		id, ok := strings.CutPrefix(r.URL.Path, "/cart/")
		if _, exists := carts[id]; !ok || !exists {
			http.NotFound(w, r)
			return
		}
		carts[id]++
	}))
	t.Cleanup(srv.Close)
	dir := writeFiles(t, map[string]string{"urls.txt": "SITE=" + srv.URL + "\n#@extract cart_id json:cart_id\n$(SITE)/cart/add POST item=1\n$(SITE)/cart/$(cart_id)\n"})
	jsonFile := filepath.Join(dir, "run.json")
	stdout, stderr, code := webload(t, nil, "-q", "--no-parser", "-c", "5", "-r", "4", "-f", filepath.Join(dir, "urls.txt"), "-o", jsonFile)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	mu.Lock()
	for id, views := range carts {
		if views != 1 {
			t.Errorf("cart %s viewed %d times, want once, by the user that made it", id, views)
		}
	}
	if len(carts) != 10 {
		t.Errorf("%d carts made, want 10 (5 users, 2 each)", len(carts))
	}
	mu.Unlock()
	rep, err := stats.ReadJSON(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	if u := urlRow(t, &rep, "GET", srv.URL+"/cart/$(cart_id)"); u.Hits != 10 || u.StatusCodes["200"] != 10 {
		t.Errorf("the cart's row: %d hits, statuses %v; want 10 answered 200", u.Hits, u.StatusCodes)
	}
}
