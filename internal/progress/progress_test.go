package progress

import (
	"strings"
	"testing"
	"time"
)

func TestLineText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		plan     Plan
		color    bool
		f        Figures
		progress string // prefix of the text before the bar
		figures  string
	}{
		{"time plan, first second", Plan{Duration: 30 * time.Second}, false, Figures{Requests: 12},
			"0s / 30s", " 12 req  0 failed"},
		{"time plan with an interval", Plan{Duration: 30 * time.Second}, false,
			Figures{Requests: 500, Failures: 2, Rate: 498.4, P99: 12340 * time.Microsecond, HaveInterval: true},
			"0s / 30s", " 500 req  498 req/s  2 failed  p99 12.3 ms"},
		{"request plan", Plan{Requests: 1000}, false, Figures{Requests: 250}, "0s  250 / 1000 req", " 250 req  0 failed"},
		{"failures in colour", Plan{}, true, Figures{Requests: 9, Failures: 3}, "0s", " 9 req  \x1b[31m3 failed\x1b[0m"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := &Display{plan: tc.plan, start: time.Now(), color: tc.color}
			d.latest.Store(&tc.f)
			if got := d.progressText(); !strings.HasPrefix(got, tc.progress) {
				t.Errorf("progress text %q, want prefix %q", got, tc.progress)
			}
			if got := d.figuresText(); got != tc.figures {
				t.Errorf("figures text %q, want %q", got, tc.figures)
			}
		})
	}
}
