package gate

import (
	"testing"
	"time"

	"github.com/webload/webload/stats"
)

// Each --abort-on gate is a verdict: failed with the window's value when it stopped the run,
// passed otherwise.
func TestAbortVerdicts(t *testing.T) {
	t.Parallel()
	var gates []Gate
	for _, expr := range []string{"p95>2s", "error_rate>5"} {
		g, err := ParseLiveGate(expr)
		if err != nil {
			t.Fatal(err)
		}
		gates = append(gates, g)
	}
	fired := &stats.Abort{Gate: "error_rate>5", Value: 12.5, At: 3.2, Window: 2}
	for _, tc := range []struct {
		name  string
		fired *stats.Abort
		texts []string
	}{
		{"none fired", nil, []string{"--abort-on p95>2s: held over no 2s window: ok", "--abort-on error_rate>5: held over no 2s window: ok"}},
		{"one fired", fired, []string{"--abort-on p95>2s: held over no 2s window: ok",
			"--abort-on error_rate>5: error_rate was 12.500 % over the last 2s, at 3.2 s into the run: FAILED"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := AbortVerdicts(gates, 2*time.Second, tc.fired)
			if len(got) != len(tc.texts) {
				t.Fatalf("%d verdicts, want %d", len(got), len(tc.texts))
			}
			for i, v := range got {
				if v.Text != tc.texts[i] || v.Passed != (tc.fired == nil || i == 0) || v.Check != "--abort-on "+gates[i].Expr {
					t.Errorf("verdict %d: %+v, want %q", i, v, tc.texts[i])
				}
			}
			if tc.fired != nil && got[1].Measured != 12.5 {
				t.Errorf("the fired gate measured %v, want 12.5", got[1].Measured)
			}
		})
	}
}
