// Package shop is a sample web shop served on loopback: the site `webload demo` loads and the
// tests measure. Its 50 pages differ in size and in server time the way a real shop's pages do:
// most answer in a few to a few tens of milliseconds, and a few percent of requests hit a slow
// path (a cache miss, a lock) of a few hundred.
package shop

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Site is a running shop.
type Site struct {
	base  string
	pages map[string]page
	paths []string
	srv   *http.Server
	done  chan struct{}
	err   error // why Serve stopped, other than Close

	mu  sync.Mutex // guards rng
	rng *rand.Rand

	sessions atomic.Int64
}

// page is one page's fixed body and typical server time.
type page struct {
	body []byte
	base time.Duration
}

// Config says where and how the shop runs.
type Config struct {
	// Addr is the loopback address to listen on; "" means a free port of 127.0.0.1.
	Addr string
	// Seed makes the server times repeatable.
	Seed uint64
	// Slowdown multiplies every server time (1.3 is a stack 30 % slower); 0 means 1.
	Slowdown float64
}

// ErrNotLoopback refuses to serve the shop anywhere but on this machine.
var ErrNotLoopback = errors.New("the sample shop listens on loopback only (127.0.0.1 or [::1])")

// Start serves the shop.
func Start(cfg Config) (*Site, error) {
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("start sample shop: %w", err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("start sample shop on %s: %w", cfg.Addr, ErrNotLoopback)
	}
	if cfg.Slowdown <= 0 {
		cfg.Slowdown = 1
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("start sample shop: %w", err)
	}
	s := &Site{
		base:  "http://" + ln.Addr().String(),
		pages: map[string]page{},
		done:  make(chan struct{}),
		rng:   rand.New(rand.NewPCG(cfg.Seed, 0x5109)),
	}
	for i, path := range Catalogue() {
		s.paths = append(s.paths, path)
		s.pages[path] = page{body: render(path, pageSize(i), images(i)), base: time.Duration(float64(baseTime(i)) * cfg.Slowdown)}
	}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			s.err = fmt.Errorf("sample shop stopped: %w", err)
		}
	}()
	return s, nil
}

// URL is the site's base URL, e.g. http://127.0.0.1:40123.
func (s *Site) URL() string { return s.base }

// URLs lists the absolute URLs of the 50 pages, most visited first.
func (s *Site) URLs() []string {
	out := make([]string, len(s.paths))
	for i, p := range s.paths {
		out[i] = s.base + p
	}
	return out
}

// Done is closed when the server has stopped.
func (s *Site) Done() <-chan struct{} { return s.done }

// Close stops the server and waits for it.
func (s *Site) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	<-s.done
	return errors.Join(err, s.err)
}

// ServeHTTP answers a page after its server time, and its stylesheet, script and images at
// once. The first answer to a visitor without a session sets one, as shops do.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if _, err := r.Cookie("shop_session"); err != nil {
		http.SetCookie(w, &http.Cookie{Name: "shop_session", Value: strconv.FormatInt(s.sessions.Add(1), 36),
			Path: "/", HttpOnly: true})
	}
	if a, ok := assets()[r.URL.Path]; ok {
		w.Header().Set("Content-Type", a.contentType)
		w.Header().Set("Cache-Control", "max-age=86400")
		_, _ = w.Write(a.body)
		return
	}
	p, ok := s.pages[r.URL.RequestURI()]
	if !ok {
		http.NotFound(w, r)
		return
	}
	select {
	case <-time.After(s.serverTime(p.base)):
	case <-r.Context().Done():
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(p.body)))
	_, _ = w.Write(p.body)
}

// serverTime draws one request's time: the page's typical time, spread by ±50 %, and 3 % of the
// time a slow path of 150 to 400 ms.
func (s *Site) serverTime(base time.Duration) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rng.Float64() < 0.03 {
		return 150*time.Millisecond + time.Duration(s.rng.Int64N(int64(250*time.Millisecond)))
	}
	return time.Duration(float64(base) * (0.5 + s.rng.Float64()))
}

// Catalogue is the shop's 50 most visited pages (paths), as an analytics export would list them.
func Catalogue() []string {
	paths := []string{"/", "/search?q=laptop", "/search?q=phone+case", "/cart", "/delivery", "/contacts"}
	for i := 1; i <= 8; i++ {
		paths = append(paths, "/category/"+strconv.Itoa(i))
	}
	for i := 1; len(paths) < 50; i++ {
		paths = append(paths, "/product/"+strconv.Itoa(100+i*7))
	}
	return paths
}

// pageSize spreads page sizes from 4 KiB to about 120 KiB; listings and search are the largest.
func pageSize(i int) int {
	switch {
	case i == 0:
		return 96 << 10
	case i < 3:
		return 72 << 10
	case i < 6:
		return 6 << 10
	case i < 14:
		return 48<<10 + (i%4)*16<<10
	}
	return 4<<10 + (i*37%59)<<10
}

// baseTime is a page's typical server time: search and listings query more, static pages less.
func baseTime(i int) time.Duration {
	switch {
	case i == 0:
		return 12 * time.Millisecond
	case i < 3:
		return 60 * time.Millisecond
	case i < 6:
		return 3 * time.Millisecond
	case i < 14:
		return 35 * time.Millisecond
	}
	return time.Duration(8+i*13%30) * time.Millisecond
}

// render builds an HTML page of exactly size bytes that uses the shop's stylesheet and script
// and shows the given images.
func render(path string, size int, imgs []string) []byte {
	var head strings.Builder
	fmt.Fprintf(&head, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Sample shop: %s</title>\n", path)
	head.WriteString("<link rel=\"stylesheet\" href=\"/static/shop.css\"><link rel=\"icon\" href=\"/static/favicon.ico\">\n")
	head.WriteString("<script src=\"/static/shop.js\" defer></script></head>\n")
	fmt.Fprintf(&head, "<body><h1>%s</h1>\n", path)
	for _, img := range imgs {
		fmt.Fprintf(&head, "<img src=\"%s\" alt=\"\" width=\"240\" height=\"240\">\n", img)
	}
	tail := "</body></html>\n"
	var b strings.Builder
	b.Grow(size)
	b.WriteString(head.String())
	para := "<p>Hand-picked goods, fast delivery and honest prices. Every item is in stock and ships today.</p>\n"
	for b.Len()+len(para)+len(tail) <= size {
		b.WriteString(para)
	}
	b.WriteString(strings.Repeat(" ", max(0, size-b.Len()-len(tail))))
	b.WriteString(tail)
	return []byte(b.String())
}
