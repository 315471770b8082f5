package userdata

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/webload/webload/loader"
)

// A Table is what the loader's users take their variables from.
var _ loader.UserData = (*Table)(nil)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		names      []string
		rows       [][]string
	}{
		{"plain", "user,pass\nalice,s3cret\nbob,hunter2\n", []string{"user", "pass"}, [][]string{{"alice", "s3cret"}, {"bob", "hunter2"}}},
		{"crlf and no final newline", "user,pass\r\nalice,a\r\nbob,b", []string{"user", "pass"}, [][]string{{"alice", "a"}, {"bob", "b"}}},
		{"byte order mark", "\ufeffuser,pass\nalice,a\n", []string{"user", "pass"}, [][]string{{"alice", "a"}}},
		{"quoted fields", "user,pass\n\"o'neil, jr\",\"say \"\"hi\"\"\"\n\"multi\nline\",\"\"\n", []string{"user", "pass"}, [][]string{{"o'neil, jr", `say "hi"`}, {"multi\nline", ""}}},
		{"blanks kept in values", "user,pass\n alice , p w \n", []string{"user", "pass"}, [][]string{{" alice ", " p w "}}},
		{"utf-8 values", "user,pass\nJosé,пароль\n", []string{"user", "pass"}, [][]string{{"José", "пароль"}}},
		{"one column, blank lines skipped", "user\n\nalice\n\nbob\n", []string{"user"}, [][]string{{"alice"}, {"bob"}}},
		{"semicolons, as spreadsheets save them where the comma is a decimal mark", "user;pass\r\nalice;p,w\r\n\"bob;jr\";b\r\n", []string{"user", "pass"}, [][]string{{"alice", "p,w"}, {"bob;jr", "b"}}},
		{"tabs", "user\tpass\nalice\tp;w\n", []string{"user", "pass"}, [][]string{{"alice", "p;w"}}},
		{"commas in the header win", "user,pass\nalice;x,p\tw\n", []string{"user", "pass"}, [][]string{{"alice;x", "p\tw"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tab, err := Parse(strings.NewReader(tc.text), "users.csv", Sequential)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tab.Names(), tc.names) || !reflect.DeepEqual(tab.rows, tc.rows) {
				t.Errorf("names %q rows %q, want %q %q", tab.Names(), tab.rows, tc.names, tc.rows)
			}
			if tab.Len() != len(tc.rows) {
				t.Errorf("Len %d, want %d", tab.Len(), len(tc.rows))
			}
		})
	}
}

