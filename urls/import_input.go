package urls

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// importMaxLine bounds one line of an export or log. Real rows are a few hundred bytes; the
// bound keeps a binary file or a runaway quoted field from taking all memory.
const importMaxLine = 1 << 20

// importOpen opens one named input. The error names the file but not the operation twice
// (os.Open's own message already starts with "open FILE").
func importOpen(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &LineError{File: path, Err: err}
	}
	return f, nil
}

// importDecode undoes the encodings exports and rotated logs arrive in: gzip (recognised by
// its magic bytes, so a renamed or extension-less file works too) and UTF-16 with a byte
// order mark, which is what Excel-oriented exports such as Matomo's "TSV (Excel)" use.
func importDecode(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err // gzip's messages already start with "gzip: "
		}
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	head, _ := br.Peek(2)
	switch {
	case bytes.Equal(head, []byte{0xff, 0xfe}):
		br.Discard(2)
		return &importUTF16{r: br, little: true}, nil
	case bytes.Equal(head, []byte{0xfe, 0xff}):
		br.Discard(2)
		return &importUTF16{r: br}, nil
	}
	return br, nil
}

// importUTF16 turns UTF-16 text into UTF-8 as it is read, so the rest of the import only
// ever sees UTF-8.
type importUTF16 struct {
	r      *bufio.Reader
	little bool
	out    []byte // decoded bytes not yet returned
}

// Read implements io.Reader. It decodes as much as p holds, since one rune per call would
// make a large export crawl through bufio.
func (u *importUTF16) Read(p []byte) (int, error) {
	for len(u.out) < len(p) {
		r, err := u.rune()
		if err != nil {
			if len(u.out) > 0 {
				break // hand out what was decoded; the error comes back on the next call
			}
			return 0, err
		}
		u.out = utf8.AppendRune(u.out, r)
	}
	n := copy(p, u.out)
	u.out = append(u.out[:0], u.out[n:]...)
	return n, nil
}

// rune decodes one character; a broken surrogate pair becomes U+FFFD, as in Go strings.
func (u *importUTF16) rune() (rune, error) {
	unit, err := u.unit()
	if err != nil {
		return 0, err
	}
	r := rune(unit)
	if !utf16.IsSurrogate(r) {
		return r, nil
	}
	low, err := u.unit()
	if err != nil {
		return 0, err
	}
	return utf16.DecodeRune(r, rune(low)), nil
}

// unit reads one 16-bit code unit; a lone trailing byte is dropped as a truncated file.
func (u *importUTF16) unit() (uint16, error) {
	var b [2]byte
	if _, err := io.ReadFull(u.r, b[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF
		}
		return 0, err
	}
	if u.little {
		return uint16(b[0]) | uint16(b[1])<<8, nil
	}
	return uint16(b[0])<<8 | uint16(b[1]), nil
}

// importLine is one physical line without its line ending.
type importLine struct {
	text string
	num  int  // counts from 1, for "FILE:LINE" messages
	long bool // cut at importMaxLine; the rest of the line was discarded
}

// importLines reads lines and lets format detection look ahead without losing them: peeked
// lines are handed out again by next.
type importLines struct {
	br     *bufio.Reader
	n      int
	peeked []importLine
	err    error // the first read error other than io.EOF
	eof    bool
}

// newImportLines reads r line by line; its buffer is the size of a typical export, so small
// files need a single read.
func newImportLines(r io.Reader) *importLines {
	return &importLines{br: bufio.NewReaderSize(r, 64<<10)}
}

// peek returns up to n lines ahead without consuming them.
func (l *importLines) peek(n int) []importLine {
	for len(l.peeked) < n {
		line, ok := l.read()
		if !ok {
			break
		}
		l.peeked = append(l.peeked, line)
	}
	if len(l.peeked) < n {
		return l.peeked
	}
	return l.peeked[:n]
}

// next returns the next line; ok is false at the end of input or on a read error, which
// l.err then holds.
func (l *importLines) next() (importLine, bool) {
	if len(l.peeked) > 0 {
		line := l.peeked[0]
		l.peeked = l.peeked[1:]
		return line, true
	}
	return l.read()
}

// read takes one line from the input. Over-long lines are cut rather than refused, so one
// binary blob in a log costs one bad row instead of the whole import.
func (l *importLines) read() (importLine, bool) {
	if l.eof {
		return importLine{}, false
	}
	var buf []byte
	long := false
	for {
		chunk, err := l.br.ReadSlice('\n')
		if len(buf)+len(chunk) > importMaxLine {
			long = true
		} else {
			buf = append(buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			l.eof = true
			if err != io.EOF {
				l.err = err
				return importLine{}, false
			}
			if len(buf) == 0 && !long {
				return importLine{}, false
			}
		}
		break
	}
	l.n++
	text := strings.TrimRight(string(buf), "\r\n")
	if l.n == 1 {
		text = strings.TrimPrefix(text, "\ufeff") // Excel and Metrica write a UTF-8 BOM
	}
	return importLine{text: text, num: l.n, long: long}, true
}
