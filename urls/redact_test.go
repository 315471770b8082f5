package urls

import "testing"

func TestRedacted(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"http://bob:s3cret@127.0.0.1:8080/a?b=c", "http://bob:xxxxx@127.0.0.1:8080/a?b=c"},
		{"https://bob:p@ss@host/", "https://bob:xxxxx@host/"},
		{"http://bob@host/", "http://bob@host/"},
		{"http://host/path@x:y", "http://host/path@x:y"},
		{"http://host/", "http://host/"},
		{"not a url", "not a url"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			if got := Redacted(tc.in); got != tc.want {
				t.Errorf("Redacted(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
