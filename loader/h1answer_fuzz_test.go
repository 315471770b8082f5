package loader

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// fuzzMaxHead is the head limit of the fuzz target: small, so that the fuzzer reaches it.
const fuzzMaxHead = 1024

// Whatever bytes come, h1Answer ends (never panics nor loops), follows them the same however
// reads split them, with or without a body limit, and reads what net/http's ReadResponse reads
// the same way: same status, body length, version, interim answers, connection close (but
// after a 101, which h1Answer always closes and net/http leaves to its caller) and end of the
// answer. Where the two disagree on whether the bytes are an answer at all, the disagreement is
// one of the deliberate ones listed in netHTTPStricter and h1AnswerStricter.
func FuzzH1Answer(f *testing.F) {
	for i, tc := range h1Cases() {
		f.Add([]byte(tc.in), tc.head, uint16(i*7))
	}
	f.Fuzz(func(t *testing.T, in []byte, head bool, split uint16) {
		var a h1Answer
		at := int(split) % (len(in) + 1)
		for _, maxBody := range []int64{0, int64(split % 61)} {
			one := followH1(&a, in, head, fuzzMaxHead, maxBody)
			for how, parts := range map[string][]int{"split": {at}, "a byte a read": bytewise(len(in))} {
				if again := followH1(&a, in, head, fuzzMaxHead, maxBody, parts...); !sameH1Result(again, one) {
					t.Fatalf("max body %d, %s: %+v, in one read: %+v", maxBody, how, again, one)
				}
			}
			if maxBody > 0 && (one.body > maxBody || errors.Is(one.err, errTooLarge) && one.body != maxBody) {
				t.Fatalf("max body %d: %+v", maxBody, one)
			}
		}
		if err := readsAsNetHTTP(in, head); err != nil {
			t.Fatalf("%s: %v", shortQuote(in), err) // the input itself, for a run whose testdata is lost
		}
	})
}

// readsAsNetHTTP reads in with h1Answer and with net/http's ReadResponse, and tells how they
// differ, beyond the deliberate differences listed here, in netHTTPStricter and in
// h1AnswerStricter.
func readsAsNetHTTP(in []byte, head bool) error {
	var a h1Answer
	got := followH1(&a, in, head, fuzzMaxHead, 0)
	want := readH1WithNetHTTP(in, head)
	switch {
	case got.err == nil && want.err == nil:
		// An answer from HTTP/2.0 or 1.2 is HTTP/1.0's to h1Answer, as to fasthttp (http10,
		// closed unless kept alive); net/http reads it as its own version.
		if got.status != want.status || got.interim != want.interim ||
			!want.oddVersion && got.http10 != want.http10 {
			return fmt.Errorf("h1Answer %+v, net/http %+v", got, want)
		}
		// net/http takes a name with a space in it or before its colon as another field
		// than the name without the space (so "Content-Length : 5" frames nothing);
		// h1Answer takes it as the goroutine engine (fasthttp) does. The framing differs.
		// net/http keeps the connection after a HEAD answer that gives no length, which
		// h1Answer closes as fasthttp does. net/http reads keep-alive and upgrade in any
		// Connection field, h1Answer (as fasthttp) in the first that says more than close.
		read := in[:len(in)-got.rest] // the final head, after any interim ones
		if i := bytes.LastIndex(read, []byte("HTTP/")); i >= 0 {
			read = read[i:]
		}
		unframedHead := head && want.status != 204 && want.status != 304 &&
			fields(read, "content-length") == 0 && fields(read, "transfer-encoding") == 0
		if !spacedName(in) && !otherVersionFramed(in) && (got.body != want.body || len(in)-got.rest != want.used ||
			(got.close != want.close && got.status != 101 && !want.oddVersion && !unframedHead &&
				fields(read, "connection") < 2)) {
			return fmt.Errorf("h1Answer %+v, net/http %+v", got, want)
		}
	case got.err == nil:
		if !netHTTPStricter(want.err, in) {
			return fmt.Errorf("net/http fails with %v, h1Answer reads %+v", want.err, got)
		}
	case want.err == nil:
		if !h1AnswerStricter(got.err, want, in) {
			return fmt.Errorf("h1Answer fails with %v, net/http reads %+v", got.err, want)
		}
	}
	return nil
}

// h1Read is what net/http read of an answer.
type h1Read struct {
	status, interim int
	http10, close   bool
	body            int64
	used            int  // bytes of the input read, interim answers included
	oddVersion      bool // a status line said an HTTP version other than 1.0 and 1.1
	err             error
}

