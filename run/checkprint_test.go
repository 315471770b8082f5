package run

import (
	"testing"

	"github.com/webload/webload/check"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Runs with other checks are other tests: their shards do not merge. Without checks the
// fingerprint is what it always was (TestFingerprintIsUnchanged).
func TestChecksChangeTheFingerprint(t *testing.T) {
	t.Parallel()
	e, err := check.Parse("status==200")
	if err != nil {
		t.Fatal(err)
	}
	plain := []urls.Target{{Method: "GET", URL: "http://h/"}}
	own := []urls.Target{{Method: "GET", URL: "http://h/", Checks: []check.Expr{e}}}
	cfg := loader.Config{Users: 1, Reps: 1}
	withChecks := cfg
	withChecks.Checks = []check.Expr{e}
	base := fingerprint(cfg, plain, false)
	if fingerprint(withChecks, plain, false) == base || fingerprint(cfg, own, false) == base {
		t.Error("a run's or a URL's checks should change the fingerprint")
	}
	if fingerprint(cfg, plain, false) != oldFingerprint(cfg, plain) {
		t.Error("without checks the fingerprint should not change")
	}
}
