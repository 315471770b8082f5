package loader

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"io"
	"testing"

	brrr "github.com/molecule-man/go-brrr"
)

// encoders compress a body as each Content-Encoding the client asks for, and decode it as a
// plain client would; "deflate" comes in the two forms servers send.
var encoders = []struct {
	name, header string
	encode       func(w io.Writer) io.WriteCloser
	decode       func(r io.Reader) (io.Reader, error)
}{
	{"gzip", "gzip", func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) },
		func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
	{"zlib", "deflate", func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) },
		func(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) }},
	{"raw deflate", "deflate", func(w io.Writer) io.WriteCloser { z, _ := flate.NewWriter(w, 5); return z },
		func(r io.Reader) (io.Reader, error) { return flate.NewReader(r), nil }},
	{"br", "br", func(w io.Writer) io.WriteCloser { z, _ := brrr.NewWriter(w, 5); return z },
		func(r io.Reader) (io.Reader, error) { return brrr.NewReader(r), nil }},
}

func encodeWith(t *testing.T, encode func(io.Writer) io.WriteCloser, plain []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := encode(&buf)
	if _, err := w.Write(plain); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
