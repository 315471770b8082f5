package run

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// oldFingerprint is how the fingerprint was computed when the whole list was encoded at once;
// results saved then must keep merging with results of today's runs.
func oldFingerprint(cfg loader.Config, targets []urls.Target) string {
	h := sha256.New()
	type target struct {
		Method, URL, ContentType string
		Body                     []byte
		Weight                   float64
	}
	var ts []target
	for _, t := range targets {
		ts = append(ts, target{t.Method, t.URL, t.ContentType, t.Body, t.Weight})
	}
	cfg.Shard, cfg.Shards, cfg.BatchSize, cfg.FlushInterval, cfg.Seed = 0, 0, 0, 0, 0
	_ = json.NewEncoder(h).Encode(struct {
		Config  loader.Config
		Targets []target
	}{cfg, ts})
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// The fingerprint hashes the list line by line instead of encoding it whole (a million lines
// took hundreds of MB), and comes out the same.
func TestFingerprintIsUnchanged(t *testing.T) {
	t.Parallel()
	many := make([]urls.Target, 3000)
	for i := range many {
		many[i] = urls.Target{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1/p/%d?a=<b>&c", i), Source: "urls.txt:1"}
	}
	tests := []struct {
		name    string
		cfg     loader.Config
		targets []urls.Target
	}{
		{"one url", loader.Config{Users: 3, Reps: 7}, []urls.Target{{Method: "GET", URL: "http://h/"}}},
		{"bodies and weights", loader.Config{Users: 1, Reps: 1, ContentType: "a/b"}, []urls.Target{
			{Method: "POST", URL: "http://h/a", Body: []byte(`{"x":"<&>"}`), ContentType: "application/json", Weight: 2.5},
			{Method: "PUT", URL: "http://h/b", Body: []byte{}, Weight: 1},
		}},
		{"many urls", loader.Config{Users: 10, Reps: 1, Once: true}, many},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got, want := fingerprint(tc.cfg, tc.targets, false), oldFingerprint(tc.cfg, tc.targets); got != want {
				t.Errorf("fingerprint %s, want %s", got, want)
			}
		})
	}
}
