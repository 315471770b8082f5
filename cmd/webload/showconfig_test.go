package main

import (
	"path/filepath"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/internal/golden"
	"github.com/webload/webload/siegerc"
)

// TestEffectiveConfig renders -C for a run set from a command line and a siegerc, and compares
// it with testdata/effective-config.golden (rewritten by -update).
func TestEffectiveConfig(t *testing.T) {
	t.Parallel()
	flags := runFlags()
	rc := []siegerc.Setting{
		set("timeout", "12", 7),
		set("header", "X-Stage: staging", 9),
		set("user", "ops:s3cret", 11),
		set("proxy", "http://me:pw@proxy.test:8080", 12),
		set("login", "http://h/login POST user=ops&pass=x", 13),
		set("concurrent", "40", 3), // overridden by -c
	}
	var got string
	app := &cli.App{
		Name:                      "webload",
		Flags:                     flags,
		DisableSliceFlagSeparator: true,
		HideHelp:                  true,
		ExitErrHandler:            func(*cli.Context, error) {},
		Action: func(c *cli.Context) error {
			var applied []siegerc.Setting
			for _, s := range rc {
				if c.IsSet(s.Flag) && s.Flag != "header" {
					continue // the command line wins
				}
				if err := c.Set(s.Flag, s.Value); err != nil {
					return err
				}
				applied = append(applied, s)
			}
			got = effectiveConfig(c, flags, applied)
			return nil
		},
	}
	args := []string{"webload", "-c", "10", "-H", "Authorization: Bearer tok", "-H", "cookie: a=b", "-v"}
	if err := app.Run(args); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "effective-config.golden"), []byte(got), *updateExamples)
}

func TestEffectiveConfigRedaction(t *testing.T) {
	t.Parallel()
	tests := []struct{ flag, in, want string }{
		{"header", "Authorization: Bearer abc", "Authorization: ***"},
		{"header", "proxy-authorization: Basic abc", "proxy-authorization: ***"},
		{"header", "Cookie: session=1", "Cookie: ***"},
		{"header", "X-Stage: blue", "X-Stage: blue"},
		{"user", "bob:secret", "bob:***"},
		{"user", "bob", "bob"},
		{"proxy", "http://me:pw@proxy:3128", "http://me:xxxxx@proxy:3128"},
		{"proxy", "http://proxy:3128", "http://proxy:3128"},
		{"proxy", "http://me@proxy:3128", "http://me@proxy:3128"},
		{"login", "http://h/login POST user=a&pass=b", "http://h/login POST ***"},
		{"login", "http://h/login POST </srv/login.json", "http://h/login POST </srv/login.json"},
		{"login", "http://u:p@h/login", "http://u:xxxxx@h/login"},
		{"server-metrics", "http://a:b@host:9100/metrics", "http://a:xxxxx@host:9100/metrics"},
		{"db", "mysql://webload:s3cret@127.0.0.1:3306/", "mysql://webload:xxxxx@127.0.0.1:3306/"},
		{"db", "postgres://127.0.0.1:5432/shop?user=webload&password=s3cret&sslmode=disable", "postgres://127.0.0.1:5432/shop?user=webload&password=xxxxx&sslmode=disable"},
		{"db", "postgres://webload@127.0.0.1:5432/shop", "postgres://webload@127.0.0.1:5432/shop"},
		{"db", "postgres://webload@127.0.0.1:5432/shop?sslmode=verify-full&sslpassword=k3y-pass", "postgres://webload@127.0.0.1:5432/shop?sslmode=verify-full&sslpassword=xxxxx"},
		{"db", "postgres://webload@127.0.0.1:5432/shop?password_file=/run/secrets/db", "postgres://webload@127.0.0.1:5432/shop?password_file=/run/secrets/db"},
		{"remote-write", "https://ops:s3cret@prom.test/api/v1/push", "https://ops:xxxxx@prom.test/api/v1/push"},
		{"file", "urls.txt", "urls.txt"},
	}
	for _, tc := range tests {
		t.Run(tc.flag+" "+tc.in, func(t *testing.T) {
			t.Parallel()
			if got := redactSecret(tc.flag, tc.in); got != tc.want {
				t.Errorf("redactSecret(%q, %q) = %q, want %q", tc.flag, tc.in, got, tc.want)
			}
		})
	}
}
