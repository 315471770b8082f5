package siegerc

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webload/webload/internal/golden"
)

// writeRC writes a siegerc into a fresh folder and returns its path.
func writeRC(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "siegerc")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

var update = flag.Bool("update", false, "rewrite testdata/siegerc.golden")

func set(flag, value string, line int) Setting {
	return Setting{Flag: flag, Value: value, Line: line}
}

func TestRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		text    string
		want    []Setting
		ignored []string
	}{
		{
			name: "comments and blank lines",
			text: "# a comment\n\n   # indented comment\nconcurrent = 5 # trailing comment\r\n\t\nreps = 3#glued comment\n",
			want: []Setting{set("concurrent", "5", 4), set("reps", "3", 6)},
		},
		{
			name: "separators and key case",
			text: "concurrent = 5\nreps: 7\ntime 30S\ndelay=0.5\nTimeOut := 12\nUSER-AGENT = bot/1.0 (test)\n",
			want: []Setting{set("concurrent", "5", 1), set("reps", "7", 2), set("time", "30S", 3),
				set("delay", "0.5", 4), set("timeout", "12", 5), set("user-agent", "bot/1.0 (test)", 6)},
		},
		{
			name: "values keep their quotes as in siege",
			text: "user-agent = \"quoted agent\"\n",
			want: []Setting{set("user-agent", `"quoted agent"`, 1)},
		},
		{
			name: "variables in every form",
			text: "HOST = example.test\nDIR = /srv/$(HOST)\nproxy-host = ${HOST}\nfile = $DIR/urls.txt\n" +
				"user-agent = costs \\$5 and $ more\nPORT = 3129\nproxy-port = $(PORT)\n",
			want: []Setting{set("file", "/srv/example.test/urls.txt", 4),
				set("user-agent", "costs $5 and $ more", 5), set("proxy", "http://example.test:3129", 7)},
		},
		{
			name: "a siege key is not a variable",
			text: "timeout = 10\nconcurrent = 3\n",
			want: []Setting{set("timeout", "10", 1), set("concurrent", "3", 2)},
		},
		{
			name: "booleans in every spelling",
			text: "verbose = TRUE\nquiet = false\njson_output = On\nbenchmark = off\ninternet = Yes\n" +
				"verbose = no\nparser = NO\nfollow-location = yes\n",
			want: []Setting{set("quiet", "false", 2), set("json-output", "true", 3),
				set("benchmark", "false", 4), set("internet", "true", 5), set("verbose", "false", 6),
				set("no-parser", "true", 7), set("follow", "true", 8)},
		},
		{
			name: "repeatable header and login-url keep every line",
			text: "header = X-A: 1\nheader: X-B: two\nconcurrent = 2\n" +
				"login-url = http://h/login POST user=a&pass=x#y\nlogin-url = http://h/login2\nheader = X-A: 3\n",
			want: []Setting{set("header", "X-A: 1", 1), set("header", "X-B: two", 2),
				set("concurrent", "2", 3), set("login", "http://h/login POST user=a&pass=x#y", 4),
				set("login", "http://h/login2", 5), set("header", "X-A: 3", 6)},
		},
		{
			name: "a literal dollar in a login-url stays literal for the URL-line parser",
			text: "login-url = http://h/pay POST amount=\\$10\n",
			want: []Setting{set("login", `http://h/pay POST amount=\$10`, 1)},
		},
		{
			name: "later lines override earlier ones",
			text: "concurrent = 5\nparser = true\nconnection = close\nconcurrent = 9\nparser = false\nconnection = KEEP-ALIVE\n",
			want: []Setting{set("concurrent", "9", 4), set("no-parser", "true", 5), set("connection", "keep-alive", 6)},
		},
		{
			name: "an empty value falls back to the default",
			text: "concurrent = 5\nconcurrent =\nverbose\n",
		},
		{
			name:    "ignored keys once each in file order",
			text:    "limit = 255\ncolor = on\nHOST = a.test\nlimit = 100\ngmethod = GET\nUNUSED = x\nfile = $(HOST).txt\ncolor = off\n",
			want:    []Setting{set("file", "a.test.txt", 7)},
			ignored: []string{"limit", "color", "gmethod", "UNUSED"},
		},
		{
			name:    "keys that hold what webload does are not reported",
			text:    "protocol = HTTP/1.1\nchunked = true\ncache = false\nzero-data-ok = true\nurl-escaping = true\nssl-timeout = 300\n",
			ignored: nil,
		},
		{
			name:    "keys that ask for what webload does not do are reported",
			text:    "protocol = HTTP/1.0\nchunked = false\ncache = true\nzero-data-ok = false\nurl-escaping = false\nssl-timeout = 0\n",
			ignored: []string{"protocol", "chunked", "cache", "zero-data-ok", "url-escaping", "ssl-timeout"},
		},
		{
			name: "log needs logging = true",
			text: "logfile = /tmp/a.log\nlogging = true\n",
			want: []Setting{set("log", "/tmp/a.log", 2)},
		},
		{
			name: "logging = false keeps the log off",
			text: "logging = false\nlogfile = /tmp/a.log\n",
		},
		{
			name:    "logging without a logfile",
			text:    "logging = true\n",
			ignored: []string{"logging"},
		},
		{
			name: "login becomes user, without the realm",
			text: "login = bob:pa#ss:Realm\n",
			want: []Setting{set("user", "bob:pa#ss", 1)},
		},
		{
			name: "username and password, the later credentials win",
			text: "login = bob:one\nusername = ann\npassword = two\n",
			want: []Setting{set("user", "ann:two", 3)},
		},
		{
			name:    "a username alone is not enough",
			text:    "username = ann\n",
			ignored: []string{"username"},
		},
		{
			name: "proxy with siege's default port",
			text: "proxy-host = proxy.test\n",
			want: []Setting{set("proxy", "http://proxy.test:3128", 1)},
		},
		{
			name: "proxy with port and login",
			text: "proxy-login = me:p@ss\nproxy-port = 8080\nproxy-host = [::1]\n",
			want: []Setting{set("proxy", "http://me:p%40ss@[::1]:8080", 3)},
		},
		{
			name: "proxy-port alone sets no proxy",
			text: "proxy-port = 8080\n",
		},
		{
			name: "client certificate, key from the same file",
			text: "ssl-cert = /c.pem\n",
			want: []Setting{set("cert", "/c.pem", 1), set("key", "/c.pem", 1)},
		},
		{
			name: "client certificate and key",
			text: "ssl-key = /k.pem\nssl-cert = /c.pem\n",
			want: []Setting{set("key", "/k.pem", 1), set("cert", "/c.pem", 2)},
		},
		{
			name: "the rest of siege's settings",
			text: "failures = 0\nreps = once\naccept-encoding = gzip\nfile = urls.txt\nconnection = close\n",
			want: []Setting{set("failures", "0", 1), set("reps", "once", 2),
				set("accept-encoding", "gzip", 3), set("file", "urls.txt", 4), set("connection", "close", 5)},
		},
		{
			name: "byte order mark",
			text: "\ufeffconcurrent = 4\n",
			want: []Setting{set("concurrent", "4", 1)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, ignored, err := Read(writeRC(t, tc.text), Options{Getenv: os.LookupEnv})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("settings:\n got %v\nwant %v", got, tc.want)
			}
			if !slices.Equal(ignored, tc.ignored) {
				t.Errorf("ignored: got %q, want %q", ignored, tc.ignored)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		line int
		want string
	}{
		{"header without a colon", "verbose = true\n\nheader = X-Broken\n", 3, `header: want "Name: value"`},
		{"not a boolean", "verbose = maybe\n", 1, "verbose: want true or false"},
		{"not a number", "concurrent = many\n", 1, "concurrent: want a whole number from 1"},
		{"no users", "concurrent = 0\n", 1, "concurrent: want a whole number from 1"},
		{"bad connection", "connection = sometimes\n", 1, "connection: want keep-alive or close"},
		{"missing key", "# x\n= 5\n", 2, "missing setting name"},
		{"undefined variable", "file = $(NOPE_WEBLOAD_SIEGERC)/urls.txt\n", 1, `undefined variable "NOPE_WEBLOAD_SIEGERC"`},
		{"unterminated variable", "file = ${HOST/urls.txt\n", 1, `unterminated "${"`},
		{"login without password", "login = bob\n", 1, "login: want user:password[:realm]"},
		{"proxy host as URL", "proxy-host = http://p.test\n", 1, "proxy-host: want a host name"},
		{"bad proxy port", "proxy-port = 99999\n", 1, "proxy-port: want a port"},
		{"user name with colon", "username = a:b\n", 1, "username: a user name cannot hold ':'"},
		{"empty login-url", "login-url =\n", 1, "login-url: missing URL"},
		{"line too long", "concurrent = 1\n" + strings.Repeat("x", MaxLine+1) + "\n", 2, "line longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := writeRC(t, tc.text)
			_, _, err := Read(path, Options{Getenv: os.LookupEnv})
			prefix := fmt.Sprintf("%s:%d: ", path, tc.line)
			if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want %q...%q", err, prefix, tc.want)
			}
		})
	}
}

