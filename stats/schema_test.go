package stats

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	jsonschema6 "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/webload/webload/content"
	"github.com/webload/webload/internal/golden"
	"github.com/webload/webload/internal/resulttest"
)

// module is the import path the packages of Report's types are under.
const module = "github.com/webload/webload"

// generateSchema reflects the JSON Schema of the saved result from Report and the types it
// holds, their doc comments giving the descriptions. It runs in the package's directory, whose
// parent is the module's.
func generateSchema(t *testing.T) []byte {
	t.Helper()
	r := &jsonschema.Reflector{
		Anonymous: true,
		// Two packages name a type Summary (sysload's and dbload's): each definition outside
		// stats takes its package's name first. A content.Profile is written as its saved form.
		Namer: func(t reflect.Type) string {
			if t == reflect.TypeOf(content.Profile{}.JSONSchemaAlias()) {
				return "ContentProfile"
			}
			pkg := t.PkgPath()
			if pkg == module+"/stats" || !strings.HasPrefix(pkg, module+"/") {
				return ""
			}
			name := pkg[strings.LastIndex(pkg, "/")+1:]
			return strings.ToUpper(name[:1]) + name[1:] + t.Name()
		},
	}
	// AddGoComments names a package by base joined with its directory as walked: "../content"
	// under module+"/stats" is module+"/content".
	for _, dir := range []string{".", "../content", "../sysload", "../dbload", "../loader"} {
		if err := r.AddGoComments(module+"/stats", dir); err != nil {
			t.Fatal(err)
		}
	}
	s := r.Reflect(&Report{})
	s.Title = "webload result"
	s.Description = "A run's result as webload -o writes it and -j prints it (docs/outputs.md)."
	rep, ok := s.Definitions["Report"]
	if !ok {
		t.Fatal("no definition of Report")
	}
	version, ok := rep.Properties.Get("format_version")
	if !ok {
		t.Fatal("Report has no format_version")
	}
	version.Minimum = json.Number("1")
	version.Maximum = json.Number(strconv.Itoa(FormatVersion))
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestSchemaUpToDate: the schema webload prints is the one Report's types give today; -update
// rewrites it. A change of a saved key without regenerating fails here.
func TestSchemaUpToDate(t *testing.T) {
	t.Parallel()
	golden.Check(t, "result.schema.json", generateSchema(t), *update)
}

// compileSchema compiles Schema() with a validator of draft 2020-12.
func compileSchema(t testing.TB) *jsonschema6.Schema {
	t.Helper()
	doc, err := jsonschema6.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema6.NewCompiler()
	c.DefaultDraft(jsonschema6.Draft2020)
	if err := c.AddResource("result.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("result.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validate checks a result file's bytes against the schema.
func validate(t *testing.T, s *jsonschema6.Schema, name string, data []byte) {
	t.Helper()
	doc, err := jsonschema6.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("%s does not validate: %v", name, err)
	}
}

// TestSavedResultsValidate: every result an earlier release saved, and every one this build
// writes from them (merged, combined), validates against the schema.
func TestSavedResultsValidate(t *testing.T) {
	t.Parallel()
	s := compileSchema(t)
	results, err := filepath.Glob(filepath.Join("testdata", "saved", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, written := range []string{"combine-*.json", "merge-*.json"} { // not compare-: no result
		paths, err := filepath.Glob(filepath.Join("..", "report", "testdata", "saved", "golden", written))
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, paths...)
	}
	if len(results) < len(resulttest.Saved) {
		t.Fatalf("found %d results, want at least the %d fixtures", len(results), len(resulttest.Saved))
	}
	for _, path := range results {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		validate(t, s, path, data)
	}
}

// TestSchemaRefuses: the schema is no formality: a key no type names, a missing key every
// result has, a value of the wrong type and a newer format_version each fail it.
func TestSchemaRefuses(t *testing.T) {
	t.Parallel()
	s := compileSchema(t)
	saved, err := os.ReadFile(filepath.Join("testdata", "saved", "closed.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"unknown key", `"transactions": 24,`, `"transactions": 24, "transactionz": 1,`},
		{"unknown key in a URL row", `"method": "GET",`, `"method": "GET", "verb": "GET",`},
		{"missing key", `"transactions": 24,`, ``},
		{"wrong type", `"transactions": 24,`, `"transactions": "24",`},
		{"newer format", `"transactions": 24,`, `"transactions": 24, "format_version": ` + strconv.Itoa(FormatVersion+1) + `,`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bad := bytes.Replace(saved, []byte(tc.old), []byte(tc.new), 1)
			if bytes.Equal(bad, saved) {
				t.Fatalf("%q is not in the fixture", tc.old)
			}
			doc, err := jsonschema6.UnmarshalJSON(bytes.NewReader(bad))
			if err != nil {
				t.Fatal(err)
			}
			if s.Validate(doc) == nil {
				t.Error("validates")
			}
		})
	}
}
