package judge

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"

	"github.com/webload/webload/internal/golden"
	"github.com/webload/webload/internal/resulttest"
	"github.com/webload/webload/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func loadSaved(t testing.TB, name string) stats.Report {
	return resulttest.Load(t, stats.ReadJSON, name)
}

func savedGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), got, *update)
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := stats.WriteJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func i64p(v int64) *int64 { return &v }
