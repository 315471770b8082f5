package run

import (
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// TestBannerNamesTheHosts: the banner says where the load goes, so a list pointed at the
// wrong stack shows before the run, not in the server's logs afterwards.
func TestBannerNamesTheHosts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		urls []string
		want string
	}{
		{"one host", []string{"http://127.0.0.1:8101/wiki/A", "http://127.0.0.1:8101/wiki/B?x=1"},
			"** 20 users, 10 requests each, over 2 URLs on http://127.0.0.1:8101\n"},
		{"two hosts, in the list's order", []string{"https://b.example/", "http://a.example:8080/x", "https://b.example/y"},
			"** 20 users, 10 requests each, over 3 URLs on https://b.example and http://a.example:8080\n"},
		{"many hosts", []string{"http://a/", "http://b/", "http://c/", "http://d/", "http://e/"},
			"** 20 users, 10 requests each, over 5 URLs on http://a, http://b, http://c and 2 more hosts\n"},
		{"no password shown", []string{"http://bob:secret@127.0.0.1:8101/"},
			"** 20 users, 10 requests each, over 1 URL on http://127.0.0.1:8101\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := Spec{Config: loader.Config{Users: 20, Reps: 10}}
			for _, u := range tt.urls {
				s.Targets = append(s.Targets, urls.Target{Method: "GET", URL: u})
			}
			got := banner(&s)
			if !strings.Contains(got, tt.want) {
				t.Errorf("banner:\n%s\nwant the line %q", got, tt.want)
			}
		})
	}
}

// TestBannerSaysWhereConnectionsGo: with hosts mapped elsewhere (curl's --resolve and
// --connect-to), the banner names the address each mapped host's connections go to, and warns
// of a mapping no URL uses, such as one with the https port for http URLs.
func TestBannerSaysWhereConnectionsGo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name               string
		urls               []string
		resolve, connectTo []string
		proxy              string
		want               string // the lines between the plan and "Loading..."
	}{
		{"nothing mapped", []string{"http://shop.example/"}, nil, nil, "", ""},
		{"one host resolved", []string{"https://www.example.com/a", "https://www.example.com/b", "https://cdn.example.com/c"},
			[]string{"www.example.com:443:10.0.0.5"}, nil, "",
			"** https://www.example.com connects to 10.0.0.5:443\n"},
		{"several addresses", []string{"http://shop.example:8080/"}, []string{"shop.example:8080:127.0.0.2,[::1]"}, nil, "",
			"** http://shop.example:8080 connects to 127.0.0.2:8080 (then [::1]:8080)\n"},
		{"connect-to", []string{"https://www.example.com/"}, nil, []string{"www.example.com:443:node2.lb:8443"}, "",
			"** https://www.example.com connects to node2.lb:8443\n"},
		{"the wrong port", []string{"http://www.example.com/"}, []string{"www.example.com:443:10.0.0.5"}, nil, "",
			"** warning: \"www.example.com:443:10.0.0.5\" maps none of the URLs' hosts and ports (only redirects and resources could use it)\n"},
		{"through a proxy", []string{"http://www.example.com/"}, []string{"www.example.com:80:10.0.0.5"}, []string{"www.example.com:80:node2.lb:"}, "http://proxy.test:3128",
			"** http://www.example.com tunnels through the proxy to node2.lb:80\n" +
				"** the proxy resolves the URLs' host names: a mapping to an address applies only to the proxy's own\n"},
		{"many hosts", []string{"http://a/", "http://b/", "http://c/", "http://d/", "http://e/"}, []string{"*:80:127.0.0.1"}, nil, "",
			"** http://a connects to 127.0.0.1:80\n** http://b connects to 127.0.0.1:80\n** http://c connects to 127.0.0.1:80\n" +
				"** and 2 more hosts connect elsewhere\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := Spec{Config: loader.Config{Users: 20, Reps: 10, Resolve: tt.resolve, ConnectTo: tt.connectTo, Proxy: tt.proxy}}
			for _, u := range tt.urls {
				s.Targets = append(s.Targets, urls.Target{Method: "GET", URL: u})
			}
			got := banner(&s)
			_, rest, _ := strings.Cut(got, " each, over ")
			_, rest, _ = strings.Cut(rest, "\n")
			routes, _, _ := strings.Cut(rest, "Loading...")
			if routes != tt.want {
				t.Errorf("banner:\n%s\nwant between the plan and Loading:\n%s", got, tt.want)
			}
		})
	}
}

