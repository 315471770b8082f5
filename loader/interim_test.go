package loader

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
)

// A request answered with more than 100 informational answers (100 Continue, 103 Early Hints)
// before its final one fails as too-many-1xx, over HTTP/1.1 and HTTP/2 alike, with a message
// that says so; 100 of them are still read through to the final answer.
func TestTooManyInformationalAnswers(t *testing.T) {
	t.Parallel()
	// interims writes n informational heads, 100 and 103 in turn, then a final 200.
	interims := func(n int) answerFunc {
		return func(conn net.Conn, _ *http.Request, _ int) bool {
			var b strings.Builder
			for i := range n {
				if i%2 == 0 {
					b.WriteString("HTTP/1.1 100 Continue\r\n\r\n")
				} else {
					b.WriteString("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n")
				}
			}
			if _, err := fmt.Fprint(conn, b.String()); err != nil {
				return false
			}
			return writeOK(conn)
		}
	}
	tests := []struct {
		name    string
		http2   bool
		interim int
		want    ErrKind
	}{
		{"HTTP/1.1, 100", false, 100, ErrNone},
		{"HTTP/1.1, 101", false, 101, ErrTooManyInterim},
		{"HTTP/1.1, 1000", false, 1000, ErrTooManyInterim},
		{"HTTP/2, 100", true, 100, ErrNone},
		{"HTTP/2, 101", true, 101, ErrTooManyInterim},
		{"HTTP/2, 1000", true, 1000, ErrTooManyInterim},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var url string
			if tc.http2 {
				url = "http://" + (&rawH2Server{interim: tc.interim}).start(t) + "/"
			} else {
				url = newRawServer(t, interims(tc.interim)).url("/")
			}
			results, out := run(t, Config{Users: 2, Reps: 2, HTTP2: tc.http2}, oneTarget(t, url))
			checkResults(t, results, 4, tc.want)
			if tc.want == ErrNone {
				return
			}
			if got := out.ErrorSamples[ErrTooManyInterim]; got != "more than 100 informational (1xx) answers before the final answer" {
				t.Errorf("sample %q, want the limit named", got)
			}
			if got := ErrTooManyInterim.String(); got != "too-many-1xx" {
				t.Errorf("kind named %q", got)
			}
		})
	}
}
