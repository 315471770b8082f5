// Package browsertest opens a local page in headless Chromium for tests and records what the
// page did: uncaught exceptions, console and log errors (a Content-Security-Policy refusal
// is one), and every network request it started. It drives Chromium with the DevTools
// protocol through chromedp, over a pipe, so no port is opened; Chromium is also told to
// resolve no host name, so a page that tries the network fails rather than reaching it.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/webload/webload/internal/testtier"
)

// Bound is how long a browser test may take before it gives up: a bound against a browser that
// hangs, not a measure of speed, so it is generous. Under -race, with the other packages'
// tests and several Chromiums on two cores, a page of four results measured at three widths
// has taken over a minute.
const Bound = 3 * time.Minute

// Need skips the test when Chromium is not installed, or under -short, which leaves out the
// tests that start a browser.
func Need(tb testing.TB) {
	tb.Helper()
	testtier.Program(tb, "Chromium")
	if _, err := Find(); err != nil {
		tb.Skipf("browser test skipped: %v", err)
	}
}

// Context returns a context bounded by Bound, cancelled when the test ends.
func Context(tb testing.TB) context.Context {
	testtier.Program(tb, "Chromium")
	ctx, cancel := context.WithTimeout(context.Background(), Bound)
	tb.Cleanup(cancel)
	return ctx
}

// Find returns the path of Chromium, or an error saying how to get it: $WEBLOAD_CHROMIUM when
// set, else the first of the names Chromium goes by that is on the PATH.
func Find() (string, error) {
	if path := os.Getenv("WEBLOAD_CHROMIUM"); path != "" {
		return exec.LookPath(path)
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", errors.New("no Chromium on the PATH (apt-get install chromium, or set WEBLOAD_CHROMIUM)")
}

// Page is a page open in its own headless Chromium. Its methods fail the test on an error.
type Page struct {
	tb  testing.TB
	ctx context.Context

	mu       sync.Mutex
	problems []string // exceptions and errors, in the order they came
	requests []string // URLs of every request the page started, itself included
}

// Open starts Chromium, opens the file at path and waits until the page's script says it is
// done: the expression ready (JavaScript) is true, within the context's time. It skips the
// test when there is no Chromium. Chromium is stopped when the test ends.
func Open(tb testing.TB, ctx context.Context, path, ready string) *Page {
	tb.Helper()
	bin, err := Find()
	if err != nil {
		tb.Skipf("browser test skipped: %v", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		tb.Fatal(err)
	}
	p := start(tb, ctx, bin)
	fileURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(fileURL)); err != nil {
		tb.Fatalf("opening %s: %v", fileURL, err)
	}
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](ready, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		tb.Fatalf("waiting for %s in %s: %v; the page reported %q", ready, path, err, p.Problems())
	}
	return p
}

// startAttempts bounds how often Chromium is started for one page. On a loaded machine it
// sometimes crashes while starting (its crash reporter's "no stack mapping", before any page is
// open), which says nothing about the page under test, so a crash at start is tried again.
const startAttempts = 3

// start starts Chromium (bin) with a fresh profile and a tab whose events the page records.
func start(tb testing.TB, ctx context.Context, bin string) *Page {
	tb.Helper()
	for attempt := 1; ; attempt++ {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(bin),
			chromedp.NoSandbox, // tests run as root in CI, where Chromium's sandbox refuses to start
			chromedp.DisableGPU,
			chromedp.WindowSize(1280, 900),
			chromedp.UserDataDir(tb.TempDir()),
			// Every name resolves to nothing: nothing the page could ask for would leave the machine.
			chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND"),
		)
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
		tabCtx, cancelTab := chromedp.NewContext(allocCtx)
		p := &Page{tb: tb, ctx: tabCtx}
		err := chromedp.Listen(tabCtx, p.record)
		if err == nil {
			tb.Cleanup(func() {
				cancelTab()
				cancelAlloc()
			})
			return p
		}
		cancelTab()
		cancelAlloc()
		if attempt == startAttempts || !strings.Contains(err.Error(), "chrome failed to start") {
			tb.Fatalf("starting %s (attempt %d): %v", bin, attempt, err)
		}
		tb.Logf("starting %s crashed (attempt %d), starting it again: %v", bin, attempt, err)
	}
}

// record keeps the events that tell what the page did. It runs in chromedp's event loop, so it
// only appends.
func (p *Page) record(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		p.problems = append(p.problems, "exception: "+exceptionText(ev.ExceptionDetails))
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning ||
			ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			p.problems = append(p.problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
		}
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
			p.problems = append(p.problems, fmt.Sprintf("%s %s: %s %s", ev.Entry.Source, ev.Entry.Level, ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		p.requests = append(p.requests, ev.Request.URL)
	}
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "(no details)"
	}
	s := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		s += " " + d.Exception.Description
	}
	return fmt.Sprintf("%s (line %d, column %d)", s, d.LineNumber+1, d.ColumnNumber+1)
}

// Problems returns the exceptions and errors the page caused so far.
func (p *Page) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...)
}

// Requests returns the URL of every request the page started so far, its own first.
func (p *Page) Requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...)
}

// Eval runs a JavaScript expression in the page and decodes its value into T.
func Eval[T any](p *Page, expression string) T {
	p.tb.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expression))
	if err != nil {
		p.tb.Fatalf("evaluating %s: %v", expression, err)
	}
	return v
}

// Click clicks the first element that the CSS selector matches, with the mouse, as a person
// would: the element is scrolled into view and must be visible.
func (p *Page) Click(selector string) {
	p.tb.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(selector))); err != nil {
		p.tb.Fatalf("clicking %s: %v", selector, err)
	}
}

// SetViewport lays the page out again as in a window width by height CSS pixels wide, as a
// person with that screen would see it; the page gets a resize event as a resized window gives.
func (p *Page) SetViewport(width, height int) {
	p.tb.Helper()
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		p.tb.Fatalf("viewport %dx%d: %v", width, height, err)
	}
}

// Screenshot returns a PNG of the whole page.
func (p *Page) Screenshot() []byte {
	p.tb.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.tb.Fatalf("screenshot: %v", err)
	}
	return png
}

// SaveArtifact writes a file a test leaves for people to look at: into $WEBLOAD_ARTIFACTS
// when set (CI collects it), else into the package's testdata/artifacts, which git ignores.
// t.TempDir would delete it with the test. It returns the path written.
func SaveArtifact(tb testing.TB, name string, data []byte) string {
	tb.Helper()
	dir := os.Getenv("WEBLOAD_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("testdata", "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatalf("artifact directory: %v", err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatalf("writing artifact: %v", err)
	}
	return path
}
