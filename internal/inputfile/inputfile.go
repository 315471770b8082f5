// Package inputfile opens the files a user names for webload to read (saved results, URL and
// login files, data tables, siegerc, header and certificate files, request bodies) so that a
// wrong name cannot hang or exhaust webload: anything but a regular file is refused before a
// byte is read, and so is a file larger than the cap of its kind. A FIFO without a writer,
// /dev/zero or a terminal would otherwise block the open, never end or fill the memory.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Cap is the largest file of one kind that webload reads, and the kind's name in errors. The
// caps are far above what real use needs; they exist so that a mistaken name fails at once.
type Cap struct {
	Bytes int64
	What  string // "a saved result", "a URL file", ...
}

// The caps of each kind of input, in bytes.
var (
	// Results caps saved results (compare, merge, report, history), which are read whole:
	// room for runs over a 1 000 000-URL list, each URL with its own histogram.
	Results = Cap{4 << 30, "a saved result"}
	// Lists caps URL files, --login-file and --data tables, which are read as they stream
	// but kept in memory: a 1 000 000-URL list at about 100 bytes a line is 100 MB.
	Lists = Cap{4 << 30, "a URL or data file"}
	// Bodies caps a request body file ("URL POST <file"), which is held in memory once.
	Bodies = Cap{1 << 30, "a body file"}
	// Settings caps siegerc, --header-file and TLS certificate and key files: a few KB each.
	Settings = Cap{64 << 20, "a settings file"}
)

// ErrNotRegular says a named input is a directory, device, FIFO or socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge says a named input is larger than the cap of its kind.
var ErrTooLarge = errors.New("too large")

// File is a checked input: reading more than its cap (a file that grew after it was opened)
// fails with ErrTooLarge. It is not safe for concurrent use.
type File struct {
	f    *os.File
	cap  Cap
	left int64
}

// Open opens path for reading, refusing anything but a regular file of at most c.Bytes. The
// open does not block, even on a FIFO without a writer. The error is a *fs.PathError naming
// path ("open PATH: not a regular file (a FIFO)"), with ErrNotRegular or ErrTooLarge
// underneath when the file was refused.
func Open(path string, c Cap) (*File, error) {
	f, err := os.OpenFile(path, ReadFlags, 0)
	if err != nil {
		return nil, err
	}
	return Check(f, path, c)
}

// Check checks a file its caller opened (with ReadFlags, through an os.Root say) as Open
// does, and closes it when it is refused.
func Check(f *os.File, path string, c Cap) (*File, error) {
	info, err := f.Stat()
	if err == nil {
		err = check(info, c)
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	blocking(f)
	return &File{f: f, cap: c, left: c.Bytes}, nil
}

func check(info fs.FileInfo, c Cap) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%w (%s)", ErrNotRegular, Kind(info.Mode()))
	}
	if info.Size() > c.Bytes {
		return tooLarge(c)
	}
	return nil
}

func tooLarge(c Cap) error {
	return fmt.Errorf("%w: over the %s that %s may have", ErrTooLarge, size(c.Bytes), c.What)
}

// Kind names a file type the way a user would: "a directory", "a FIFO"...
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read reads from the file, failing with ErrTooLarge past the cap.
func (f *File) Read(p []byte) (int, error) {
	if f.left < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.f.Name(), Err: tooLarge(f.cap)}
	}
	if int64(len(p)) > f.left+1 {
		p = p[:f.left+1]
	}
	n, err := f.f.Read(p)
	f.left -= int64(n)
	if f.left < 0 {
		return n, &fs.PathError{Op: "read", Path: f.f.Name(), Err: tooLarge(f.cap)}
	}
	return n, err
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// ReadFile reads the whole of a regular file of at most c.Bytes.
func ReadFile(path string, c Cap) ([]byte, error) {
	f, err := Open(path, c)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f)
}

// ReadAll reads the rest of f, sized from its length at the open.
func ReadAll(f *File) ([]byte, error) {
	var n int64
	if info, err := f.f.Stat(); err == nil {
		n = info.Size()
	}
	buf := make([]byte, 0, min(n, f.left)+512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
