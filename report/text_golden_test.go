package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/golden"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

func TestEmptyRunHasNoNaN(t *testing.T) {
	t.Parallel()
	rec := stats.NewRecorder([]urls.Target{{Method: "GET", URL: "http://127.0.0.1/"}}, stats.Options{})
	rep := rec.Report(loader.Outcome{}, stats.RunInfo{}, "")
	var b bytes.Buffer
	if err := stats.WriteJSON(&b, &rep); err != nil {
		t.Fatalf("empty report does not encode: %v", err)
	}
	if err := WriteText(&b, &rep, TextOptions{PerURL: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "NaN") || strings.Contains(b.String(), "Inf") {
		t.Errorf("empty run printed NaN or Inf:\n%s", b.String())
	}
}

func TestTextGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opt  TextOptions
	}{
		{"siege40", TextOptions{Layout: Siege40}},
		{"siege41-per-url", TextOptions{Layout: Siege41, PerURL: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec, out := knownRun()
			rep := rec.Report(out, stats.RunInfo{}, "known")
			var b bytes.Buffer
			if err := WriteText(&b, &rep, tc.opt); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", tc.name+".golden"), b.Bytes(), *update)
		})
	}
}

func TestParseLayout(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Layout{"4.0": Siege40, "4": Siege40, "4.1": Siege41} {
		if got, err := ParseLayout(in); err != nil || got != want {
			t.Errorf("ParseLayout(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseLayout("3.0"); err == nil {
		t.Error("ParseLayout(3.0) accepted")
	}
}
