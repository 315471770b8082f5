package stats

import (
	_ "embed" // the schema file
	"slices"
)

// resultSchema is the JSON Schema (draft 2020-12) of the saved result, generated from Report
// and the types it holds (schema_test.go regenerates it and fails when it is out of date).
//
//go:embed result.schema.json
var resultSchema []byte

// Schema returns the JSON Schema (draft 2020-12) of the result -o writes and -j prints, of
// format FormatVersion. Keys a struct does not name are refused, so a result validates against
// the schema of the webload that wrote it and of every later one, not an earlier one's.
func Schema() []byte { return slices.Clone(resultSchema) }
