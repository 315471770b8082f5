package inputfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestOpenRefusesWhatCannotBeReadWhole(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	small := filepath.Join(dir, "small.txt")
	if err := os.WriteFile(small, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if runtime.GOOS == "linux" {
		if err := mkfifo(fifo); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		path    string
		cap     Cap
		linux   bool
		want    error
		wantMsg string
	}{
		{name: "a regular file under the cap", path: small, cap: Cap{10, "a test file"}},
		{name: "a regular file over the cap", path: small, cap: Cap{9, "a test file"}, want: ErrTooLarge,
			wantMsg: "open " + small + ": too large: over the 9 bytes that a test file may have"},
		{name: "a FIFO without a writer", path: fifo, cap: Lists, linux: true, want: ErrNotRegular,
			wantMsg: "open " + fifo + ": not a regular file (a FIFO)"},
		{name: "a device that never ends", path: "/dev/zero", cap: Results, linux: true, want: ErrNotRegular,
			wantMsg: "open /dev/zero: not a regular file (a device)"},
		{name: "a directory", path: dir, cap: Settings, want: ErrNotRegular},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.linux && runtime.GOOS != "linux" {
				t.Skip("FIFOs and /dev/zero are tested on Linux")
			}
			data, err := ReadFile(tc.path, tc.cap)
			if tc.want == nil {
				if err != nil || string(data) != "0123456789" {
					t.Fatalf("ReadFile = %q, %v", data, err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if tc.wantMsg != "" && err.Error() != tc.wantMsg {
				t.Errorf("message = %q, want %q", err, tc.wantMsg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("message spans lines: %q", err)
			}
		})
	}
}

// A file that grows after it was checked is still cut at the cap.
func TestReadStopsAtTheCap(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "grows")
	if err := os.WriteFile(path, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path, Cap{4, "a test file"})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(path, []byte("abcdefgh"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadAll(f); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}
