package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// The loader's errors about settings read, word for word, as they name the flags.
func TestSettingNameMessages(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing.pem")
	tests := []struct {
		name   string
		change func(*loader.Config)
		want   string
	}{
		{"-r once with reps", func(c *loader.Config) { c.Once = true },
			"-r once cannot be combined with a repetition count"},
		{"--cert without --key", func(c *loader.Config) { c.ClientCert = "c.pem" },
			"--cert and --key must be given together"},
		{"--key without --cert", func(c *loader.Config) { c.ClientKey = "k.pem" },
			"--cert and --key must be given together"},
		{"--http2 with --connection close", func(c *loader.Config) { c.HTTP2, c.ConnectionClose = true, true },
			"--http2 cannot be combined with --connection close"},
		{"bad --proxy", func(c *loader.Config) { c.Proxy = "http://p.test" },
			`bad --proxy "http://p.test": it needs a host and a port (want http://[user:pass@]host:port)`},
		{"missing --cacert", func(c *loader.Config) { c.CACert = missing },
			"reading --cacert " + missing + ": no such file or directory"},
		{"missing --key", func(c *loader.Config) { c.ClientCert, c.ClientKey = missing, missing },
			"reading --cert " + missing + ": no such file or directory"},
	}
	target, err := urls.ParseLine("http://127.0.0.1:1/", urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := loader.Config{Users: 1, Reps: 1, Timeout: time.Second, SettingName: settingName}
			tc.change(&cfg)
			_, err := loader.New(cfg, []urls.Target{target})
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// The error sample of response headers longer than --header-buffer names the flag, in the
// JSON's error_samples and in the HTML report.
func TestHeaderBufferAdviceNamesTheFlag(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("c", 8<<10)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Big", big)
	}))
	t.Cleanup(site.Close)
	const want = "response headers longer than the 4096-byte header buffer (raise --header-buffer, up to 1MB)"
	html := filepath.Join(t.TempDir(), "r.html")
	stdout, stderr, _ := webload(t, nil, "-j", "--html", html, "--header-buffer", "4KB", "-c", "1", "-r", "2", site.URL+"/")
	var rep struct {
		ErrorSamples map[string]string `json:"error_samples"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.ErrorSamples["bad-response"] != want {
		t.Errorf("error_samples %q (%v), want bad-response: %q\n%s", rep.ErrorSamples, err, want, stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), want) {
		t.Errorf("the HTML report does not say %q (%v)", want, err)
	}
}
