package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/webload/webload/stats"
)

// echoForms is v as a page may print it: as written, HTML-escaped, %-escaped as a query and as
// a path, JSON-escaped.
func echoForms(v string) []string {
	j, _ := json.Marshal(v)
	return []string{v, html.EscapeString(v), url.QueryEscape(v), url.PathEscape(v), string(j[1 : len(j)-1])}
}

// secretEchoSite serves a catalogue page at /page/N. With leak set, the page also prints each
// secret in each of its forms and the session cookie it gave, and every fourth answer of a
// path is instead a debugging page that prints them starting with secret N, so that each leads
// some page's excerpt. Every answer sets the cookie.
func secretEchoSite(t *testing.T, cookie string, secrets []string, leak *atomic.Bool) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	seen := map[string]int{}
	all := append(secrets, cookie)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: cookie, Path: "/"})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		mu.Lock()
		seen[r.URL.Path]++
		n := seen[r.URL.Path]
		mu.Unlock()
		fmt.Fprint(w, "<html><body>\n")
		if leak.Load() && n%4 == 0 {
			first, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/page/"))
			fmt.Fprint(w, "<p>Debug dump of the request</p>\n")
			for i := range all {
				fmt.Fprintf(w, "<p>seen %s</p>\n", strings.Join(echoForms(all[(first+i)%len(all)]), " and "))
			}
			fmt.Fprint(w, "</body></html>\n")
			return
		}
		for i := range 20 {
			fmt.Fprintf(w, "<li>catalogue entry number %d of the shop</li>\n", i)
		}
		if leak.Load() {
			for _, v := range all {
				fmt.Fprintf(w, "<p>echo %s</p>\n", strings.Join(echoForms(v), " and "))
			}
		}
		fmt.Fprint(w, "</body></html>\n")
	}))
	t.Cleanup(s.Close)
	return s
}

// A page that prints the run's credentials (the -u password and its basic-auth pair, a secret
// header's value, the --db password and sslpassword, a --data value, the cookie the site
// gave) as written, HTML-escaped, %-escaped or JSON-escaped shows none of them in any output:
// not the text report, the -o JSON (its odd excerpt and fingerprint segments, its error
// samples), the HTML report, compare or -C; "#secret" stands in their place.
func TestPageEchoingSecretsHidesThem(t *testing.T) {
	t.Parallel()
	const (
		userPass = `U&p ss'w/d+"alpha`
		apiKey   = `k3y/value&"beta`
		dbPass   = `db p@ss/w&rd"gamma`
		sslPass  = `ssl-key p&ss'delta`
		dataTok  = `data t/k&n"epsilon`
		cookie   = "ck-sessionvalue-zeta"
	)
	secrets := []string{userPass, apiKey, dbPass, sslPass, dataTok}
	var leak atomic.Bool
	site := secretEchoSite(t, cookie, secrets, &leak)
	dir := t.TempDir()
	data := filepath.Join(dir, "users.csv")
	if err := os.WriteFile(data, []byte("name,token\nalice,\""+strings.ReplaceAll(dataTok, `"`, `""`)+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dsn := (&url.URL{Scheme: "postgres", User: url.UserPassword("webload", dbPass), Host: closedAddr(t), Path: "/webload",
		RawQuery: "sslmode=disable&sslpassword=" + url.QueryEscape(sslPass)}).String()

	list := filepath.Join(dir, "urls.txt")
	var lines strings.Builder
	for i := range len(secrets) + 1 {
		fmt.Fprintf(&lines, "%s/page/%d?who=$(name)&t=$(token)\n", site.URL, i)
	}
	if err := os.WriteFile(list, []byte(lines.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(name string) (json, stdout, stderr string) {
		out := filepath.Join(dir, name+".json")
		// 8 answers of each page: the fewest whose content compare judges.
		stdout, stderr, code := webload(t, nil, "-c", "1", "-r", strconv.Itoa(8*(len(secrets)+1)), "--label", name, "-o", out,
			"-u", "bob:"+userPass, "-H", "X-Api-Key: "+apiKey, "--db", dsn, "--data", data, "-f", list)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", name, code, stdout, stderr)
		}
		return out, stdout, stderr
	}
	before, out1, err1 := run("before")
	leak.Store(true)
	after, out2, err2 := run("after")

	rep, err := stats.ReadJSON(after)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, u := range rep.URLs {
		if u.Content == nil {
			continue
		}
		kept = append(kept, u.Content.OddExcerpt)
		for _, sg := range u.Content.Segments() {
			kept = append(kept, sg.Text)
		}
	}
	for _, want := range []string{"seen #secret and #secret", "echo #secret and #secret"} {
		if !strings.Contains(strings.Join(kept, "\n"), want) {
			t.Fatalf("the fingerprints lack %q: did they keep the page that shows the secrets?\n%s", want, strings.Join(kept, "\n"))
		}
	}
	for k, v := range rep.ErrorSamples {
		kept = append(kept, k+": "+v)
	}

	compare, cerr, code := webload(t, nil, "compare", before, after)
	if code > 1 || !strings.Contains(compare, "#secret") {
		t.Errorf("compare: exit %d, want the debugging page named with its secrets hidden\n%s%s", code, compare, cerr)
	}
	page := filepath.Join(dir, "compare.html")
	if stdout, stderr, code := webload(t, nil, "report", "--html", page, before, after); code != 0 {
		t.Fatalf("report: exit %d\n%s%s", code, stdout, stderr)
	}
	config, cferr, code := webload(t, nil, "-C", "-u", "bob:"+userPass, "-H", "X-Api-Key: "+apiKey, "--db", dsn, "--data", data, "-f", list)
	if code != 0 || !strings.Contains(config, "sslpassword=xxxxx") {
		t.Errorf("-C: exit %d, want the DSN with its sslpassword hidden\n%s%s", code, config, cferr)
	}
	outputs := map[string]string{
		"-C":                   config + cferr,
		"the first run's text": out1 + err1, "the second run's text": out2 + err2,
		"the JSON": readFile(t, before) + readFile(t, after), "the fingerprints": strings.Join(kept, "\n"),
		"compare": compare + cerr, "the HTML report": readFile(t, page),
	}
	shows := map[string][]string{"the cookie": {cookie}, "the basic-auth pair": {base64.StdEncoding.EncodeToString([]byte("bob:" + userPass))}}
	for i, v := range secrets {
		shows[fmt.Sprintf("secret %d", i)] = echoForms(v)
	}
	for where, text := range outputs {
		for what, forms := range shows {
			for _, f := range forms {
				if strings.Contains(text, f) {
					t.Errorf("%s shows %s as %q", where, what, f)
				}
			}
		}
	}
}