// TestBannerNamesTheDatabases: the banner says which databases the run reads, and how often,
// with their passwords hidden.
func TestBannerNamesTheDatabases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		dsns     []string
		interval time.Duration
		want     []string
	}{
		{"none", nil, time.Second, nil},
		{"one, every second", []string{"mysql://webload:s3cret-word@127.0.0.1:3306/"}, time.Second,
			[]string{"** reading the database mysql://webload:xxxxx@127.0.0.1:3306/ before, every 1s during and after the run\n"}},
		{"two, password parameter", []string{"mysql://db1:3306/", "postgres://h:5432/shop?user=u&password=s3cret-word"}, 500 * time.Millisecond,
			[]string{"** reading the database mysql://db1:3306/ before, every 500ms during and after the run\n",
				"** reading the database postgres://h:5432/shop?user=u&password=xxxxx before, every 500ms during and after the run\n"}},
		{"no interval", []string{"postgres://h/shop"}, 0,
			[]string{"** reading the database postgres://h/shop before and after the run\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := Spec{Config: loader.Config{Users: 1, Reps: 1}, Interval: tt.interval,
				Targets: []urls.Target{{Method: "GET", URL: "http://127.0.0.1:8101/"}}}
			for _, d := range tt.dsns {
				target, err := dbload.ParseTarget(d)
				if err != nil {
					t.Fatal(err)
				}
				s.Databases = append(s.Databases, target)
			}
			got := banner(&s)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("banner:\n%s\nwant the line %q", got, w)
				}
			}
			if n := strings.Count(got, "database"); n != len(tt.want) {
				t.Errorf("banner names %d databases, want %d:\n%s", n, len(tt.want), got)
			}
			if strings.Contains(got, "s3cret-word") {
				t.Errorf("the password shows:\n%s", got)
			}
		})
	}
}

// TestBannerNamesSessions: the banner names the data file (its rows and pick, never a value)
// and the login file, so a run about to log in with the wrong accounts shows before it starts.
func TestBannerNamesSessions(t *testing.T) {
	t.Parallel()
	login := []urls.Target{{Method: "GET", URL: "http://h/login"}, {Method: "POST", URL: "http://h/login"}, {Method: "GET", URL: "http://h/sso"}}
	tests := []struct {
		name     string
		sessions Sessions
		login    []urls.Target
		relogin  int
		want     string // the lines between the plan and "Loading..."
	}{
		{"none", Sessions{}, nil, 0, ""},
		{"--login only, as before", Sessions{}, login[:1], 0, ""},
		{"data and login file", Sessions{DataFile: "users.csv", DataRows: 10, DataPick: "sequential", LoginFile: "login.txt", LoginSteps: 2}, login[:2], 0,
			"** data: users.csv, 10 rows, sequential\n** login: 2 steps from login.txt\n"},
		{"one row, a --login after the file, relogin", Sessions{DataFile: "u.csv", DataRows: 1, DataPick: "random", LoginFile: "login.txt", LoginSteps: 2}, login, 50,
			"** data: u.csv, 1 row, random\n** login: 2 steps from login.txt and 1 from --login, again after every 50 URLs\n"},
		{"data alone", Sessions{DataFile: "u.csv", DataRows: 3, DataPick: "unique"}, nil, 0, "** data: u.csv, 3 rows, unique\n"},
		{"relogin with --login only", Sessions{}, login[:1], 5, "** login: 1 step from --login, again after every 5 URLs\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := Spec{Config: loader.Config{Users: 2, Reps: 1, Login: tt.login, ReloginEvery: tt.relogin}, Sessions: tt.sessions,
				Targets: []urls.Target{{Method: "GET", URL: "http://h/"}}}
			got := banner(&s)
			_, rest, _ := strings.Cut(got, "over 1 URL on http://h\n")
			between, _, _ := strings.Cut(rest, "Loading...")
			if between != tt.want {
				t.Errorf("banner:\n%s\nwant between the plan and Loading:\n%s", got, tt.want)
			}
		})
	}
}