// TestParseErrors pins each problem's message: the file and line, what is wrong, and never a
// value (the rows hold a password, "hunter2").
func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "users.csv: empty: want a header row"},
		{"header only", "user,pass\n", "users.csv: no rows after the header"},
		{"utf-16", "\xff\xfeu\x00s\x00", "users.csv: UTF-16 text"},
		{"short row", "user,pass\nalice,hunter2\nbob\n", "users.csv:3: 1 fields, the header row has 2"},
		{"long row", "user,pass\r\nalice,hunter2,x\r\n", `users.csv:2: 3 fields, the header row has 2 (a value with ',' in it must be in double quotes)`},
		{"long row of semicolons", "user;pass\nalice;hunter2;x\n", `users.csv:2: 3 fields, the header row has 2 (a value with ';' in it must be in double quotes)`},
		{"row after a multi-line field", "user,pass\n\"a\nb\",hunter2\nc,hunter2,x\n", "users.csv:4: 3 fields"},
		{"name with a blank", "user, pass\nalice,hunter2\n", `users.csv:1: column 2: " pass" is not a variable name`},
		{"empty name", "user,,x\na,hunter2,c\n", `users.csv:1: column 2: "" is not a variable name`},
		{"name with a dash", "user,pass-word\na,hunter2\n", `column 2: "pass-word" is not a variable name`},
		{"duplicate name", "user,pass,user\na,hunter2,c\n", "users.csv:1: column 3: user is column 1's name too"},
		{"bare quote", "user,pass\nalice,hun\"ter2\n", "users.csv:2: bare \" in non-quoted-field (byte 10 of the line)"},
		{"unclosed quote", "user,pass\nalice,\"hunter2\n", "users.csv:2: extraneous or missing \" in quoted-field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(strings.NewReader(tc.text), "users.csv", Sequential)
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want it to contain %q", msg, tc.want)
			}
			if strings.Contains(msg, "hunter2") || strings.Contains(msg, "\n") {
				t.Errorf("error %q shows a value or spans lines", msg)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "users.csv")
	if err := os.WriteFile(path, []byte("user,pass\nalice,a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tab, err := Read(path, Unique)
	if err != nil {
		t.Fatal(err)
	}
	if tab.File() != path || tab.Pick() != Unique || !tab.Has("pass") || tab.Has("password") {
		t.Errorf("file %q pick %v has pass %v", tab.File(), tab.Pick(), tab.Has("pass"))
	}
	_, err = Read(filepath.Join(dir, "missing.csv"), Sequential)
	if err == nil || !strings.Contains(err.Error(), "missing.csv") {
		t.Errorf("a missing file: %v", err)
	}
}

func TestParsePick(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want Pick
		bad  bool
	}{
		{"sequential", Sequential, false},
		{"random", Random, false},
		{"unique", Unique, false},
		{"Random", 0, true},
		{"", 0, true},
	} {
		got, err := ParsePick(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("ParsePick(%q) = %v, %v", tc.in, got, err)
		}
		if !tc.bad && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
}

func table(t *testing.T, pick Pick, rows int) *Table {
	t.Helper()
	var b strings.Builder
	b.WriteString("user\n")
	for i := range rows {
		b.WriteString("u" + string(rune('0'+i)) + "\n")
	}
	tab, err := Parse(strings.NewReader(b.String()), "users.csv", pick)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestRowPicks(t *testing.T) {
	t.Parallel()
	rows := func(tab *Table, users int, seed uint64) []string {
		var got []string
		for u := range users {
			got = append(got, tab.Row(u, rand.New(rand.NewPCG(seed, uint64(u))))[0])
		}
		return got
	}
	if got := rows(table(t, Sequential, 3), 7, 1); !reflect.DeepEqual(got, []string{"u0", "u1", "u2", "u0", "u1", "u2", "u0"}) {
		t.Errorf("sequential: %q", got)
	}
	if got := rows(table(t, Unique, 3), 3, 1); !reflect.DeepEqual(got, []string{"u0", "u1", "u2"}) {
		t.Errorf("unique: %q", got)
	}
	random := table(t, Random, 5)
	first := rows(random, 40, 7)
	if again := rows(random, 40, 7); !reflect.DeepEqual(first, again) {
		t.Errorf("random with the same seeds: %q then %q", first, again)
	}
	seen := map[string]int{}
	for _, r := range first {
		seen[r]++
	}
	// 40 draws of 5 rows: a run that missed one, or gave the rows in order, is not random.
	if len(seen) != 5 || reflect.DeepEqual(first, rows(table(t, Sequential, 5), 40, 7)) {
		t.Errorf("random: %v", seen)
	}
	if got := table(t, Sequential, 3).Row(-1, nil)[0]; got != "u2" {
		t.Errorf("user -1: %q", got)
	}
}

func TestCheckUsers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pick  Pick
		users int
		want  string
	}{
		{Unique, 10, ""},
		{Unique, 11, "unique pick needs 11 rows for 11 users, users.csv has 10"},
		{Sequential, 11, ""},
		{Random, 100, ""},
	} {
		err := table(t, tc.pick, 10).Check(tc.users)
		if got := fmtErr(err); got != tc.want {
			t.Errorf("%v, %d users: %q, want %q", tc.pick, tc.users, got, tc.want)
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestMarshalJSONHidesValues: what a fingerprint holds of the table tells its shape, not its
// passwords.
func TestMarshalJSONHidesValues(t *testing.T) {
	t.Parallel()
	tab, err := Parse(strings.NewReader("user,pass\nalice,hunter2\nbob,swordfish\n"), "users.csv", Random)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(struct{ Data loader.UserData }{tab})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"Data":{"Names":["user","pass"],"Rows":2,"Pick":"random"}}`; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}
