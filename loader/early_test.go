package loader

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webload/webload/urls"
)

// A server may answer before it read the whole request, as with a 413 to a body too large,
// and close the connection; writing the rest of the body then fails. The answer it sent is
// what the request got, not a reset.
func TestAnswerBeforeBodyRead(t *testing.T) {
	t.Parallel()
	var reqs atomic.Int64
	addr := serveLoopback(t, func(conn net.Conn) {
		defer conn.Close() // unread body bytes make this a reset
		if _, err := http.ReadRequest(bufio.NewReader(conn)); err != nil {
			return
		}
		reqs.Add(1)
		_, _ = io.WriteString(conn, "HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
	})
	body := strings.Repeat("a", 8<<20)
	tg, err := urls.ParseLine("http://"+addr+"/upload POST "+body, urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	results, _ := run(t, Config{Users: 1, Reps: 3}, []urls.Target{tg})
	if len(results) != 3 {
		t.Fatalf("%d results, want 3", len(results))
	}
	for _, r := range results {
		if r.Err != ErrNone || r.Status != 413 || r.Resent {
			t.Errorf("result %+v, want the 413, not resent", r)
		}
	}
	if got := reqs.Load(); got != 3 {
		t.Errorf("server read %d requests, want 3", got)
	}
}
