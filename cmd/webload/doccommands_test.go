package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/internal/doclinks"
	"github.com/webload/webload/internal/shop"
	"github.com/webload/webload/internal/testtier"
)

// docCommand is a webload command a page shows, with where it is.
type docCommand struct {
	doclinks.Command
	file string // relative to the repository
}

func (d docCommand) String() string { return fmt.Sprintf("%s:%d: %s", d.file, d.Line, d.Text) }

// docCommands is every webload command in the code blocks of the README and docs/. The option
// reference is left out: it is generated from the command line, and its commands are usage
// patterns ("webload [options] URL").
func docCommands(t *testing.T) []docCommand {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []docCommand
	for _, p := range append([]string{filepath.Join(repoRoot, "README.md")}, pages...) {
		rel, _ := filepath.Rel(repoRoot, p)
		if rel == filepath.Join("docs", "options.md") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range doclinks.Commands(string(data)) {
			out = append(out, docCommand{c, filepath.ToSlash(rel)})
		}
	}
	if len(out) < 30 {
		t.Fatalf("found only %d commands in the docs", len(out))
	}
	return out
}

// parseOnly gives args (the words after webload) to the command line as a run would, with
// every command's action replaced: the arguments are put in shape and the flags parsed, and
// nothing is read, served or sent. It returns the command that would have run.
func parseOnly(args []string) (string, error) {
	app := newApp(io.Discard, io.Discard, func(string) (string, bool) { return "", false })
	reached := ""
	stub := func(name string) cli.ActionFunc {
		return func(*cli.Context) error { reached = name; return nil }
	}
	app.Action = stub("")
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			c.Action = stub(strings.TrimSpace(prefix + " " + c.Name))
			walk(prefix+" "+c.Name, c.Subcommands)
		}
	}
	walk("", app.Commands)
	err := runCLI(context.Background(), app, append([]string{"webload"}, args...))
	return reached, err
}

// commandOf is the (sub)command args name, "" for the load test itself.
func commandOf(args []string) string {
	var path []string
	cmds := newApp(io.Discard, io.Discard, nil).Commands
	for _, a := range args {
		c := findCommand(cmds, a)
		if c == nil || c.Name == "help" {
			break
		}
		path, cmds = append(path, c.Name), c.Subcommands
	}
	return strings.Join(path, " ")
}

// TestDocCommandsParse: every webload command of the README and docs/ gets past the command
// line's argument handling and flag parsing, to the command it names: a flag removed, renamed
// or mistyped, or a value it no longer takes, fails here with the page and line.
func TestDocCommandsParse(t *testing.T) {
	t.Parallel()
	cmds := docCommands(t)
	for _, c := range cmds {
		reached, err := parseOnly(c.Args)
		if err != nil {
			t.Errorf("%s\n  does not parse: %v", c, err)
			continue
		}
		if want := commandOf(c.Args); reached != want {
			t.Errorf("%s\n  runs %q, want %q", c, reached, want)
		}
	}
	t.Logf("%d commands in the docs, each parsed", len(cmds))
}

// TestDocCommandsParseCatches: the parse check is no formality: a mistyped flag, a flag of
// another command, a missing value and a bad number each fail it.
func TestDocCommandsParseCatches(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-c", "20", "--repz", "50", "-f", "urls.txt"},
		{"compare", "--max-regresion", "p95=10%", "old.json", "new.json"},
		{"demo", "--serve", "--adr", "127.0.0.1:8080"},
		{"merge", "--history", "DIR", "a.json"},
		{"--repeat", "twice", "http://127.0.0.1:8080/"},
		{"schema", "--format", "yaml"},
		{"-f"},
	} {
		if _, err := parseOnly(args); err == nil {
			t.Errorf("webload %s parses", strings.Join(args, " "))
		}
	}
}

