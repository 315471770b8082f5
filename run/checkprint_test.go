package run

import (
	"testing"

	"github.com/webload/webload/check"
	"github.com/webload/webload/extract"
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

// A URL's extraction rules change what fails (a miss is a failure), so runs with other rules
// are other tests; without rules the fingerprint is what it always was.
func TestExtractsChangeTheFingerprint(t *testing.T) {
	t.Parallel()
	r, err := extract.Parse("token css:input[name=wpLoginToken] value")
	if err != nil {
		t.Fatal(err)
	}
	plain := []urls.Target{{Method: "GET", URL: "http://h/"}}
	own := []urls.Target{{Method: "GET", URL: "http://h/", Extracts: []extract.Rule{r}}}
	cfg := loader.Config{Users: 1, Reps: 1}
	if fingerprint(cfg, own, false) == fingerprint(cfg, plain, false) {
		t.Error("a URL's extraction rules should change the fingerprint")
	}
}
