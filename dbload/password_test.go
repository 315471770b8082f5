package dbload

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A DSN without a password takes it from its password_file (the file's one trailing newline
// stripped, the parameter taken off the DSN the drivers see) or else from the variable of its
// kind's client; a password in the DSN wins over the environment. A file that is missing, a
// folder or empty is an error naming it.
func TestParseTargetPassword(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "pw")
	if err := os.WriteFile(file, []byte("fr0m-file\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(k string) (string, bool) {
		v, ok := map[string]string{"PGPASSWORD": "fr0m-pg-env", "MYSQL_PWD": "fr0m-my-env"}[k]
		return v, ok
	}
	for _, tc := range []struct {
		name, raw, password, shown, wantErr string
	}{
		{"PGPASSWORD", "postgres://u@db/x", "fr0m-pg-env", "postgres://u@db/x", ""},
		{"MYSQL_PWD", "mysql://u@db/", "fr0m-my-env", "mysql://u@db/", ""},
		{"mariadb scheme", "mariadb://u@db/", "fr0m-my-env", "mariadb://u@db/", ""},
		{"the DSN's own first", "mysql://u:mine@db/", "", "mysql://u:xxxxx@db/", ""},
		{"the DSN's parameter first", "postgres://u@db/x?password=mine", "", "postgres://u@db/x?password=xxxxx", ""},
		{"the file", "postgres://u@db/x?sslmode=disable&password_file=" + file + "&connect_timeout=3", "fr0m-file", "postgres://u@db/x?sslmode=disable&connect_timeout=3", ""},
		{"the file before the environment", "mysql://u@db/?password_file=" + file, "fr0m-file", "mysql://u@db/", ""},
		{"a file and a password", "mysql://u:mine@db/?password_file=" + file, "", "", "both a password and password_file"},
		{"a missing file", "mysql://u@db/?password_file=" + filepath.Join(dir, "none"), "", "", "password file " + filepath.Join(dir, "none") + ": no such file"},
		{"a folder", "mysql://u@db/?password_file=" + dir, "", "", "password file " + dir + ": not a regular file"},
		{"an empty file", "mysql://u@db/?password_file=" + empty, "", "", "password file " + empty + ": it is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseTargetEnv(tc.raw, env)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Count(err.Error(), "\n") > 0 {
					t.Fatalf("ParseTargetEnv(%q) = %+v, %v; want an error with %q", tc.raw, got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Password != tc.password || got.String() != tc.shown {
				t.Errorf("ParseTargetEnv(%q): password %q shown %q, want %q %q", tc.raw, got.Password, got.String(), tc.password, tc.shown)
			}
			if tc.password != "" && !slices.Contains(got.Secrets(), tc.password) {
				t.Errorf("Secrets() = %q, want %q among them", got.Secrets(), tc.password)
			}
		})
	}
}
