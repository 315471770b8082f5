package loader

import (
	"net/http"
	"strings"
	"testing"
)

// Headers longer than the header buffer fail as bad responses with a message that names the
// fix; a buffer raised with HeaderBuffer reads them.
func TestHeaderBuffer(t *testing.T) {
	big := strings.Repeat("c", 20<<10)
	srv := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", big)
		_, _ = w.Write([]byte("ok"))
	})
	cases := []struct {
		name   string
		buffer int
		want   ErrKind
	}{
		{"default 16 KiB", 0, ErrBadResponse},
		{"raised to 32 KiB", 32 << 10, ErrNone},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			results, out := run(t, Config{Users: 2, Reps: 3, HeaderBuffer: tc.buffer}, pageTargets(t, srv.URL, 1))
			if len(results) != 6 {
				t.Fatalf("%d results, want 6", len(results))
			}
			for _, r := range results {
				if r.Err != tc.want {
					t.Fatalf("result %+v, want error kind %v", r, tc.want)
				}
			}
			if tc.want != ErrNone && !strings.Contains(out.ErrorSamples[tc.want], "raise --header-buffer") {
				t.Errorf("message %q does not say how to fix it", out.ErrorSamples[tc.want])
			}
		})
	}
}

func TestHeaderBufferDefault(t *testing.T) {
	cases := []struct{ users, want int }{
		{1, 16 << 10}, {2560, 16 << 10}, {2561, 8 << 10}, {5120, 8 << 10}, {10000, 4 << 10}, {100000, 4 << 10},
	}
	for _, tc := range cases {
		if got := (&Config{Users: tc.users}).headerBuffer(); got != tc.want {
			t.Errorf("%d users: header buffer %d, want %d", tc.users, got, tc.want)
		}
	}
}

// The advice to raise --header-buffer is given only while it can be raised: headers longer
// than the largest buffer are said to be too large, with no advice.
func TestHeaderBufferAdvice(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("c", MaxHeaderBuffer+(MaxHeaderBuffer>>1))
	srv := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", big)
		_, _ = w.Write([]byte("ok"))
	})
	cases := []struct {
		name   string
		buffer int
		advice bool
	}{
		{"default buffer", 0, true},
		{"largest buffer", MaxHeaderBuffer, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			results, out := run(t, Config{Users: 1, Reps: 1, HeaderBuffer: tc.buffer}, pageTargets(t, srv.URL, 1))
			if len(results) != 1 || results[0].Err != ErrBadResponse {
				t.Fatalf("results %+v, want one bad response", results)
			}
			msg := out.ErrorSamples[ErrBadResponse]
			if got := strings.Contains(msg, "raise --header-buffer"); got != tc.advice {
				t.Errorf("message %q: advice given %v, want %v", msg, got, tc.advice)
			}
			if !strings.Contains(msg, "response headers") {
				t.Errorf("message %q does not say the headers are too long", msg)
			}
		})
	}
}