// checkSettings is the load test's action that only checks its settings, as a run does before
// its first request: the siegerc, every flag's value, the URL file, data and login steps read,
// the outputs writable.
func checkSettings(c *cli.Context, o *runOptions, _, stderr io.Writer, env lookupEnv) error {
	applied, bad, err := applySiegerc(c, env, stderr)
	if err != nil {
		return err
	}
	_, err = specFromFlags(c, o, env, siegercOrigin(o, env, applied), bad...)
	return err
}

// standIns are what a reader's input files hold, for the checks of a command that names them.
var standIns = map[string]string{
	"-f":           "http://127.0.0.1:1/\nhttp://127.0.0.1:1/cart\n",
	"--data":       "user,pass\nLoad01,secret\n",
	"--login-file": "http://127.0.0.1:1/login POST user=$(user)&pass=$(pass)\n",
}

// TestDocCommandsValidate: every load test the docs show passes the checks of its settings
// (flag values, siegerc, input files, outputs), run in a folder of its own where the files a
// reader has (urls.txt, users.csv) are stand-ins. Commands built from shell variables are
// only parsed: the shell gives their values.
func TestDocCommandsValidate(t *testing.T) {
	// Not parallel: each command runs in its own working folder, the process's.
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range docCommands(t) {
		if cmd := commandOf(c.Args); (cmd != "" && cmd != "run") || c.Expands {
			continue
		}
		t.Run(fmt.Sprintf("%s:%d", c.file, c.Line), func(t *testing.T) {
			inDocFolder(t, root)
			for i := 0; i+1 < len(c.Args); i++ {
				text, ok := standIns[c.Args[i]]
				if _, err := os.Stat(c.Args[i+1]); !ok || err == nil {
					continue
				}
				if err := os.WriteFile(c.Args[i+1], []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := envOf(c.Env, func(s string) string { return s })
			lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
			var stderr strings.Builder
			app := newAppRunning(io.Discard, &stderr, lookup, checkSettings)
			if err := runCLI(context.Background(), app, append([]string{"webload"}, c.Args...)); err != nil {
				t.Errorf("%s\n  fails its checks: %v", c, err)
			}
		})
		checked++
	}
	t.Logf("%d load tests checked", checked)
}

// inDocFolder makes the working folder a new one holding a link to the repository's examples,
// which the docs' commands name from the repository's top.
func inDocFolder(t *testing.T, root string) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "examples"), filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
}

// envOf is the environment NAME=value assignments give, each value passed through edit.
func envOf(assignments []string, edit func(string) string) map[string]string {
	env := map[string]string{}
	for _, a := range assignments {
		k, v, _ := strings.Cut(a, "=")
		env[k] = edit(v)
	}
	return env
}

// runBounds caps a doc command's load for a test run: at most two users, two repetitions and
// two runs of a series, no pause between them, and a count instead of a time.
var runBounds = map[string]func(v string) []string{
	"-c": boundUsers, "--concurrent": boundUsers,
	"-r": boundReps, "--reps": boundReps,
	"-t": boundTime, "--time": boundTime,
	"-d": boundDelay, "--delay": boundDelay,
	"--repeat":       func(v string) []string { return []string{"--repeat", capInt(v, 2), "--repeat-pause", "0s"} },
	"--repeat-pause": func(string) []string { return []string{"--repeat-pause", "0s"} },
}

func boundUsers(v string) []string { return []string{"-c", capInt(v, 2)} }
func boundReps(v string) []string  { return []string{"-r", capInt(v, 2)} }
func boundTime(string) []string    { return []string{"-r", "2"} }
func boundDelay(string) []string   { return []string{"-d", "0.1"} }

// capInt is v or at most limit when it is a number ("once" stays).
func capInt(v string, limit int) string {
	if n, err := strconv.Atoi(v); err == nil && n > limit {
		return strconv.Itoa(limit)
	}
	return v
}

// gateFlags make a command exit 1 when a gate fails, as a doc's example may mean to show, and
// compare exit 4 when a bounded run's few figures leave a change inconclusive.
var gateFlags = []string{"--assert", "--max-regression", "--max-content-changes", "--slo", "--abort-on"}