// readH1WithNetHTTP reads an answer as net/http's client does: ReadResponse again while it
// returns an informational answer, up to the same limit as h1Answer's, then the whole body.
func readH1WithNetHTTP(in []byte, head bool) (r h1Read) {
	req := &http.Request{Method: http.MethodGet}
	if head {
		req.Method = http.MethodHead
	}
	src := bytes.NewReader(in)
	br := bufio.NewReader(src)
	for {
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			r.err = err
			return r
		}
		r.oddVersion = r.oddVersion || resp.ProtoMajor != 1 || resp.ProtoMinor > 1
		if resp.StatusCode/100 == 1 && resp.StatusCode != 101 {
			if r.interim++; r.interim > maxInterim {
				r.err = errTooManyInterim
				return r
			}
			continue
		}
		r.status, r.http10, r.close = resp.StatusCode, resp.ProtoMinor == 0, resp.Close
		r.body, r.err = io.Copy(io.Discard, resp.Body)
		r.used = len(in) - src.Len() - br.Buffered()
		return r
	}
}

// netHTTPStricter tells whether net/http failing with err on bytes that h1Answer reads as an
// answer is one of the deliberate differences, each taken from the RFC's leeway:
func netHTTPStricter(err error, in []byte) bool {
	// net/http's messages quote the bytes they refuse: only their start names the fault.
	msg := err.Error()
	is := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(msg, p) {
				return true
			}
		}
		return false
	}
	if otherVersionFramed(in) {
		return true
	}
	switch {
	case msg == `malformed HTTP response ""`:
		// net/http read an empty line where a status line was due; h1Answer skips empty lines
		// there, as fasthttp does.
		return true
	case is("header line too long", "chunked encoding contains too much non-data"):
		// net/http bounds a chunk line at 4 KiB and extensions against the data; h1Answer
		// bounds the line at 8 KiB and skips extensions however many.
		return true
	case is("http: unexpected EOF reading trailer", "http: suspiciously long trailer"):
		// net/http ends trailers only at a CRLF CRLF within its 4 KiB buffer; h1Answer takes
		// bare LFs there as in a head, and trailers up to its head limit.
		return hasBareLF(in) || len(in) > 4096
	case is("malformed MIME header line"):
		// net/http refuses control characters in field values; h1Answer refuses only a CR,
		// as RFC 9110 5.5 lets a recipient keep the others.
		return bytes.ContainsFunc(in, func(r rune) bool { return r < ' ' && r != '\t' && r != '\r' && r != '\n' || r == 0x7f })
	}
	return false
}

// h1AnswerStricter tells whether h1Answer failing with err on bytes that net/http reads as r
// is one of the deliberate differences, each a fault of the server that net/http forgives:
func h1AnswerStricter(err error, r h1Read, in []byte) bool {
	if r.status < 100 && (errors.Is(err, errBadStatus) || err == errH1StatusLine) {
		// A status code below 100 is none (RFC 9110 15), and "+12" no number.
		return true
	}
	if spacedName(in) {
		// net/http does not take "Content-Length : x" as the field that h1Answer (and
		// fasthttp) reads, or refuses: the framing differs.
		return true
	}
	switch {
	case err == errH1BareCR:
		// net/http drops a CR that ends a header line before its CRLF ("a: b\r\r\n").
		return hasBareCR(in)
	case err == errH1FieldLine:
		// net/http takes control bytes in values that end a line, which h1Answer refuses as
		// fasthttp does.
		return anyLine(in, func(line []byte) bool {
			_, value, ok := bytes.Cut(line, []byte(":"))
			return ok && bytes.ContainsFunc(bytes.TrimRight(value, "\r\n"), func(r rune) bool { return r < ' ' && r != '\t' })
		})
	case err == errH1Length:
		// net/http takes a Content-Length up to 1<<63-1, h1Answer up to 1<<62; the difference
		// shows only on answers without a body. net/http drops a fold of whitespace alone,
		// which h1Answer reads as a space, as fasthttp does.
		return digitRun(in) >= 19 || blankFold(in)
	case err == errH1TE:
		return blankFold(in)
	case err == errH1Trailer:
		// h1Answer refuses the names fasthttp refuses in trailers and in a Trailer field;
		// net/http reads any trailers, and refuses three names in a chunked answer's Trailer
		// field.
		_, last, chunked := bytes.Cut(in, []byte("\n0"))
		return fields(in, "trailer") > 0 || chunked && anyLine(last, func(line []byte) bool {
			name, _, ok := bytes.Cut(line, []byte(":"))
			return ok && h1NotTrailer(bytes.TrimRight(name, " "))
		})
	case err == errH1ChunkSize:
		// net/http takes a chunk size of 16 hex digits, h1Answer of 15, and a CR inside a
		// chunk extension, which h1Answer refuses as fasthttp does.
		return hexRun(in) >= 16 || hasBareCR(in)
	case err == errH1Lengths:
		// net/http takes Content-Length fields spelled the same as one; h1Answer refuses a
		// second field, as fasthttp does.
		return fields(in, "content-length") > 1
	case err == errH1HeadTooLarge:
		// ReadResponse does not bound a head.
		return len(in) > fuzzMaxHead
	}
	return false
}

