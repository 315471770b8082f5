package run

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
	"github.com/webload/webload/userdata"
)

// TestFingerprintOfSessions: the data file's shape and pick and the login steps are part of
// what a run tests, so shards that differ in them do not merge; the data's values, often
// passwords, are not hashed (a hash of a short password can be guessed back).
func TestFingerprintOfSessions(t *testing.T) {
	t.Parallel()
	read := func(text string, pick userdata.Pick) *userdata.Table {
		tab, err := userdata.Parse(strings.NewReader(text), "users.csv", pick)
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	const two = "user,pass\nalice,hunter2\nbob,swordfish\n"
	targets := []urls.Target{{Method: "GET", URL: "http://h/account"}}
	login := []urls.Target{{Method: "POST", URL: "http://h/login", Body: []byte("u=$(user)&p=$(pass)")}}
	cfg := func(data loader.UserData, login []urls.Target) loader.Config {
		c := loader.DefaultConfig()
		c.Data, c.Login = data, login
		return c
	}
	base := fingerprint(cfg(read(two, userdata.Sequential), login), targets, false)
	for _, tc := range []struct {
		name string
		cfg  loader.Config
		same bool
	}{
		{"other passwords", cfg(read("user,pass\nalice,x\nbob,y\n", userdata.Sequential), login), true},
		{"another pick", cfg(read(two, userdata.Random), login), false},
		{"another row count", cfg(read(two+"carol,z\n", userdata.Sequential), login), false},
		{"other columns", cfg(read("user,password\nalice,x\nbob,y\n", userdata.Sequential), login), false},
		{"no data", cfg(nil, login), false},
		{"no login", cfg(read(two, userdata.Sequential), nil), false},
	} {
		if got := fingerprint(tc.cfg, targets, false); (got == base) != tc.same {
			t.Errorf("%s: fingerprint %s, base %s; want the same: %v", tc.name, got, base, tc.same)
		}
	}
	b, err := json.Marshal(cfg(read(two, userdata.Sequential), login))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "hunter2") || strings.Contains(string(b), "swordfish") {
		t.Errorf("the fingerprinted settings hold a password: %s", b)
	}
}