// loopbackAddr is an address of the docs' loopback examples.
var loopbackAddr = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// urlIn finds the URLs in a word, up to their host.
var urlIn = regexp.MustCompile(`[a-z]+://[^\s/'"]+`)

// notRunnable says why a block's commands cannot run on this machine as written, "" when they
// can: shell variables, other hosts, databases, or input files that only a reader has.
func notRunnable(block []docCommand) string {
	made := map[string]bool{"urls.txt": true} // a stand-in URL file on the shop
	for _, c := range block {
		words := append(slices.Clone(c.Env), c.Args...)
		if c.Expands {
			return "shell variables or patterns"
		}
		for _, w := range words {
			for _, u := range urlIn.FindAllString(w, -1) {
				if p, err := url.Parse(u); err != nil || p.Hostname() != "127.0.0.1" {
					return "a host other than 127.0.0.1: " + u
				}
			}
		}
		for i, w := range c.Args {
			switch w {
			case "--db", "--resolve":
				return w + " names another machine"
			case "--server-metrics":
				if i+1 < len(c.Args) && c.Args[i+1] != "local" {
					return "--server-metrics of another machine"
				}
			}
		}
		for _, in := range inputsOf(c.Args) {
			if _, err := os.Stat(filepath.Join(repoRoot, in)); err != nil && !made[in] {
				return "input " + in + " is the reader's"
			}
		}
		for _, out := range outputsOf(c) {
			made[out] = true
		}
	}
	return ""
}

// inputsOf names the files a command reads: a load test's URL file, data and login steps;
// another command's files (compare, merge, report, urls import) and history folder.
func inputsOf(args []string) []string {
	cmd := commandOf(args)
	if cmd == "demo" || cmd == "schema" {
		return nil
	}
	var in []string
	app := newApp(io.Discard, io.Discard, nil)
	flags, cmds := app.Flags, app.Commands
	for _, name := range strings.Fields(cmd) {
		c := findCommand(cmds, name)
		flags, cmds = c.Flags, c.Subcommands
	}
	takes := valueFlags(flags)
	for i := len(strings.Fields(cmd)); i < len(args); i++ {
		a := args[i]
		name := strings.TrimLeft(a, "-")
		switch {
		case a == "-f" || a == "--file" || a == "--data" || a == "--login-file" || a == "--history":
			if i+1 < len(args) {
				in = append(in, args[i+1])
			}
			i++
		case strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && takes[name]:
			i++ // a flag's value
		case !strings.HasPrefix(a, "-") && cmd != "" && cmd != "run":
			in = append(in, a)
		}
	}
	return in
}

// outputsOf names the files a command writes that a later one may read.
func outputsOf(c docCommand) []string {
	var out []string
	if c.Stdout != "" {
		out = append(out, c.Stdout)
	}
	for i, a := range c.Args {
		if (a == "-o" || a == "--output") && i+1 < len(c.Args) {
			out = append(out, c.Args[i+1])
		}
	}
	return out
}

