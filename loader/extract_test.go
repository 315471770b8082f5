package loader

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

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
					got = append(got, fmt.Sprintf("%d:%d:%s:%v", r.Target, r.Status, r.Err, r.Extracted))
				}
			}
			want := []string{"0:200:none:true", "1:200:none:false", "0:200:extract:true", "1:0:extract:false", "0:200:extract:true", "1:0:extract:false"}
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
	var got string
	for _, p := range out.Content {
		if p != nil {
			got += fmt.Sprintf("%+v", *p)
		}
	}
	if strings.Contains(got, token) || strings.Contains(got, password) || !strings.Contains(got, "Edit") {
		t.Errorf("content fingerprints: %s", got)
	}
}

// TestExtractReadsTheFinalAnswer: the rules read what the URL answered in the end, past the
// redirects the run follows; without following them, the redirect itself.
func TestExtractReadsTheFinalAnswer(t *testing.T) {
	t.Parallel()
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/go":
			w.Header().Set("Location", "/landing")
			w.WriteHeader(http.StatusFound)
			fmt.Fprint(w, "token=hop;")
		case "/landing":
			fmt.Fprint(w, "token=page;")
		}
	})
	for _, tc := range []struct {
		name, rule string
		follow     bool
		want       string // the request the value led to
	}{
		{"past followed redirects", `regex:token=(\w+);`, true, "GET /use?t=page"},
		{"redirect not followed", `regex:token=(\w+);`, false, "GET /use?t=hop"},
		{"header of the redirect", "header:Location", false, "GET /use?t=%2Flanding"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, targets := perUserFiles(t, nil, "", "#@extract token "+tc.rule+"\n"+site.URL+"/go\n"+site.URL+"/use?t=$(token)\n")
			before := site.count(tc.want)
			results, _ := run(t, Config{Users: 1, Reps: 2, FollowRedirects: tc.follow}, targets)
			if n := site.count(tc.want) - before; n != 1 {
				t.Errorf("%q sent %d times; server saw %v", tc.want, n, site.snapshot())
			}
			extracted := 0
			for _, r := range results {
				if r.Extracted {
					extracted++
					if r.Err != ErrNone || r.Target != 0 || r.Redirected() != !tc.follow {
						t.Errorf("extracted from %+v", r)
					}
				}
			}
			if extracted != 1 {
				t.Errorf("%d answers extracted from, want 1", extracted)
			}
		})
	}
}

// TestMissedPageIsStillAPage: a page whose rule found nothing arrived whole all the same: its
// resources are fetched and its bytes count in its visit.
func TestMissedPageIsStillAPage(t *testing.T) {
	t.Parallel()
	const page = `<html><body><img src="/logo.png"></body></html>`
	site := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/page" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		}
	})
	_, targets := perUserFiles(t, nil, "", "#@extract token regex:token=(\\w+)\n"+site.URL+"/page\n")
	results, _ := run(t, Config{Users: 1, Reps: 1, Parser: true}, targets)
	if n := site.count("GET /logo.png"); n != 1 {
		t.Errorf("the page's image fetched %d times, want 1", n)
	}
	for _, r := range results {
		if r.Kind == KindPage && (r.Err != ErrExtract || r.Status != 200 || r.BodyBytes < int64(len(page))) {
			t.Errorf("page %+v, want a 200 failed as extract, with its %d bytes", r, len(page))
		}
	}
}
