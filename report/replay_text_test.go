package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/stats"
)

func TestReplaySectionTextAndJSON(t *testing.T) {
	t.Parallel()
	var late stats.Latency
	for _, d := range []time.Duration{time.Millisecond, 2 * time.Millisecond, 40 * time.Millisecond} {
		late.Record(d)
	}
	r := &stats.Replay{Logs: []string{"a.log"}, Speed: 10, LogStart: "2026-10-10T13:55:00Z", LogEnd: "2026-10-10T14:55:00Z",
		Lines: 12, Planned: 9, Sent: 8, Unsent: 1, Unparsed: 1, UnparsedSamples: []string{"a.log:3: not an access log line"},
		Skipped: map[string]int64{"status": 1, "asset: *.css": 1}}
	r.SetLateness(&late)
	if r.LatenessMax != 0.04 || r.LatenessP50 < 0.001 || r.LatenessP50 > r.LatenessP99 || r.LatenessP99 > r.LatenessMax {
		t.Errorf("lateness p50 %g, p99 %g, max %g", r.LatenessP50, r.LatenessP99, r.LatenessMax)
	}
	var b strings.Builder
	writeReplay(&b, &stats.Report{Replay: r})
	for _, want := range []string{
		"Replay:\t\t\t           9 requests planned from 2026-10-10T13:55:00Z to 2026-10-10T14:55:00Z of the log's clock at 10x; 8 sent, 1 unsent\n",
		"Replay lateness:\t",
		"40.000 ms max",
		"Log lines:\t\t          12 read; left out: unparsable: 1, asset: *.css: 1, status: 1\n",
		"Unparsable line:\ta.log:3: not an access log line\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(stats.Report{Replay: r}); err != nil {
		t.Fatal(err)
	}
	var back stats.Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Replay == nil || back.Replay.Planned != 9 || back.Replay.Skipped["status"] != 1 {
		t.Errorf("read back %+v, %v", back.Replay, err)
	}
	var none strings.Builder
	writeReplay(&none, &stats.Report{})
	if none.Len() != 0 {
		t.Errorf("a run without replay writes %q", none.String())
	}
}
