package dbload

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/dbtest"
)

// A database that cannot be read fails the reading with an error that names it without the
// password, and a Monitor of it reports failed readings and no figures.
func TestMySQLFailures(t *testing.T) {
	s := dbtest.MariaDB(t)
	port := strings.TrimPrefix(s.Addr, "127.0.0.1:")
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	_ = closed.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	const wrong = "wr0ng-Pa55word"
	for _, tc := range []struct{ name, dsn, secret string }{
		{"wrong password", "mysql://webload:" + wrong + "@127.0.0.1:" + port + "/", wrong},
		{"wrong password parameter", "mysql://webload@127.0.0.1:" + port + "/?password=" + wrong, wrong},
		{"unknown database", "mysql://webload:" + dbtest.Password + "@127.0.0.1:" + port + "/nosuchdb", dbtest.Password},
		{"tls the server does not offer", "mysql://webload:" + dbtest.Password + "@127.0.0.1:" + port + "/?tls=true", dbtest.Password},
		{"closed port", "mysql://webload:" + dbtest.Password + "@" + closedAddr + "/", dbtest.Password},
		// Accepts and never answers: the reading ends with its context.
		{"silent server", "mysql://webload:" + dbtest.Password + "@" + silent.Addr().String() + "/", dbtest.Password},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := openReader(t, tc.dsn)
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			_, err := src.Sample(ctx)
			if err == nil {
				t.Fatal("the reading succeeded")
			}
			if msg := err.Error(); strings.Contains(msg, tc.secret) || !strings.Contains(msg, "reading mysql://webload") {
				t.Errorf("error %q: want the DSN without the password", msg)
			}
		})
	}

	src := openReader(t, s.DSN)
	read(t, src)
	s.Stop()
	if _, err := src.Sample(context.Background()); err == nil {
		t.Fatal("a reading of a stopped server succeeded")
	}
	dead := openReader(t, s.DSN)
	sum := Start(context.Background(), dead, "dead", 0).Stop()
	if sum.Samples != 0 || sum.Failures != 2 || sum.FirstError == "" {
		t.Errorf("%d readings, %d failed (%q), want 0 and 2", sum.Samples, sum.Failures, sum.FirstError)
	}
	if sum.Queries != nil || sum.SlowQueries != nil || sum.BufferHitRatio != nil || len(sum.Series) != 0 {
		t.Errorf("figures from a dead server: %+v", sum)
	}
	if strings.Contains(sum.FirstError, dbtest.Password) {
		t.Errorf("first error %q shows the password", sum.FirstError)
	}
}

// A server that restarts (here: fails over to another, fresh one behind the same address)
// starts its counters again; the reader's readings of it count exactly from then on, however
// many statements the reader had sent to the old one.
func TestMySQLServerRestart(t *testing.T) {
	old, fresh := dbtest.MariaDB(t), dbtest.MariaDB(t)
	freshDB := siteDB(t, fresh.DSN)
	// The fresh server at rest before it takes over: the mariadb clients that set it up say
	// goodbye (COM_QUIT, which Questions counts) when they like, and one landing between the
	// first readings after the restart would spoil a count that must be exact from the first.
	// The reader that waits stays open and idle, so that its own goodbye cannot land there
	// either; its statements are counted like the set-up's.
	rest := openReader(t, fresh.DSN)
	waitAtRest(t, rest, freshDB, 0)
	last := read(t, rest)
	freshQuestions := int(last.Queries + rest.(*mysqlSource).sent) // its own put back
	proxy := newSwitchProxy(t, old.Addr)
	r := openReader(t, "mysql://"+dbtest.User+":"+dbtest.Password+"@"+proxy.addr()+"/")
	// More readings than the fresh server has counted statements, and more site statements,
	// however long it took to come to rest.
	for range max(300, freshQuestions+50) {
		read(t, r)
	}
	send(t, siteDB(t, old.DSN), max(50, freshQuestions+50))
	a := read(t, r)
	proxy.switchTo(fresh.Addr)
	b := read(t, r)
	if !strings.Contains(b.Version, "MariaDB") || b.Queries >= a.Queries {
		t.Fatalf("queries %d then %d across the restart, want fewer", a.Queries, b.Queries)
	}
	send(t, freshDB, 137)
	c := read(t, r)
	if got := c.Queries - b.Queries; got != 137 {
		t.Errorf("queries went up by %d after the restart, want 137", got)
	}
}
