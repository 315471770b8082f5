package loader

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"

	"github.com/webload/webload/urls"
)

// The run's credentials are known in every form a message or a page may print them: -u's
// password (taken out of its Authorization header) and its basic-auth pair, a secret header's
// value and its credential without the scheme, each value of a Cookie header, a URL's and the
// proxy's passwords, and Config.Secrets (the --db passwords). The error, check and extraction
// samples of an Outcome show none of them; a header that is no secret is shown as it is.
func TestRunSecretsMaskSamples(t *testing.T) {
	t.Parallel()
	cfg := Config{
		Headers: []Header{
			{Name: "Authorization", Value: "Basic " + base64.StdEncoding.EncodeToString([]byte("bob:u-pass w/rd"))},
			{Name: "X-Api-Key", Value: "Token k3y-value"},
			{Name: "Cookie", Value: "lang=en; sid=c00kie-value"},
			{Name: "X-Stage", Value: "blue-green"},
		},
		Proxy:   "http://me:pr0xy-pass@proxy:3128",
		Secrets: []string{"db p@ss"},
	}
	targets := []urls.Target{{Method: "GET", URL: "http://ann:url-pass@site/page"}}
	m := runSecrets(&cfg, targets)
	for _, shown := range []string{
		"u-pass w/rd", url.QueryEscape("u-pass w/rd"), url.PathEscape("u-pass w/rd"), `u-pass w\/rd`,
		base64.StdEncoding.EncodeToString([]byte("bob:u-pass w/rd")), "k3y-value", "c00kie-value",
		"pr0xy-pass", "url-pass", base64.StdEncoding.EncodeToString([]byte("ann:url-pass")),
		"db p@ss", "db+p%40ss", "db%20p@ss",
	} {
		samples := maskSamples(m, map[ErrKind]string{ErrTimeout: "the server said: " + shown + " (blue-green)"})
		if got := samples[ErrTimeout]; got != "the server said: #secret (blue-green)" {
			t.Errorf("%q is shown as %q", shown, got)
		}
	}
	if got := maskSamples(m, map[int32]string(nil)); got != nil {
		t.Errorf("no samples became %v", got)
	}
	if strings.Contains(m.String("lang=en"), "#secret") {
		t.Errorf("a short cookie value is hidden: %q", m.String("lang=en"))
	}
}
