package progress

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestLineText(t *testing.T) {
	t.Parallel()
	// The elapsed time a progress text starts with, as time.Duration prints whole seconds:
	// 0s, 42s, 1m5s, 2h0m0s.
	elapsedPrefix := regexp.MustCompile(`^([0-9]+h)?([0-9]+m)?[0-9]+s`)
	tests := []struct {
		name     string
		plan     Plan
		color    bool
		f        Figures
		progress string // prefix of the text before the bar
		figures  string
	}{
		{"time plan, first second", Plan{Duration: 30 * time.Second}, false, Figures{Requests: 12},
			" / 30s", " 12 req  0 failed"},
		{"time plan with an interval", Plan{Duration: 30 * time.Second}, false,
			Figures{Requests: 500, Failures: 2, Rate: 498.4, P99: 12340 * time.Microsecond, HaveInterval: true},
			" / 30s", " 500 req  498 req/s  2 failed  p99 12.3 ms"},
		{"request plan", Plan{Requests: 1000}, false, Figures{Requests: 250}, "  250 / 1000 req", " 250 req  0 failed"},
		{"failures in colour", Plan{}, true, Figures{Requests: 9, Failures: 3}, " ", " 9 req  \x1b[31m3 failed\x1b[0m"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := &Display{plan: tc.plan, start: time.Now(), color: tc.color}
			d.latest.Store(&tc.f)
			// The text starts with the time elapsed since start, which a busy machine can
			// make a second or more: the test reads what follows it.
			got := d.progressText()
			if rest := elapsedPrefix.ReplaceAllString(got, ""); rest == got || !strings.HasPrefix(rest, tc.progress) {
				t.Errorf("progress text %q, want the elapsed time, then %q", got, tc.progress)
			}
			if got := d.figuresText(); got != tc.figures {
				t.Errorf("figures text %q, want %q", got, tc.figures)
			}
		})
	}
}
