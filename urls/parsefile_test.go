package urls

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseBodyFileAbsoluteAndEmpty(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs("testdata/body.json")
	if err != nil {
		t.Fatal(err)
	}
	text := "http://h/ POST <" + empty + "\nhttp://h/ PUT <" + abs + "\nhttp://h/ PATCH <empty.txt\n"
	got, err := Parse(strings.NewReader(text), "urls.txt", dir, Options{AllowAbsoluteBodies: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []Target{
		req("POST", "http://h/", []byte{}, "", 1),
		req("PUT", "http://h/", []byte(bodyJSON), "", 2),
		req("PATCH", "http://h/", []byte{}, "", 3),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
	if got[0].Body == nil {
		t.Error("empty body file gave a nil Body; nil must mean no body")
	}
}

func TestParseFileSiegeExample(t *testing.T) {
	t.Parallel()
	got, err := ParseFile("testdata/siege-example.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(line int) string { return "testdata/siege-example.txt:" + strconv.Itoa(line) }
	const base = "http://127.0.0.1:8080"
	want := []Target{
		{Method: "GET", URL: base + "/", Source: at(4)},
		{Method: "GET", URL: base + "/search?q=a+b", Source: at(5)},
		{Method: "GET", URL: base + "/items", Source: at(6)},
		{Method: "POST", URL: base + "/login", Body: []byte("user=bob&pass=secret"), Source: at(7)},
		{Method: "PUT", URL: base + "/api", Body: []byte(`{"a":1}`), Source: at(8)},
		{Method: "POST", URL: base + "/upload", Body: []byte(bodyJSON), Source: at(9)},
		{Method: "POST", URL: base + "/api", Body: []byte(`{"a":1}`), ContentType: "application/json", Source: at(10)},
		{Method: "DELETE", URL: base + "/items/7", Source: at(11)},
		{Method: "GET", URL: base + "/price?amount=$10", Source: at(12)},
		{Method: "GET", URL: "http://www.example.com/", Source: at(13)},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d targets, want %d: %#v", len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("target %d\n got %#v\nwant %#v", i, got[i], want[i])
		}
	}
}

func TestParseFileBodyRelativeToFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "b.txt"), []byte("payload"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(sub, "urls.txt")
	if err := os.WriteFile(file, []byte("http://h/ POST <b.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ParseFile(file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || string(got[0].Body) != "payload" || got[0].Source != file+":1" {
		t.Errorf("got %#v", got)
	}
}

func TestParseFileErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, path, want string
		notExist         bool
	}{
		{"missing file", "testdata/nope.txt", "read testdata/nope.txt: open testdata/nope.txt: no such file or directory", true},
		{"folder", "testdata", "read testdata: open testdata: not a regular file (a directory)", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseFile(c.path, Options{})
			if err == nil || err.Error() != c.want {
				t.Errorf("ParseFile(%q) error = %v, want %q", c.path, err, c.want)
			}
			if errors.Is(err, os.ErrNotExist) != c.notExist {
				t.Errorf("errors.Is(err, os.ErrNotExist) = %v, want %v", errors.Is(err, os.ErrNotExist), c.notExist)
			}
		})
	}
}

func TestParseFileEmpty(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(file, []byte("# nothing here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ParseFile(file, Options{})
	if want := file + ": no URLs in file"; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
	if !errors.Is(err, ErrEmpty) {
		t.Errorf("errors.Is(%v, ErrEmpty) = false", err)
	}
}
