// Package dbsite is a small web site backed by a real database, for the tests of webload's
// database figures: every page runs a known number of statements, so a test can check that
// what the database counted during a run is what the pages sent. /item?id=N runs a fixed
// number of statements, or the 1+N statements of an ORM's lazy loading (the N+1 shape a
// migration's queries-per-page figure catches); /list runs one.
package dbsite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Options describe the site's data and the shape of its pages.
type Options struct {
	// DSN is the database in --db's form: mysql://user:pass@host:port/[db] (the database
	// "webload" when none is named) or postgres://user:pass@host:port/db.
	DSN string
	// Items is how many items the table holds (default 20); Parts how many parts each item
	// has (default 3).
	Items, Parts int
	// PerItem is how many statements /item runs (default 1): the item, then its parts in one
	// statement, repeated to make up the count.
	PerItem int
	// NPlusOne makes /item read its parts one statement each, after one that reads the item
	// and lists them: 1+Parts statements, PerItem ignored. The page is the same as with
	// PerItem 2: a stack that went N+1 answers alike and only its database shows it.
	NPlusOne bool
	// ItemReads is how many times /item reads its item (default 1), before its parts: with
	// PerItem, a page runs two statements a known number of times each.
	ItemReads int
	// Extra is a statement /item runs once more, last (its first column read as text): a
	// statement one stack runs and another does not.
	Extra string
}

// Conns is how many connections the site keeps to its database, all opened at Start so that
// no connection is made during a run (PostgreSQL counts a transaction for each one made).
const Conns = 8

func (o *Options) defaults() {
	if o.Items <= 0 {
		o.Items = 20
	}
	if o.Parts <= 0 {
		o.Parts = 3
	}
	if o.PerItem <= 0 {
		o.PerItem = 1
	}
	if o.ItemReads <= 0 {
		o.ItemReads = 1
	}
}

// StatementsPerItem is how many statements one /item page runs.
func (o Options) StatementsPerItem() int {
	o.defaults()
	extra := 0
	if o.Extra != "" {
		extra = 1
	}
	if o.NPlusOne {
		return 1 + o.Parts + extra
	}
	return o.ItemReads + o.PerItem - 1 + extra
}

// Site is a running site on 127.0.0.1.
type Site struct {
	opts       Options
	db         *sql.DB
	q          func(string) string
	base       string
	srv        *http.Server
	done       chan struct{}
	statements atomic.Int64
}

// Start fills the site's tables (made if missing, emptied if not, so that two sites may share
// a database one after the other) and serves the site on a free port of 127.0.0.1.
func Start(ctx context.Context, opts Options) (*Site, error) {
	opts.defaults()
	db, q, err := openDB(opts.DSN)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(Conns)
	db.SetMaxIdleConns(Conns)
	s := &Site{opts: opts, db: db, q: q, done: make(chan struct{})}
	if err := s.fill(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	if err := s.warm(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("listening for the database site: %w", err)
	}
	s.base = "http://" + ln.Addr().String()
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // ends with ErrServerClosed at Close
	}()
	return s, nil
}

// fill makes the tables and fills them.
func (s *Site) fill(ctx context.Context) error {
	stmts := []string{
		"CREATE TABLE IF NOT EXISTS dbsite_items (id INT PRIMARY KEY, name VARCHAR(64) NOT NULL)",
		"CREATE TABLE IF NOT EXISTS dbsite_parts (id INT PRIMARY KEY, item_id INT NOT NULL, name VARCHAR(64) NOT NULL)",
		"DELETE FROM dbsite_parts",
		"DELETE FROM dbsite_items",
	}
	var items, parts []string
	for i := 1; i <= s.opts.Items; i++ {
		items = append(items, fmt.Sprintf("(%d, 'item %d')", i, i))
		for k := 1; k <= s.opts.Parts; k++ {
			id := (i-1)*s.opts.Parts + k
			parts = append(parts, fmt.Sprintf("(%d, %d, 'part %d of item %d')", id, i, k, i))
		}
	}
	stmts = append(stmts, "INSERT INTO dbsite_items (id, name) VALUES "+strings.Join(items, ", "))
	if len(parts) > 0 {
		stmts = append(stmts, "INSERT INTO dbsite_parts (id, item_id, name) VALUES "+strings.Join(parts, ", "))
	}
	for _, st := range stmts {
		if _, err := s.db.ExecContext(ctx, st); err != nil {
			return fmt.Errorf("filling the database site's tables: %w", err)
		}
	}
	return nil
}

// warm opens every connection of the pool now, before a run measures the database.
func (s *Site) warm(ctx context.Context) error {
	conns := make([]*sql.Conn, 0, Conns)
	defer func() {
		for _, c := range conns {
			_ = c.Close() // back to the pool, which keeps them all
		}
	}()
	for range Conns {
		c, err := s.db.Conn(ctx)
		if err != nil {
			return fmt.Errorf("connecting the database site: %w", err)
		}
		conns = append(conns, c)
	}
	return nil
}

// URL is the site's address, without a path.
func (s *Site) URL() string { return s.base }

// Statements counts the statements the pages ran so far (not those of Start).
func (s *Site) Statements() int64 { return s.statements.Load() }

// Close stops serving and closes the database connections: PostgreSQL writes a session's
// statistics out when it ends, so a reading after Close counts everything the site did.
func (s *Site) Close() error {
	err := s.srv.Close()
	<-s.done
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return errors.Join(err, s.db.Close())
}

// ServeHTTP implements http.Handler.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body string
	var err error
	switch r.URL.Path {
	case "/item":
		id, convErr := strconv.Atoi(r.URL.Query().Get("id"))
		if convErr != nil || id < 1 || id > s.opts.Items {
			http.Error(w, "no such item", http.StatusNotFound)
			return
		}
		body, err = s.item(r.Context(), id)
	case "/list":
		body, err = s.list(r.Context())
	default:
		http.NotFound(w, r)
		return
	}
	if err != nil {
		http.Error(w, "database error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><title>dbsite</title></head><body>\n%s</body></html>\n", body)
}
