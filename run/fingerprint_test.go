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

// Shards of one test share its fingerprint and, unless the user chose a seed, a seed drawn from
// it; a whole run keeps the seed it was given.
func TestIdentify(t *testing.T) {
	t.Parallel()
	targets := []urls.Target{{Method: "GET", URL: "http://h/"}}
	tests := []struct {
		name      string
		shards    int
		seed      uint64
		seedGiven bool
		wantSeed  func(fp string) uint64
	}{
		{"whole run", 0, 42, false, func(string) uint64 { return 42 }},
		{"shards without a seed", 4, 42, false, seedFromFingerprint},
		{"shards with a seed", 4, 42, true, func(string) uint64 { return 42 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var fps []string
			for shard := range max(tc.shards, 1) {
				s := Spec{Config: loader.Config{Users: 8, Reps: 1, Seed: tc.seed, Shard: shard, Shards: tc.shards}, Targets: targets}
				s.Info.Seed = tc.seed
				s.Identify(tc.seedGiven)
				want := tc.wantSeed(s.Info.Test)
				if s.Config.Seed != want || s.Info.Seed != want {
					t.Errorf("shard %d: seed %d (result says %d), want %d", shard, s.Config.Seed, s.Info.Seed, want)
				}
				fps = append(fps, s.Info.Test)
			}
			for _, fp := range fps {
				if fp != fps[0] || len(fp) != 32 {
					t.Errorf("fingerprints %v, want one of 32 hex digits for every shard", fps)
					break
				}
			}
		})
	}
}

// The fingerprint of a long list allocates nothing per line: json.Marshal of each line left
// about 600 bytes of garbage a line at a 1 000 000-line list's start.
func TestFingerprintAllocatesNothingPerLine(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops encoding/json's pooled buffers at random")
	}
	const n = 10_000
	targets := make([]urls.Target, n)
	for i := range targets {
		targets[i] = urls.Target{Method: "GET", URL: fmt.Sprintf("http://127.0.0.1:8080/p/%d", i)}
	}
	cfg := loader.DefaultConfig()
	allocs := testing.AllocsPerRun(2, func() { fingerprint(cfg, targets, false) })
	if allocs > n/10 {
		t.Errorf("the fingerprint of %d lines made %.0f allocations, want at most %d", n, allocs, n/10)
	}
}
