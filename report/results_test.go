package report

import (
	"testing"

	"github.com/webload/webload/internal/resulttest"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
)

// knownRun is resulttest.KnownRun, recorded.
func knownRun() (*stats.Recorder, loader.Outcome) {
	targets, results, out := resulttest.KnownRun()
	rec := stats.NewRecorder(targets, stats.Options{})
	rec.Record(results)
	return rec, out
}

func loadSaved(t testing.TB, name string) stats.Report {
	return resulttest.Load(t, stats.ReadJSON, name)
}
