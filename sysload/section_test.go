package sysload

import (
	"testing"

	"github.com/webload/webload/section"
)

// The server's figures are measured from a summary with samples, and not from none; Combine
// keeps the highest load and memory and weights CPU busy by each run's length.
func TestSectionFigures(t *testing.T) {
	t.Parallel()
	s := &Summary{Samples: 3, MaxLoad1: 1.5, PeakMemUsedMB: 800, MemTotalMB: 2000, CPUBusyPercent: 40}
	want := map[string]float64{"la": 1.5, "mem": 800}
	for _, f := range Figures {
		if got, ok := s.Value(f.Name, section.Run{}); !ok || got != want[f.Name] {
			t.Errorf("%s = %v, %v; want %v", f.Name, got, ok, want[f.Name])
		}
		if _, ok := (&Summary{}).Value(f.Name, section.Run{}); ok {
			t.Errorf("%s measured without a sample", f.Name)
		}
	}
	if len(want) != len(Figures) {
		t.Errorf("%d figures, %d checked", len(Figures), len(want))
	}
	other := &Summary{Samples: 1, MaxLoad1: 3, PeakMemUsedMB: 500, MemTotalMB: 2000, CPUBusyPercent: 100}
	c := Combine([]*Summary{s, nil, other}, []float64{30, 5, 10})
	if c.Samples != 4 || c.MaxLoad1 != 3 || c.PeakMemUsedMB != 800 || c.CPUBusyPercent != 55 {
		t.Errorf("combined %+v; want 4 samples, load 3, 800 MB, 55 %% busy", *c)
	}
	if Combine([]*Summary{nil}, []float64{1}) != nil {
		t.Error("a server combined from no summary")
	}
}
