package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webload/webload/urls"
	"github.com/webload/webload/userdata"
)

// TestLoginExampleParses keeps examples/login valid: its data file reads, its login file's
// steps use the data's columns and extract the token the POST sends, and its URL file uses the
// data's columns, as --data, --login-file and -f read them.
func TestLoginExampleParses(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "examples", "login")
	data, err := userdata.Read(filepath.Join(dir, "users.csv"), userdata.Sequential)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(data.Names(), []string{"user", "pass"}) || data.Len() != 10 {
		t.Errorf("users.csv: names %q, %d rows; want user, pass and 10 rows", data.Names(), data.Len())
	}
	env := func(name string) (string, bool) { return "http://127.0.0.1:8080", name == "WIKI" }
	sess := &sessions{data: data, extracts: map[string]bool{}}
	login, err := urls.ParseFile(filepath.Join(dir, "login.txt"), urls.Options{Getenv: env, PerUser: sess.perUser})
	if err != nil {
		t.Fatal(err)
	}
	if len(login) != 2 || len(login[0].Extracts) != 1 || login[0].Extracts[0].Name() != "token" {
		t.Fatalf("login.txt: %d steps, the first extracting %v; want 2, the first the token", len(login), login[0].Extracts)
	}
	post := login[1]
	if post.Method != "POST" || post.BodyVars == nil || !slices.Equal(post.BodyVars.Names(), []string{"user", "pass", "token"}) || len(post.Checks) != 1 {
		t.Errorf("login.txt's POST: %s %s, per-user body names %v, %d checks", post.Method, post.URL, post.BodyVars, len(post.Checks))
	}
	sess.extracts["token"] = true
	pages, err := urls.ParseFile(filepath.Join(dir, "urls.txt"), urls.Options{Getenv: env, PerUser: sess.perUser})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 3 || pages[2].URLVars == nil || !strings.Contains(pages[2].URL, "User:$(user)") {
		t.Errorf("urls.txt: %d pages, the last %q", len(pages), pages[len(pages)-1].URL)
	}
}

// TestWordPressExampleParses keeps the WordPress variant of examples/login valid.
func TestWordPressExampleParses(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "examples", "login")
	data, err := userdata.Read(filepath.Join(dir, "users.csv"), userdata.Sequential)
	if err != nil {
		t.Fatal(err)
	}
	env := func(name string) (string, bool) { return "http://127.0.0.1:8080", name == "WP" }
	opt := urls.Options{Getenv: env, PerUser: (&sessions{data: data}).perUser}
	login, err := urls.ParseFile(filepath.Join(dir, "wordpress-login.txt"), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(login) != 2 || login[1].BodyVars == nil || !slices.Equal(login[1].BodyVars.Names(), []string{"user", "pass"}) || len(login[1].Checks) != 1 {
		t.Errorf("wordpress-login.txt: %d steps, the POST's per-user names %v", len(login), login[len(login)-1].BodyVars)
	}
	if pages, err := urls.ParseFile(filepath.Join(dir, "wordpress-urls.txt"), opt); err != nil || len(pages) != 3 {
		t.Errorf("wordpress-urls.txt: %d pages, %v", len(pages), err)
	}
}
