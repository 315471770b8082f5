package report

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/webload/webload/stats"
)

func TestAppendLog(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "siege.log")
	rec, out := knownRun()
	rep := rec.Report(out, stats.RunInfo{}, "")
	at := time.Date(2026, 12, 1, 2, 39, 15, 0, time.UTC)
	if err := AppendLog(path, &rep, "run A", at); err != nil {
		t.Fatal(err)
	}
	if err := AppendLog(path, &rep, "", at); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Column widths as siege writes them (checked against siege 4.0.7's own log).
	want := logHeader +
		"**** run A ****\n" +
		"2026-12-01 02:39:15,      6,       2.00,           4,       0.18,        3.00,        2.25,        2.03,       5,       2\n" +
		"2026-12-01 02:39:15,      6,       2.00,           4,       0.18,        3.00,        2.25,        2.03,       5,       2\n"
	if string(got) != want {
		t.Errorf("log file:\n%s\nwant:\n%s", got, want)
	}
}

func TestSaveJSONIsAtomicAndReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "result.json")
	rec, out := knownRun()
	rep := rec.Report(out, stats.RunInfo{Version: "x"}, "lbl")
	if err := stats.SaveJSON(path, &rep); err != nil {
		t.Fatal(err)
	}
	back, err := stats.ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Transactions != rep.Transactions || back.Label != "lbl" || back.Histogram != rep.Histogram {
		t.Errorf("read back %+v", back)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}