// shortQuote quotes in, its first 1 KiB when longer.
func shortQuote(in []byte) string {
	if len(in) > 1<<10 {
		return fmt.Sprintf("%q… (%d bytes)", in[:1<<10], len(in))
	}
	return fmt.Sprintf("%q", in)
}

// fields counts the fields of name (lower case) in in, a field's folded lines taken as part of
// it.
func fields(in []byte, name string) int {
	n := 0
	for line := range bytes.Lines(unfold(in)) {
		if field, _, ok := bytes.Cut(line, []byte(":")); ok && h1EqualFold(field, name) {
			n++
		}
	}
	return n
}

// blankFold tells whether a line of in is spaces and tabs alone: a fold that adds nothing.
func blankFold(in []byte) bool {
	return anyLine(in, func(line []byte) bool {
		line = bytes.TrimRight(line, "\r\n")
		return len(line) > 0 && len(bytes.Trim(line, " \t")) == 0
	})
}

// unfold joins each line that starts with whitespace (obs-fold) to the line before it.
func unfold(in []byte) []byte {
	for _, fold := range []string{"\r\n ", "\r\n\t", "\n ", "\n\t"} {
		in = bytes.ReplaceAll(in, []byte(fold), []byte(" "))
	}
	return in
}

// otherVersionFramed tells whether in has a Transfer-Encoding field and a status line of
// another version than HTTP/1.1: net/http reads the field in any version from HTTP/1.1 on,
// h1Answer (as fasthttp) in HTTP/1.1 alone, so they frame the body apart.
func otherVersionFramed(in []byte) bool {
	return fields(in, "transfer-encoding") > 0 && anyLine(in, func(line []byte) bool {
		return bytes.HasPrefix(line, []byte("HTTP/")) && !bytes.HasPrefix(line, []byte("HTTP/1.1 "))
	})
}

// spacedName tells whether a line of in has a space before its first colon, as a field line
// (unlike a status line, which has no colon before its space, or a folded line).
func spacedName(in []byte) bool {
	return anyLine(in, func(line []byte) bool {
		name, _, ok := bytes.Cut(line, []byte(":"))
		return ok && len(name) > 0 && name[0] != ' ' && name[0] != '\t' && bytes.IndexByte(name, ' ') > 0
	})
}

// anyLine tells whether any line of in is one that is.
func anyLine(in []byte, is func(line []byte) bool) bool {
	for line := range bytes.Lines(in) {
		if is(line) {
			return true
		}
	}
	return false
}

// hasBareLF tells whether in has an LF that no CR precedes.
func hasBareLF(in []byte) bool {
	for i, c := range in {
		if c == '\n' && (i == 0 || in[i-1] != '\r') {
			return true
		}
	}
	return false
}

// hasBareCR tells whether in has a CR that no LF follows.
func hasBareCR(in []byte) bool {
	for i, c := range in {
		if c == '\r' && (i+1 == len(in) || in[i+1] != '\n') {
			return true
		}
	}
	return false
}

// digitRun is the length of the longest run of decimal digits in in.
func digitRun(in []byte) int {
	return longestRun(in, func(c byte) bool { return '0' <= c && c <= '9' })
}

// hexRun is the length of the longest run of hex digits in in.
func hexRun(in []byte) int {
	return longestRun(in, func(c byte) bool { return h1Unhex(c) >= 0 })
}

// longestRun is the length of the longest run of bytes in in that are in1.
func longestRun(in []byte, in1 func(byte) bool) int {
	longest, run := 0, 0
	for _, c := range in {
		if run++; !in1(c) {
			run = 0
		}
		longest = max(longest, run)
	}
	return longest
}
