package gate

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/webload/webload/stats"
)

// A verdict's result is ok, failed or inconclusive, and an unmeasured figure has no value,
// which JSON could not carry as NaN.
func TestGateVerdicts(t *testing.T) {
	t.Parallel()
	got := GateVerdicts([]stats.Verdict{
		{Check: "v2: p95", Figure: "p95", Passed: true, Measured: 0.8, Text: "a"},
		{Check: "v2: trate", Figure: "trate", Measured: 12, Text: "b"},
		{Check: "v2: p99", Figure: "p99", Inconclusive: true, Measured: 1.5, Text: "c"},
		{Check: "v2: la", Figure: "la", Passed: true, Measured: math.NaN(), Text: "d"},
	})
	out, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"gate":"v2: p95","figure":"p95","result":"ok","measured":0.8,"text":"a"},` +
		`{"gate":"v2: trate","figure":"trate","result":"failed","measured":12,"text":"b"},` +
		`{"gate":"v2: p99","figure":"p99","result":"inconclusive","measured":1.5,"text":"c"},` +
		`{"gate":"v2: la","figure":"la","result":"ok","text":"d"}]`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	if GateVerdicts(nil) != nil {
		t.Error("no verdicts should give nil, which the JSON leaves out")
	}
}
