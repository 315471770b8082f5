package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/webload/webload/stats"
)

// TestSchemaCommand: webload schema prints the result's schema, a JSON Schema of draft 2020-12.
func TestSchemaCommand(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := webload(t, nil, "schema")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != string(stats.Schema()) {
		t.Error("webload schema prints another schema than the result's")
	}
	if !strings.Contains(stdout, `"$schema": "https://json-schema.org/draft/2020-12/schema"`) {
		t.Errorf("not a schema of draft 2020-12:\n%.300s", stdout)
	}
}

// TestFreshResultsValidate: the results runs of each kind write (-o) validate against the
// schema webload schema prints, and carry this build's format_version.
func TestFreshResultsValidate(t *testing.T) {
	t.Parallel()
	printed, _, code := webload(t, nil, "schema")
	if code != 0 {
		t.Fatalf("webload schema: exit %d", code)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(printed))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("result.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("result.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	site := newCounter(t, 0, 200)
	broken := newCounter(t, 0, 500)
	urls := filepath.Join(t.TempDir(), "urls.txt")
	list := site.URL + "/a\n" + site.URL + "/b\n" + broken.URL + "/c\n"
	if err := os.WriteFile(urls, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, key string // key: the block of its own a result of the kind holds
		args      []string
	}{
		{"closed", `"urls"`, []string{"-c", "2", "-r", "3", "-f", urls, "--label", "fresh"}},
		{"checks", `"checks"`, []string{"-c", "2", "-r", "3", "-f", urls, "--check", "status==200"}},
		{"repeat", `"repeats"`, []string{"-c", "2", "-r", "2", "-f", urls, "--repeat", "2", "--repeat-pause", "0s"}},
		{"ladder", `"steps"`, []string{"-c", "1,2", "-r", "2", "--repeat-pause", "0s", "-f", urls}},
		{"open", `"steady_state"`, []string{"--rate", "100", "--ramp", "100ms", "-r", "10", "-f", urls}},
		{"pages", `"pages"`, []string{"-c", "2", "-r", "2", startShop(t) + "/"}},
		{"server metrics", `"server"`, []string{"-c", "1", "-r", "2", "--server-metrics", "local", site.URL + "/a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "r.json")
			_, stderr, code := webload(t, nil, append([]string{"-q", "-o", out}, tc.args...)...)
			if code != 0 && code != 1 { // 1: the failed check
				t.Fatalf("exit %d: %s", code, stderr)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(data, []byte(tc.key+": ")) {
				t.Errorf("no %s in the result", tc.key)
			}
			if !bytes.Contains(data, []byte(`"format_version": `+strconv.Itoa(stats.FormatVersion)+`,`)) {
				t.Errorf("no format_version %d in the result", stats.FormatVersion)
			}
			res, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(res); err != nil {
				t.Errorf("the result does not validate: %v", err)
			}
		})
	}
}

// TestNewerResultRefused: compare refuses a result of a newer format with one line naming the
// file, and exits 2 as for any bad input.
func TestNewerResultRefused(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	old, newer := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	if _, stderr, code := webload(t, nil, "-q", "-c", "1", "-r", "2", "-o", old, site.URL+"/"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	next := strconv.Itoa(stats.FormatVersion + 1)
	data = bytes.Replace(data, []byte(`"format_version": `+strconv.Itoa(stats.FormatVersion)), []byte(`"format_version": `+next), 1)
	if err := os.WriteFile(newer, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := webload(t, nil, "compare", old, newer)
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, newer) ||
		!strings.Contains(stderr, "format_version "+next+" is newer than this webload reads") {
		t.Errorf("exit %d, stderr %q: want 2 and one line naming %s and its version", code, stderr, newer)
	}
}
