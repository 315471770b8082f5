package loader

import (
	"net/http"
	"strings"
	"testing"
)

// Headers longer than the header buffer fail as bad responses with a message that names the
// fix while the buffer can still be raised (up to MaxHeaderBuffer), and says the headers are too
// large beyond that; a buffer raised with HeaderBuffer reads them.
func TestHeaderBuffer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		header int // bytes of one response header
		buffer int
		want   ErrKind
		advice bool
	}{
		{"default 16 KiB", 20 << 10, 0, ErrBadResponse, true},
		{"raised to 32 KiB", 20 << 10, 32 << 10, ErrNone, false},
		{"past the largest, default buffer", MaxHeaderBuffer + (MaxHeaderBuffer >> 1), 0, ErrBadResponse, true},
		{"past the largest, largest buffer", MaxHeaderBuffer + (MaxHeaderBuffer >> 1), MaxHeaderBuffer, ErrBadResponse, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			big := strings.Repeat("c", tc.header)
			srv := newHitServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Big", big)
				_, _ = w.Write([]byte("ok"))
			})
			results, out := run(t, Config{Users: 2, Reps: 3, HeaderBuffer: tc.buffer}, pageTargets(t, srv.URL, 1))
			if len(results) != 6 {
				t.Fatalf("%d results, want 6", len(results))
			}
			for _, r := range results {
				if r.Err != tc.want {
					t.Fatalf("result %+v, want error kind %v", r, tc.want)
				}
			}
			if tc.want == ErrNone {
				return
			}
			msg := out.ErrorSamples[tc.want]
			if got := strings.Contains(msg, "raise HeaderBuffer"); got != tc.advice {
				t.Errorf("message %q: advice given %v, want %v", msg, got, tc.advice)
			}
			if !strings.Contains(msg, "response headers") {
				t.Errorf("message %q does not say the headers are too long", msg)
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
