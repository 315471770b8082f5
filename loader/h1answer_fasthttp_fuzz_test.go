package loader

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/valyala/fasthttp"
)

// fasthttpHead is the read buffer fasthttp gets in FuzzH1AnswerAsFasthttp, which bounds the
// head it reads; h1Answer gets the same bound.
const fasthttpHead = 4096

// FuzzH1AnswerAsFasthttp: whatever bytes come, the event loop's reader (h1Answer) gives them
// the verdict the goroutine engine's (fasthttp's Response.Read) gives: both refuse them, or
// both read an answer with the same status, body length, version and connection close. Where
// they differ, the difference is one of those listed here and in fasthttpDiffers.
// TestLoopAnswersAsTheGoroutineEngine checks whole runs on both engines; this reaches corners.
func FuzzH1AnswerAsFasthttp(f *testing.F) {
	for _, tc := range h1Cases() {
		f.Add([]byte(tc.in), tc.head)
	}
	f.Fuzz(func(t *testing.T, in []byte, head bool) {
		if err := readsAsFasthttp(in, head, nil); err != nil {
			t.Fatalf("%s: %v", shortQuote(in), err) // the input itself, for a run whose testdata is lost
		}
	})
}

// readsAsFasthttp reads in with h1Answer and as the goroutine engine does, and tells how they
// differ, beyond the differences listed here and in fasthttpDiffers. br, when not nil, is
// the goroutine engine's read buffer, of fasthttpHead bytes, to use again.
func readsAsFasthttp(in []byte, head bool, br *bufio.Reader) error {
	var a h1Answer
	got := followH1(&a, in, head, fasthttpHead, 0)
	want := readH1WithFasthttp(in, head, br)
	switch {
	case errors.Is(got.err, errBadStatus) && want.status == 200 && anyLine(in, func(line []byte) bool {
		return bytes.HasPrefix(line, []byte("HTTP/")) && bytes.Contains(line, []byte(" 000"))
	}):
		// fasthttp reads status 000 as 200; the engine then refuses it (see checkStatus).
	case got.err == errH1Length && digitRun(in) >= 19:
		// fasthttp takes a Content-Length up to 1<<63-1, h1Answer up to 1<<62; the
		// difference shows only on answers without a body.
	case (got.err == nil) != (want.err == nil):
		if !fasthttpDiffers(in) {
			return fmt.Errorf("h1Answer %+v, fasthttp %+v (%v)", got, want, want.err)
		}
	case got.err == nil:
		// An answer read to the close leaves no connection to keep, whatever it says.
		if got.status != want.status || got.body != want.body || got.http10 != want.http10 ||
			got.close != want.close && got.status != 101 && !got.atClose {
			return fmt.Errorf("h1Answer %+v, fasthttp %+v", got, want)
		}
	}
	return nil
}

// fasthttpRead is what fasthttp read of an answer.
type fasthttpRead struct {
	status        int
	http10, close bool
	body          int64
	err           error
}

// readH1WithFasthttp reads an answer as the goroutine engine does, to the end of its body:
// fasthttp reads it, through the engine's lineEnds; a status code below 100, which the engine
// refuses after fasthttp, is an error. br, when not nil, is the read buffer to use.
func readH1WithFasthttp(in []byte, head bool, br *bufio.Reader) (r fasthttpRead) {
	var resp fasthttp.Response
	resp.SkipBody, resp.StreamBody = head, true // the engine's client streams bodies
	src := &lineEndsReader{r: bytes.NewReader(in)}
	src.ends.start(head)
	if br == nil {
		br = bufio.NewReaderSize(src, fasthttpHead)
	}
	br.Reset(src)
	if r.err = resp.Read(br); r.err != nil {
		return r
	}
	if stream := resp.BodyStream(); stream != nil {
		if r.body, r.err = io.Copy(io.Discard, stream); r.err != nil {
			return r
		}
	} else {
		r.body = int64(len(resp.Body()))
	}
	if r.status = resp.StatusCode(); r.status < 100 {
		r.err = errBadStatus
	}
	r.http10, r.close = !resp.Header.IsHTTP11(), resp.ConnectionClose()
	return r
}

// lineEndsReader reads r with the line ends of the head fixed, as the goroutine engine's
// connections read.
type lineEndsReader struct {
	ends lineEnds
	r    io.Reader
}

func (l *lineEndsReader) Read(p []byte) (int, error) { return l.ends.read(l.r, p) }

// fasthttpDiffers tells whether in holds one of the answers that the engines read apart on
// purpose, each where fasthttp errs: fasthttp's read buffer holds the head and more, where
// h1Answer bounds the head alone.
func fasthttpDiffers(in []byte) bool {
	return len(in) > fasthttpHead-64
}
