// Package atomicfile writes webload's output files (results, reports, JUnit, imported URL
// lists, history entries) so that a reader never finds half a file, without harming what the
// path names when it is not a regular file: a device such as /dev/null, a FIFO, a symlink, or a
// file whose mode and owner were chosen by someone.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxLinks bounds the symlinks followed, as the kernel does before it answers ELOOP, so a loop
// of links ends with an error instead of spinning.
const maxLinks = 40

// newFileMode is the mode of a file that did not exist: an output is an ordinary file that
// others may read, like one the shell's redirection makes.
const newFileMode = 0o644

// keptModeBits are the parts of an existing file's mode that its replacement keeps.
const keptModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// errTooManyLinks says path resolution gave up on a loop of symlinks.
var errTooManyLinks = errors.New("too many levels of symbolic links")

// Write puts data at path. A regular file, or a path that does not exist yet, is replaced
// through a temporary file in the same folder and a rename, so an interrupted write leaves the
// old contents or the new ones, never a mix; the replacement keeps the old file's mode and
// owner. A symlink is followed and its final target replaced, so the link stays a link.
// Anything else (a character device, a FIFO) is opened and written in place, since renaming a
// file over /dev/null would turn it into a regular file for every program on the machine.
// When the owner cannot be kept (an unprivileged user writing a file of someone else's group,
// say), the file is written in place too, which keeps it.
func Write(path string, data []byte) error {
	return WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write for contents that write calls out as it makes them, so a large output
// (the JSON of a long URL list) goes to the file without being held in memory whole. When
// write fails, a replaced file keeps its old contents; one written in place has what was
// written.
func WriteFunc(path string, write func(io.Writer) error) error {
	target, info, err := resolve(path)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", path, err)
	}
	switch {
	case info == nil:
		return replace(target, write, newFileMode, nil)
	case info.Mode().IsRegular():
		return replace(target, write, info.Mode()&keptModeBits, info)
	default:
		return writeInPlace(target, write)
	}
}

// resolve follows symlinks to the file path finally names, with its folder's symlinks resolved
// too, so the temporary file is made next to the real target. info is nil when no file is there.
func resolve(path string) (string, fs.FileInfo, error) {
	p := path
	for range maxLinks {
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			return "", nil, err
		}
		p = filepath.Join(dir, filepath.Base(p))
		info, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return p, info, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(dir, link)
		}
		p = link
	}
	return "", nil, errTooManyLinks
}

// replace writes to a temporary file next to path and renames it over path. old, when not nil,
// is the file being replaced, whose owner the new one takes.
func replace(path string, write func(io.Writer) error, mode fs.FileMode, old fs.FileInfo) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("create a temporary file for %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if uid, gid, ok := owner(old); ok {
		if err := tmp.Chown(uid, gid); err != nil {
			tmp.Close()
			if errors.Is(err, fs.ErrPermission) {
				return writeInPlace(path, write)
			}
			return fmt.Errorf("keep the owner of %s: %w", path, err)
		}
	}
	// CreateTemp makes the file private (0600); chmod after chown, which clears set-id bits.
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("set the mode of %s: %w", path, err)
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}

// writeInPlace opens path as it is and writes to it, truncating a regular file; on a device or
// FIFO the truncation is ignored by the system.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, newFileMode)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
