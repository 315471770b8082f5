package urls

import (
	"strings"
	"testing"
)

// A base that cannot be used is told without the password written in it: the message goes to
// the terminal and to a CI log (urls import --base, replay --site).
func TestImportBaseErrorHidesThePassword(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"http://ops:pw-s3cret@127.0.0.1:bad",
		"http://ops:pw-s3cret@127.0.0.1/?q=1",
		"ftp://ops:pw-s3cret@127.0.0.1/",
		"http://ops:pw-s3cret@[::1/",
		"http://ops:pw-s3cret@exa mple.com/",
		"http://ops:pw-s3cret@host:99999/",
	} {
		_, err := NewAccessFilter(ImportOptions{Base: raw})
		if err == nil {
			t.Errorf("base %q accepted", raw)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "pw-s3cret") || !strings.Contains(msg, "--base") {
			t.Errorf("base %q: message %q shows the password or names no --base", raw, msg)
		}
	}
}
