package dbsite

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/dbtest"
)

// server is a database the site is tested on: count reads how many statements the server has
// run for its clients by its own count, less what the readings cost; sessions how many
// connections the site's account has open.
type server struct {
	dsn      string
	count    func(t *testing.T) int64
	sessions func(t *testing.T) int64
}

// pageCases are the pages and shapes both databases are tested with.
var pageCases = []struct {
	name  string
	opts  Options
	path  string
	want  int64
	shows string
}{
	{"fixed, one statement", Options{}, "/item?id=3", 1, "item 3"},
	{"fixed, two statements", Options{PerItem: 2}, "/item?id=3", 2, "part 3 of item 3"},
	{"N+1 over three parts", Options{NPlusOne: true}, "/item?id=4", 4, "part 2 of item 4"},
	{"N+1 over five parts", Options{NPlusOne: true, Parts: 5}, "/item?id=2", 6, "part 5 of item 2"},
	{"the list", Options{}, "/list", 1, "item 20"},
}

// TestSiteStatements runs each page against MariaDB and PostgreSQL and checks that the server
// counted the statements the page is said to run, and the page shows what it read; the N+1
// page is the two-statement one's; once the sites are closed, none of their connections is
// left.
func TestSiteStatements(t *testing.T) {
	t.Parallel()
	servers := map[string]func(t *testing.T) server{
		"mariadb": func(t *testing.T) server {
			s := dbtest.MariaDB(t)
			questions := func(t *testing.T) int64 {
				return atoi(t, strings.Fields(s.Exec(t, "SHOW GLOBAL STATUS LIKE 'Questions'"))[1])
			}
			// Reading Questions costs statements of the client's own: measure how many, and
			// leave them out of every reading after.
			a := questions(t)
			cost := questions(t) - a
			readings := int64(0)
			return server{
				dsn: s.DSN,
				count: func(t *testing.T) int64 {
					readings++
					return questions(t) - cost*readings
				},
				sessions: func(t *testing.T) int64 {
					return atoi(t, s.Exec(t, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = '"+dbtest.User+"'"))
				},
			}
		},
		"postgres": func(t *testing.T) server {
			s := dbtest.Postgres(t, dbtest.PostgresOptions{StatStatements: true})
			return server{
				dsn: s.DSN,
				count: func(t *testing.T) int64 {
					// The site's statements are the ones that read its tables.
					return atoi(t, s.Exec(t, "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query LIKE 'SELECT % FROM dbsite!_%' ESCAPE '!'"))
				},
				sessions: func(t *testing.T) int64 {
					return atoi(t, s.Exec(t, "SELECT count(*) FROM pg_stat_activity WHERE application_name = '"+ApplicationName+"'"))
				},
			}
		},
	}
	for kind, start := range servers {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			srv := start(t)
			for _, c := range pageCases {
				t.Run(c.name, func(t *testing.T) {
					opts := c.opts
					opts.DSN = srv.dsn
					site, err := Start(context.Background(), opts)
					if err != nil {
						t.Fatal(err)
					}
					defer site.Close()
					if n := srv.sessions(t); n != Conns {
						t.Errorf("%d connections open after Start, want %d", n, Conns)
					}
					before := srv.count(t)
					body := get(t, site.URL()+c.path)
					if got := srv.count(t) - before; got != c.want {
						t.Errorf("the server counted %d statements, want %d", got, c.want)
					}
					if got := site.Statements(); got != c.want {
						t.Errorf("the site counted %d statements, want %d", got, c.want)
					}
					if !strings.Contains(body, c.shows) {
						t.Errorf("the page does not show %q:\n%s", c.shows, body)
					}
				})
			}
			// The N+1 shape serves the page the two-statement shape does, as a stack whose ORM
			// went lazy does; only the statements differ.
			page := func(opts Options) string {
				opts.DSN = srv.dsn
				site, err := Start(context.Background(), opts)
				if err != nil {
					t.Fatal(err)
				}
				defer site.Close()
				return get(t, site.URL()+"/item?id=7")
			}
			if two, lazy := page(Options{PerItem: 2}), page(Options{NPlusOne: true}); two != lazy || !strings.Contains(two, "part 3 of item 7") {
				t.Errorf("the two shapes' pages differ, or lack the item's parts:\n%s\n%s", two, lazy)
			}
			// The server notices a closed connection as it reads the client's goodbye: wait
			// for it, a bounded number of times.
			n := srv.sessions(t)
			for i := 0; n > 0 && i < 50; i++ {
				time.Sleep(100 * time.Millisecond)
				n = srv.sessions(t)
			}
			if n != 0 {
				t.Errorf("%d of the sites' connections are still open after Close", n)
			}
		})
	}
}

// TestStatementsPerItem pins the shapes' counts, which the acceptance tests multiply.
func TestStatementsPerItem(t *testing.T) {
	t.Parallel()
	for _, c := range pageCases {
		if !strings.HasPrefix(c.path, "/item") {
			continue
		}
		if got := c.opts.StatementsPerItem(); int64(got) != c.want {
			t.Errorf("%s: %d statements per item, want %d", c.name, got, c.want)
		}
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s\n%s", url, resp.Status, b)
	}
	return string(b)
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		t.Fatalf("reading a count from %q: %v", s, err)
	}
	return n
}
