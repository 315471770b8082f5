package dbload

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/webload/webload/internal/dbtest"
)

// mustTarget parses a DSN the test wrote.
func mustTarget(t testing.TB, dsn string) Target {
	t.Helper()
	target, err := ParseTarget(dsn)
	if err != nil {
		t.Fatalf("ParseTarget(%q): %v", Redacted(dsn), err)
	}
	return target
}

// openReader opens the reader for dsn, closed when the test ends.
func openReader(t testing.TB, dsn string) Source {
	t.Helper()
	src, err := Open(mustTarget(t, dsn))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = src.Close() })
	return src
}

// siteDB is the test's own client of the server, playing the site: the statements it sends
// are the ones the reader must count.
func siteDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	cfg, err := mysqlConfig(mustTarget(t, dsn))
	if err != nil {
		t.Fatalf("mysqlConfig: %v", err)
	}
	cfg.DBName = dbtest.Database
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatalf("NewConnector: %v", err)
	}
	db := sql.OpenDB(conn)
	db.SetMaxIdleConns(8)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// read takes one reading and fails the test on error.
func read(t *testing.T, src Source) Sample {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := src.Sample(ctx)
	if err != nil {
		t.Fatalf("Sample: %v", err)
	}
	return s
}

// waitAtRest waits, a bounded number of times, until the server holds no connection but the
// reader's, db's and others more (other readers the test holds open), and two readings in a row show the same statement count. A client that
// has gone (the mariadb client of the test's setup, a connection an earlier step closed) says
// goodbye with COM_QUIT, which Questions counts, and the server may take that goodbye a while
// later on a busy machine: until its connection is gone from Threads_connected, a count could
// still move by it.
func waitAtRest(t *testing.T, src Source, db *sql.DB, others int) {
	t.Helper()
	prev := read(t, src)
	for range 2000 {
		time.Sleep(5 * time.Millisecond)
		s := read(t, src)
		if want := int64(db.Stats().OpenConnections + others); s.Connections == want && s.Queries == prev.Queries {
			return
		}
		prev = s
	}
	t.Fatalf("the server's counts never stood still: %d connections, want %d", prev.Connections, db.Stats().OpenConnections+others)
}

// send runs n statements on db, one round trip each.
func send(t *testing.T, db *sql.DB, n int) {
	t.Helper()
	for i := range n {
		if _, err := db.Exec("SELECT 1"); err != nil {
			t.Fatalf("statement %d: %v", i, err)
		}
	}
}

// exec runs each statement on one connection of db, in order.
func exec(t *testing.T, c *sql.Conn, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := c.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// conn takes one connection of db for the test.
func conn(t *testing.T, db *sql.DB) *sql.Conn {
	t.Helper()
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// deadlock makes two transactions update the rows of webload.pair in opposite orders and
// returns how many the server rolled back to break the cycle.
func deadlock(t *testing.T, db *sql.DB) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var txs [2]*sql.Tx
	for i := range txs {
		c := conn(t, db)
		exec(t, c, "SET SESSION innodb_lock_wait_timeout = 10")
		tx, err := c.BeginTx(ctx, nil)
		if err != nil {
			t.Fatalf("begin: %v", err)
		}
		defer func() { _ = tx.Rollback() }()
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("UPDATE pair SET v = v + 1 WHERE id = %d", i+1)); err != nil {
			t.Fatalf("first update: %v", err)
		}
		txs[i] = tx
	}
	// Each now wants the other's row; whichever asks second closes the cycle.
	errs := make([]error, len(txs))
	var wg sync.WaitGroup
	for i, tx := range txs {
		wg.Go(func() {
			_, errs[i] = tx.ExecContext(ctx, fmt.Sprintf("UPDATE pair SET v = v + 1 WHERE id = %d", 2-i))
			if errs[i] == nil {
				errs[i] = tx.Commit()
			}
		})
	}
	wg.Wait()
	n := 0
	for _, err := range errs {
		var me *mysql.MySQLError
		switch {
		case errors.As(err, &me) && me.Number == 1213:
			n++
		case err != nil:
			t.Errorf("second update: %v", err)
		}
	}
	return n
}

// switchProxy forwards loopback connections to a backend the test can change; a change drops
// the connections open through it, as a restart does.
type switchProxy struct {
	ln      net.Listener
	mu      sync.Mutex
	backend string
	conns   []net.Conn
}

func newSwitchProxy(t *testing.T, backend string) *switchProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &switchProxy{ln: ln, backend: backend}
	go p.serve()
	t.Cleanup(func() {
		_ = ln.Close()
		p.switchTo("")
	})
	return p
}

func (p *switchProxy) addr() string { return p.ln.Addr().String() }

func (p *switchProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed by the cleanup
		}
		p.mu.Lock()
		b, err := net.Dial("tcp", p.backend)
		if err != nil {
			p.mu.Unlock()
			_ = c.Close()
			continue
		}
		p.conns = append(p.conns, c, b)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(b, c); _ = b.Close() }()
		go func() { _, _ = io.Copy(c, b); _ = c.Close() }()
	}
}

// switchTo sends new connections to backend and closes the open ones.
func (p *switchProxy) switchTo(backend string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns, p.backend = nil, backend
}
