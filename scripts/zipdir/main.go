// Command zipdir writes a folder into a zip archive, the folder's name as the archive's top
// entry: the Windows archives of scripts/release.sh, made without a zip program.
package main

import (
	"archive/zip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: zipdir DIR OUT.zip")
		os.Exit(2)
	}
	if err := zipDir(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "zipdir:", err)
		os.Exit(1)
	}
}

// zipDir writes every regular file under dir into out, named from dir's own name down.
func zipDir(dir, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("creating the archive: %w", err)
	}
	w := zip.NewWriter(f)
	parent := filepath.Dir(filepath.Clean(dir))
	walkErr := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		name, err := filepath.Rel(parent, path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		h.Name, h.Method = filepath.ToSlash(name), zip.Deflate
		dst, err := w.CreateHeader(h)
		if err != nil {
			return err
		}
		src, err := os.Open(path)
		if err != nil {
			return err
		}
		defer src.Close()
		_, err = io.Copy(dst, src)
		return err
	})
	if walkErr != nil {
		f.Close()
		return fmt.Errorf("adding %s: %w", dir, walkErr)
	}
	if err := w.Close(); err != nil {
		f.Close()
		return fmt.Errorf("finishing the archive: %w", err)
	}
	return f.Close()
}
