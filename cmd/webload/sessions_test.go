package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes each file's text (by name) into a new folder and returns the folder.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// usersCSV is a data file of n accounts userI with the passwords pass(I).
func usersCSV(n int, pass func(i int) string) string {
	var b strings.Builder
	b.WriteString("user,pass\r\n")
	for i := range n {
		fmt.Fprintf(&b, "user%d,%s\r\n", i, pass(i))
	}
	return b.String()
}

// sessionFiles writes a data file of n users (passwords "pw-secret-N"), a login file and a URL
// file of the site at base into a folder of their own and returns the folder. files replaces
// the text of the files it names.
func sessionFiles(t *testing.T, base string, n int, files map[string]string) string {
	t.Helper()
	text := map[string]string{
		"users.csv": usersCSV(n, func(i int) string { return fmt.Sprintf("pw-secret-%d", i) }),
		"login.txt": "SITE=" + base + "\n#@extract token regex:token=(\\w+)\n$(SITE)/login\n$(SITE)/login POST user=$(user)&pass=$(pass)&token=$(token)\n",
		"urls.txt":  "SITE=" + base + "\n$(SITE)/account\n$(SITE)/user/$(user)?t=$(token)\n",
	}
	for name, s := range files {
		text[name] = s
	}
	return writeFiles(t, text)
}

// TestSessionFlagsRefuseBadInput: each mistake in the data file, the login file or the flags
// that read them is one line naming the flag, or the file and line, and exit 2 before any
// request; no password of the data file shows.
func TestSessionFlagsRefuseBadInput(t *testing.T) {
	t.Parallel()
	const site = "http://127.0.0.1:1" // never reached: every case stops before the run
	tests := []struct {
		name  string
		files map[string]string
		args  []string // after the folder's files are joined in by name
		want  string
	}{
		{"pick without data", map[string]string{"urls.txt": site + "/account\n"}, []string{"--data-pick", "random", "-f", "urls.txt"},
			"webload: --data-pick: it picks the rows of a data file: give one with --data FILE.csv"},
		{"unknown pick without data", map[string]string{"urls.txt": site + "/account\n"}, []string{"--data-pick", "often", "-f", "urls.txt"},
			`webload: --data-pick: want sequential, random or unique (got "often")`},
		{"unknown pick", nil, []string{"--data", "users.csv", "--data-pick", "often", "--login-file", "login.txt", "-f", "urls.txt"},
			`webload: --data-pick: want sequential, random or unique (got "often")`},
		{"missing data file", nil, []string{"--data", "nothing.csv", "-f", "urls.txt"},
			"nothing.csv: no such file or directory"},
		{"short row", map[string]string{"users.csv": "user,pass\nuser0,pw-secret-0\nuser1\n"}, []string{"--data", "users.csv", "--login-file", "login.txt", "-f", "urls.txt"},
			"users.csv:3: 1 fields, the header row has 2"},
		{"wrong column name in the URL file", map[string]string{"urls.txt": "SITE=" + site + "\n$(SITE)/account\n$(SITE)/user/$(usr)\n"},
			[]string{"--data", "users.csv", "--login-file", "login.txt", "-f", "urls.txt"},
			"urls.txt:3: undefined variable usr (set it in the environment or on a line usr=VALUE above this one); each user has user, pass (the columns of DIR/users.csv) and token (extracted by DIR/login.txt)"},
		{"wrong column name in the login file", map[string]string{"login.txt": site + "/login POST user=$(user)&pass=$(password)\n"},
			[]string{"--data", "users.csv", "--login-file", "login.txt", "-f", "urls.txt"},
			"login.txt:1: undefined variable password (set it in the environment or on a line password=VALUE above this one); each user has user, pass (the columns of DIR/users.csv)"},
		{"a login's extracted name without the login file", nil, []string{"--data", "users.csv", "-f", "urls.txt"},
			"urls.txt:3: undefined variable token"},
		{"a --login line's wrong column", map[string]string{"urls.txt": site + "/account\n"}, []string{"--data", "users.csv", "--login", site + "/login POST u=$(usr)", "-f", "urls.txt"},
			"webload: --login 1: command line: undefined variable usr; each user has user, pass (the columns of DIR/users.csv)"},
		{"a bad extract line", map[string]string{"login.txt": "#@extract token xpath://input\n" + site + "/login\n"},
			[]string{"--login-file", "login.txt", "-f", "urls.txt"},
			"login.txt:1:"},
		{"missing login file", nil, []string{"--login-file", "nothing.txt", "-f", "urls.txt"},
			"nothing.txt: no such file or directory"},
		{"unique with more users than rows", nil, []string{"-c", "11", "--data", "users.csv", "--data-pick", "unique", "--login-file", "login.txt", "-f", "urls.txt"},
			"webload: --data-pick unique: unique pick needs 11 rows for 11 users, DIR/users.csv has 10"},
		{"unique with more open-model users than rows", nil, []string{"--rate", "5", "--max-users", "50", "--data", "users.csv", "--data-pick", "unique", "--login-file", "login.txt", "-f", "urls.txt"},
			"webload: --data-pick unique: unique pick needs 50 rows for 50 users, DIR/users.csv has 10 (lower --max-users)"},
		{"unique with more open-model users than rows over the shards", nil, []string{"--rate", "5", "--max-users", "4", "--shard", "1/3", "--data", "users.csv", "--data-pick", "unique", "--login-file", "login.txt", "-f", "urls.txt"},
			"webload: --data-pick unique: unique pick needs 12 rows for 12 users, DIR/users.csv has 10 (lower --max-users)"},
		{"relogin without a login", map[string]string{"urls.txt": site + "/user/$(user)\n"}, []string{"--relogin-every", "5", "--data", "users.csv", "-f", "urls.txt", "-c", "1"},
			"webload: --relogin-every: there is no login to repeat: give --login-file FILE or --login URL"},
		{"negative relogin", nil, []string{"--relogin-every", "-1", "--data", "users.csv", "--login-file", "login.txt", "-f", "urls.txt"},
			"webload: --relogin-every: want a number of requests from 1 (got -1)"},
		{"a header's unknown variable", nil, []string{"-H", "X-Token: $(tokn)", "--data", "users.csv", "--login-file", "login.txt", "-f", "urls.txt"},
			"webload: -H: $(tokn) is no --data column and no name an #@extract line sets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := sessionFiles(t, site, 10, tt.files)
			args := []string{"-q", "--no-parser"}
			for _, a := range tt.args {
				if strings.HasSuffix(a, ".csv") || strings.HasSuffix(a, ".txt") {
					a = filepath.Join(dir, a)
				}
				args = append(args, a)
			}
			stdout, stderr, code := webload(t, nil, args...)
			want := strings.ReplaceAll(tt.want, "DIR/", dir+string(filepath.Separator))
			if code != 2 || !strings.Contains(stderr, want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, want)
			}
			if strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr has %d lines, want one:\n%s", strings.Count(stderr, "\n"), stderr)
			}
			if strings.Contains(stdout+stderr, "pw-secret") {
				t.Errorf("a password shows:\n%s%s", stdout, stderr)
			}
		})
	}
}
