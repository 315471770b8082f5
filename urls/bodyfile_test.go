package urls

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A URL file may send files from its own folder; a relative path must not lead out of it, and
// an absolute path is refused unless the user allows absolute bodies, so a URL file from
// elsewhere cannot make webload send /etc/shadow.
func TestBodyFilesStayInTheURLFilesFolder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "suite")
	if err := os.MkdirAll(filepath.Join(dir, "bodies"), 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(root, "secret.txt")
	for path, data := range map[string]string{
		secret:                                 "top secret",
		filepath.Join(dir, "bodies", "a.json"): `{"a":1}`,
	} {
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secret, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		line    string
		allow   bool
		body    string
		wantErr string
	}{
		{"inside the folder", "http://h/ POST <bodies/a.json", false, `{"a":1}`, ""},
		{"inside the folder, absolute allowed", "http://h/ POST <bodies/a.json", true, `{"a":1}`, ""},
		{"absolute path allowed", "http://h/ POST <" + secret, true, "top secret", ""},
		{"absolute path refused", "http://h/ POST <" + secret, false, "", "absolute path refused in a URL file (--allow-absolute-bodies allows it)"},
		{"dot-dot out of the folder", "http://h/ POST <../secret.txt", true, "", "path escapes from parent"},
		{"symlink out of the folder", "http://h/ POST <link.txt", true, "", "path escapes from parent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(strings.NewReader(tc.line+"\n"), "urls.txt", dir, Options{AllowAbsoluteBodies: tc.allow})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.HasPrefix(err.Error(), "urls.txt:1: ") {
					t.Errorf("err = %v, want a urls.txt:1 error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got[0].Body) != tc.body {
				t.Errorf("body %q, want %q", got[0].Body, tc.body)
			}
		})
	}
}
