package stats

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/webload/webload/loader"
)

// countingWriter counts what is written and keeps nothing.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// The JSON of a long URL list is written a row at a time: it used to be built whole twice over
// (compact, then indented) before the first byte went out, three times the file in memory.
func TestWriteJSONOfManyURLsStreamsTheRows(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	runs, _ := manyURLRuns(t, 5000, 2)
	rep, err := Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	var out countingWriter
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := WriteJSON(&out, &rep); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	got := int64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("writing %d bytes of JSON allocated %d bytes", out.n, got)
	if got > out.n/2 {
		t.Errorf("writing %d bytes of JSON allocated %d bytes; want at most half the output", out.n, got)
	}
}

// Saving the JSON of a long URL list writes it to the file as it is made, without holding it.
func TestSaveJSONOfManyURLsStreamsToTheFile(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	runs, _ := manyURLRuns(t, 5000, 2)
	rep, err := Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	rep.Run.Version, rep.Run.HistogramUnit = "test", "us"
	path := filepath.Join(t.TempDir(), "result.json")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := SaveJSON(path, &rep); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	got := int64(after.TotalAlloc - before.TotalAlloc)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("saving %d bytes of JSON allocated %d bytes", info.Size(), got)
	if got > info.Size()/2 {
		t.Errorf("saving %d bytes of JSON allocated %d bytes; want at most half the file", info.Size(), got)
	}
	back, err := ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.URLs) != len(rep.URLs) || len(back.Repeats) != 2 || back.Transactions != rep.Transactions {
		t.Errorf("read back %d URLs, %d repeats, %d transactions; saved %d, 2, %d",
			len(back.URLs), len(back.Repeats), back.Transactions, len(rep.URLs), rep.Transactions)
	}
}

// The streamed JSON is byte for byte what encoding/json writes for the whole report.
func TestWriteJSONIsEncodingJSONsIndentedOutput(t *testing.T) {
	t.Parallel()
	runs, _ := manyURLRuns(t, 40, 2)
	combined, err := Combine(runs)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(manyTargets(3), Options{})
	rec.Record([]loader.Result{{Target: 0, Status: 200, Latency: time.Millisecond}})
	odd := rec.Report(loader.Outcome{Elapsed: time.Second, Users: 1}, RunInfo{Version: "<&>"}, `"quoted" <b>label</b> & more`)
	odd.URLs[1].URL = "http://127.0.0.1/a?b=<c>&d=\u2028"
	odd.ErrorSamples = map[string]string{"timeout": "line\nbreak"}
	cases := []struct {
		name string
		rep  Report
	}{
		{"zero report", Report{}},
		{"no URLs", Report{URLs: []URLStats{}}},
		{"one run", runs[0]},
		{"repeats", combined},
		{"characters to escape", odd},
		{"repeats without URLs", Report{Repeats: []Report{{}, {URLs: []URLStats{}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetIndent("", "  ")
			versioned := c.rep
			versioned.FormatVersion = FormatVersion // what WriteJSON writes at the top
			if err := enc.Encode(&versioned); err != nil {
				t.Fatal(err)
			}
			for _, v := range []any{&c.rep, c.rep} {
				var got bytes.Buffer
				if err := WriteJSON(&got, v); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("%T: streamed JSON differs from encoding/json's:\n%s\nwant:\n%s", v, head(got.Bytes()), head(want.Bytes()))
				}
			}
		})
	}
}

func head(b []byte) []byte { return b[:min(len(b), 3000)] }
