package stats

import (
	"io"
	"testing"
	"time"

	"github.com/webload/webload/loader"
)

// BenchmarkCombineManyURLs is a --repeat 2 series over a 1 000-URL list combined: every
// histogram of both runs decoded and added, the result's encoded.
func BenchmarkCombineManyURLs(b *testing.B) {
	runs, _ := manyURLRuns(b, 1000, 2)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Combine(runs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMergeShards merges two saved shards of an open-model run (timelines and schedules).
func BenchmarkMergeShards(b *testing.B) {
	shards := []Report{loadSaved(b, "open-shard0"), loadSaved(b, "open-shard1")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Merge(shards); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecorderReport is the end of a run over a 1 000-URL list: the recorder's figures
// made into a Report, every histogram encoded.
func BenchmarkRecorderReport(b *testing.B) {
	_, all := manyURLRuns(b, 1000, 2)
	b.ReportAllocs()
	for b.Loop() {
		_ = all.Report(loader.Outcome{Elapsed: time.Second, Users: 10}, RunInfo{}, "x")
	}
}

// BenchmarkWriteJSONManyURLs writes the result of a 1 000-URL run as JSON.
func BenchmarkWriteJSONManyURLs(b *testing.B) {
	runs, _ := manyURLRuns(b, 1000, 1)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteJSON(io.Discard, &runs[0]); err != nil {
			b.Fatal(err)
		}
	}
}
