package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The checks below let a run find out before its first request that an output it was asked
// for cannot be written: a result lost after an hour of load because its folder was mistyped
// is the mistake they prevent. Each does what the real write will do, as far as it can without
// changing anything: it finds the folder the file goes into, creates a temporary file there
// and removes it. Their errors name the problem, not the path, which the caller names with
// its flag ("-o PATH: directory X does not exist").

// CheckWrite tells whether Write can put a file at path: the folder exists and takes new
// files, and path is not a folder. A device or FIFO at path is accepted without opening it
// (opening a FIFO waits for its reader), as Write writes it in place.
func CheckWrite(path string) error {
	if err := checkParent(path); err != nil {
		return err
	}
	target, info, err := resolve(path)
	if err != nil {
		return err
	}
	switch {
	case info == nil || info.Mode().IsRegular():
		return probe(filepath.Dir(target))
	case info.IsDir():
		return fmt.Errorf("%s is a directory", path)
	}
	return nil
}

// CheckAppend tells whether a file can be opened at path for appending, or created there:
// the -l log, which grows run after run, and the --csv rows, written as the run goes. These are
// opened as they are named, the system following any link (/dev/stdout to a pipe included), so
// the check does too. An existing file is opened for writing, neither truncated nor written,
// and closed.
func CheckAppend(path string) error {
	if err := checkParent(path); err != nil {
		return err
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return probe(filepath.Dir(path))
	case err != nil:
		return cause(err)
	case info.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case info.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return fmt.Errorf("cannot write to it: %w", cause(err))
		}
		return f.Close()
	}
	return nil
}

// CheckDir tells whether files can be written into dir, made with its missing parents as
// os.MkdirAll makes them (--history): the nearest folder that exists must take new entries.
// Nothing is created.
func CheckDir(dir string) error {
	found, info, err := nearest(filepath.Clean(dir))
	switch {
	case info == nil:
		return fmt.Errorf("directory %s does not exist", found)
	case !info.IsDir():
		return fmt.Errorf("%s is not a directory", found)
	case err != nil:
		return fmt.Errorf("directory %s: %w", dir, cause(err))
	}
	return probe(found)
}

// checkParent says what is wrong with the folder path goes into: missing, or not a folder.
func checkParent(path string) error {
	dir := filepath.Dir(path)
	found, info, err := nearest(dir)
	switch {
	case info != nil && !info.IsDir():
		return fmt.Errorf("%s is not a directory", found)
	case err != nil:
		return fmt.Errorf("directory %s: %w", dir, cause(err))
	case found != dir:
		return fmt.Errorf("directory %s does not exist", dir)
	}
	return nil
}

// nearest finds the deepest of path and its parents that exists: found and its info, nil when
// not even the root does. err is the first failure to look other than a missing entry (no
// access, or a file taken for a folder, which found then shows).
func nearest(path string) (found string, info fs.FileInfo, err error) {
	for {
		i, statErr := os.Stat(path)
		if statErr == nil {
			return path, i, err
		}
		if err == nil && !errors.Is(statErr, fs.ErrNotExist) {
			err = statErr
		}
		parent := filepath.Dir(path)
		if parent == path {
			return path, nil, err
		}
		path = parent
	}
}

// probe creates a hidden temporary file in dir, as Write does, and removes it.
func probe(dir string) error {
	f, err := os.CreateTemp(dir, ".webload-check.*.tmp")
	if err != nil {
		return fmt.Errorf("cannot create files in directory %s: %w", dir, cause(err))
	}
	name := f.Name()
	closeErr := f.Close()
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("remove the test file %s: %w", name, err)
	}
	return closeErr
}

// cause is a file error without the path it carries, which the message names already.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