// TestDocCommandsRun: the docs' examples that can run on loopback as written run, each code
// block as a script in a folder of its own, against the sample shop (webload demo --serve) on
// the addresses the block names, or a URL file of its pages where a block loads the reader's
// urls.txt. Their load is bounded (runBounds); a command must exit 0, or 1 or 4 when it judges
// gates.
func TestDocCommandsRun(t *testing.T) {
	testtier.Slow(t)
	// Not parallel: each block runs in its own working folder, the process's.
	var blocks [][]docCommand
	for _, c := range docCommands(t) {
		n := len(blocks)
		if n == 0 || blocks[n-1][0].file != c.file || blocks[n-1][0].Block != c.Block {
			blocks = append(blocks, nil)
			n++
		}
		blocks[n-1] = append(blocks[n-1], c)
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	ran, ranBlocks := 0, 0
	for _, block := range blocks {
		if why := notRunnable(block); why != "" {
			t.Logf("%s:%d: not run: %s", block[0].file, block[0].Line, why)
			continue
		}
		t.Run(fmt.Sprintf("%s:%d", block[0].file, block[0].Line), func(t *testing.T) {
			runDocBlock(t, root, block)
		})
		ran, ranBlocks = ran+len(block), ranBlocks+1
	}
	t.Logf("%d commands run, in %d of the %d code blocks", ran, ranBlocks, len(blocks))
}

// runDocBlock runs a block's commands in order in a new folder holding a link to the
// repository's examples.
func runDocBlock(t *testing.T, root string, block []docCommand) {
	inDocFolder(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// Each address the block names gets a shop of its own on a free port.
	// The shops the block starts itself serve on free ports in place of those it names; every
	// other address it names gets a shop of the test's.
	addrs := map[string]string{}
	for _, c := range block {
		for _, a := range loopbackAddr.FindAllString(strings.Join(c.Args, " "), -1) {
			if c.Background && addrs[a] == "" {
				addrs[a] = closedAddr(t)
			}
		}
	}
	for _, c := range block {
		for _, a := range loopbackAddr.FindAllString(strings.Join(append(slices.Clone(c.Env), c.Args...), " "), -1) {
			if addrs[a] == "" {
				addrs[a] = startShop(t)
			}
		}
	}
	mapAddrs := func(s string) string {
		return loopbackAddr.ReplaceAllStringFunc(s, func(a string) string { return addrs[a] })
	}
	for _, c := range block {
		if !c.Background {
			continue
		}
		args := strings.Fields(mapAddrs(strings.Join(c.Args, " ")))
		done := make(chan error, 1)
		go func() { done <- runApp(ctx, append([]string{"webload"}, args...), io.Discard, io.Discard, nil) }()
		t.Cleanup(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("%s: %v", c, err)
			}
		})
		waitServing(t, args[slices.Index(args, "--addr")+1])
	}
	if slices.ContainsFunc(block, func(c docCommand) bool { return slices.Contains(inputsOf(c.Args), "urls.txt") }) {
		shop := startShop(t)
		pages, err := os.ReadFile(filepath.Join("examples", "shop-urls.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("urls.txt", append([]byte("SITE=http://"+shop+"\n"), pages...), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	for _, c := range block {
		if c.Background {
			continue
		}
		env := envOf(c.Env, mapAddrs)
		var args []string
		for i := 0; i < len(c.Args); i++ {
			a := mapAddrs(c.Args[i])
			if bound, ok := runBounds[a]; ok && i+1 < len(c.Args) && commandOf(c.Args) == "" {
				args = append(args, bound(c.Args[i+1])...)
				i++
				continue
			}
			args = append(args, a)
		}
		for _, a := range args {
			if flag, _, ok := strings.Cut(a, "="); ok && runBounds[flag] != nil {
				t.Fatalf("%s\n  write %s VALUE, which the test can bound", c, flag)
			}
		}
		stdout, stderr, code := webload(t, env, args...)
		gate := slices.ContainsFunc(args, func(a string) bool { return slices.Contains(gateFlags, a) })
		if code != 0 && (!gate || code != 1 && code != 4) { // 4: compare's inconclusive gate
			t.Errorf("%s\n  as webload %s: exit %d: %s", c, strings.Join(args, " "), code, stderr)
			continue
		}
		if c.Stdout != "" {
			if err := os.WriteFile(c.Stdout, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// startShop serves the sample shop on a free loopback port until the test ends, and gives its
// address.
func startShop(t *testing.T) string {
	t.Helper()
	site, err := shop.Start(shop.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { site.Close() })
	return strings.TrimPrefix(site.URL(), "http://")
}

// waitServing waits until the shop answers on addr.
func waitServing(t *testing.T, addr string) {
	t.Helper()
	for range 400 { // 20 s at most
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the shop on %s never answered", addr)
}