// Every bad line is reported, in file order, and the good lines around them still set what
// they hold, so that one try names every mistake.
func TestReadReportsEveryBadLine(t *testing.T) {
	t.Parallel()
	path := writeRC(t, "concurrent = 0\nreps = 3\nverbose = maybe\nheader = X-Broken\ndelay = 2\n")
	settings, _, err := Read(path, Options{Getenv: os.LookupEnv})
	var bad LineErrors
	if !errors.As(err, &bad) {
		t.Fatalf("error = %v, want LineErrors", err)
	}
	wantLines := []string{path + ":1: concurrent:", path + ":3: verbose:", path + ":4: header:"}
	if len(bad) != len(wantLines) {
		t.Fatalf("got %d bad lines (%v), want %d", len(bad), err, len(wantLines))
	}
	for i, w := range wantLines {
		if !strings.HasPrefix(bad[i].Error(), w) {
			t.Errorf("bad line %d = %q, want %q...", i, bad[i], w)
		}
	}
	if want := path + ":1: concurrent: want a whole number from 1 (got \"0\")\n"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message = %q, want one line per bad line, starting %q", err, want)
	}
	want := []Setting{set("delay", "2", 5), set("reps", "3", 2)}
	slices.SortFunc(settings, func(a, b Setting) int { return strings.Compare(a.Flag, b.Flag) })
	if !slices.Equal(settings, want) {
		t.Errorf("settings = %v, want the good lines' %v", settings, want)
	}
}

func TestReadMissingFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "nope.siegerc")
	_, _, err := Read(path, Options{Getenv: os.LookupEnv})
	if err == nil || !strings.Contains(err.Error(), path) || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("error = %v, want one naming %s", err, path)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok || u.Unwrap() == nil {
			return err
		}
		err = u.Unwrap()
	}
}

// TestReadEnvironment checks siege's fallback to the environment, and that the file's
// own variables come first.
func TestReadEnvironment(t *testing.T) {
	t.Parallel()
	env := func(name string) (string, bool) {
		v, ok := map[string]string{"LOAD_DIR": "/env/dir", "HOST": "env.test"}[name]
		return v, ok
	}
	text := "file = $(LOAD_DIR)/urls.txt\nHOST = file.test\nproxy-host = $HOST\n"
	got, ignored, err := Parse(strings.NewReader(text), "rc", Options{Getenv: env})
	want := []Setting{set("file", "/env/dir/urls.txt", 1), set("proxy", "http://file.test:3128", 3)}
	if err != nil || !slices.Equal(got, want) || ignored != nil {
		t.Errorf("got %v, %q, %v; want %v", got, ignored, err, want)
	}
}

// TestReadSample reads a siegerc like the ones users keep and compares the result with
// testdata/siegerc.golden (rewritten by -update).
func TestReadSample(t *testing.T) {
	t.Parallel()
	settings, ignored, err := Read(filepath.Join("testdata", "siegerc"), Options{Getenv: os.LookupEnv})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range settings {
		fmt.Fprintf(&b, "line %2d  %s = %s\n", s.Line, s.Flag, s.Value)
	}
	fmt.Fprintf(&b, "ignored: %s\n", strings.Join(ignored, ", "))
	golden.Check(t, filepath.Join("testdata", "siegerc.golden"), []byte(b.String()), *update)
}

