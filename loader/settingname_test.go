package loader

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// flagLike names some Config fields the way a command line would, to see that messages take
// the names given; the fields it does not know keep their own names.
func flagLike(field string) string {
	return map[string]string{"Once": "-r once", "ClientCert": "--cert", "ClientKey": "--key",
		"HTTP2": "--http2", "ConnectionClose": "--connection close", "Proxy": "--proxy",
		"CACert": "--cacert", "HeaderBuffer": "--header-buffer"}[field]
}

// The errors of settings name the Config fields, or what SettingName calls them, and stay
// the sentinels for errors.Is.
func TestSettingNameInErrors(t *testing.T) {
	t.Parallel()
	base := Config{Users: 1, Reps: 1, Timeout: time.Second}
	tests := []struct {
		name            string
		change          func(*Config)
		is              error
		fields, flagged string // whole messages without and with SettingName
	}{
		{"once with reps", func(c *Config) { c.Once = true }, ErrOnceWithReps,
			"Once cannot be combined with a repetition count",
			"-r once cannot be combined with a repetition count"},
		{"certificate without key", func(c *Config) { c.ClientCert = "c.pem" }, ErrCertNoKey,
			"ClientCert and ClientKey must be given together",
			"--cert and --key must be given together"},
		{"http2 with connection close", func(c *Config) { c.HTTP2, c.ConnectionClose = true, true }, ErrHTTP2Close,
			"HTTP2 cannot be combined with ConnectionClose",
			"--http2 cannot be combined with --connection close"},
		{"bad proxy", func(c *Config) { c.Proxy = "https://u:secret@p.test:3128" }, ErrBadProxy,
			`bad Proxy "https://u:xxxxx@p.test:3128": the scheme must be http (want http://[user:pass@]host:port)`,
			`bad --proxy "https://u:xxxxx@p.test:3128": the scheme must be http (want http://[user:pass@]host:port)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := base
			tc.change(&cfg)
			for _, namer := range []struct {
				f    func(string) string
				want string
			}{{nil, tc.fields}, {flagLike, tc.flagged}} {
				cfg.SettingName = namer.f
				_, err := New(cfg, oneTarget(t, "http://127.0.0.1:1/"))
				if !errors.Is(err, tc.is) || err.Error() != namer.want {
					t.Errorf("New: %v, want %q (is %v)", err, namer.want, tc.is)
				}
			}
		})
	}
}

// The error sample of headers longer than the buffer names the setting that would help in
// the words of SettingName.
func TestSettingNameInSamples(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("c", 8<<10)
	srv := newHitServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Big", big)
	})
	for _, tc := range []struct {
		namer func(string) string
		want  string
	}{
		{nil, "response headers longer than the 4096-byte header buffer (raise HeaderBuffer, up to 1MB)"},
		{flagLike, "response headers longer than the 4096-byte header buffer (raise --header-buffer, up to 1MB)"},
	} {
		cfg := Config{Users: 1, Reps: 1, HeaderBuffer: 4 << 10, SettingName: tc.namer}
		_, out := run(t, cfg, pageTargets(t, srv.URL, 1))
		if got := out.ErrorSamples[ErrBadResponse]; got != tc.want {
			t.Errorf("sample %q, want %q", got, tc.want)
		}
	}
}
