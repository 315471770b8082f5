package stats

import (
	"strings"
	"testing"

	"github.com/webload/webload/loader"
)

func TestCheckAcceptsRecordedRuns(t *testing.T) {
	t.Parallel()
	rec, out := knownRun()
	rep := rec.Report(out, RunInfo{}, "")
	if err := rep.Check(); err != nil {
		t.Fatal(err)
	}
	comb, err := Combine([]Report{rep, rep})
	if err != nil {
		t.Fatal(err)
	}
	if err := comb.Check(); err != nil {
		t.Errorf("combined: %v", err)
	}
}

func TestCheckCatchesMiscounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		spoil func(r *Report)
		want  string
	}{
		{"a request lost", func(r *Report) { r.Requests-- }, "requests 7 != transactions 6 + failed 2"},
		{"a failure counted twice", func(r *Report) { r.Errors[loader.ErrTimeout.String()]++ }, "failures by kind"},
		{"a status missing", func(r *Report) { r.StatusCodes["200"]-- }, "status codes count"},
		{"a URL hit missing", func(r *Report) { r.URLs[0].Hits-- }, "URLs count"},
		{"a timeline gap", func(r *Report) { r.Timeline[0].Requests-- }, "timeline counts"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec, out := knownRun()
			rep := rec.Report(out, RunInfo{}, "")
			tc.spoil(&rep)
			if err := rep.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check() = %v, want it to say %q", err, tc.want)
			}
		})
	}
}