// FuzzParse checks that no input makes the reader panic, and that what it accepts is
// well formed.
func FuzzParse(f *testing.F) {
	sample, err := os.ReadFile(filepath.Join("testdata", "siegerc"))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		string(sample), "", "=", "$", "$(", "${}", "a = $(a)", "login = a:b:c:d", "header = :",
		"proxy-host = ::1\nproxy-login = a:", "X = \\$(X)\nfile = $X", "concurrent\n\n#\nlogin-url = x #y",
	} {
		f.Add(seed)
	}
	env := func(name string) (string, bool) { return "env-" + name, name == "ENV" }
	f.Fuzz(func(t *testing.T, text string) {
		settings, ignored, err := Parse(strings.NewReader(text), "fuzz", Options{Getenv: env})
		var bad LineErrors
		if err != nil && !errors.As(err, &bad) {
			if !strings.HasPrefix(err.Error(), "siegerc:") {
				t.Fatalf("error %q does not name the input", err)
			}
			return
		}
		for _, e := range bad { // every bad line names its line; the good ones still count
			if !strings.HasPrefix(e.Error(), "fuzz:") {
				t.Fatalf("error %q does not name the line", e)
			}
		}
		lines := strings.Count(text, "\n") + 1
		for _, s := range settings {
			if s.Flag == "" || s.Line < 1 || s.Line > lines {
				t.Fatalf("bad setting %+v", s)
			}
		}
		seen := map[string]bool{}
		for _, k := range ignored {
			if seen[k] {
				t.Fatalf("%q ignored twice: %q", k, ignored)
			}
			seen[k] = true
		}
	})
}

// TestReadCheck checks that Options.Check sees each single-valued key (siege's lower-case
// name) with its value already in the flag's syntax, and that its error names the line.
func TestReadCheck(t *testing.T) {
	t.Parallel()
	var seen []string
	check := func(key, value string) error {
		seen = append(seen, key+"="+value)
		if key == "timeout" && value == "never" {
			return fmt.Errorf("want seconds (got %q)", value)
		}
		return nil
	}
	text := "Concurrent = 07\nheader = X-A: 1\nconnection = CLOSE\ndelay =\ntimeout = 3\n"
	if _, _, err := Parse(strings.NewReader(text), "rc", Options{Check: check}); err != nil {
		t.Fatal(err)
	}
	want := []string{"concurrent=7", "connection=close", "timeout=3"}
	if !slices.Equal(seen, want) {
		t.Errorf("Check saw %q, want %q", seen, want)
	}
	_, _, err := Parse(strings.NewReader("verbose = true\ntimeout = never\n"), "rc", Options{Check: check})
	if err == nil || err.Error() != `rc:2: timeout: want seconds (got "never")` {
		t.Errorf("error = %v, want the check's error on line 2", err)
	}
}

// TestReadVariableMessages pins the words of the variable errors, which differ from a URL
// file's: the name is quoted and the fix suggested.
func TestReadVariableMessages(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, want string }{
		{"undefined", "file = $(NOPE)/u.txt\n", `rc:1: undefined variable "NOPE" (define it on an earlier line or in the environment)`},
		{"undefined with a dash", "X = ${proxy-host}\n", `rc:1: undefined variable "proxy-host" (define it on an earlier line or in the environment)`},
		{"empty name", "X = $()\n", `rc:1: undefined variable "" (define it on an earlier line or in the environment)`},
		{"unterminated", "file = $(HOST\n", `rc:1: unterminated "$(": missing ")"`},
		{"in the key", "$K = 1\n", `rc:1: undefined variable "K" (define it on an earlier line or in the environment)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Parse(strings.NewReader(tc.text), "rc", Options{})
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v, want %s", err, tc.want)
			}
		})
	}
}
