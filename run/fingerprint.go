package run

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/webload/webload/check"
	"github.com/webload/webload/extract"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// Identify fingerprints the test into Info.Test, so that merge refuses shards of different
// tests. A sharded run whose seed the user did not choose (seedGiven false) then takes its seed
// from the fingerprint: every shard must draw the same random choices (-i, -d) to make up one
// run, and they share nothing else. Call it once Config, Targets and Info are complete.
func (s *Spec) Identify(seedGiven bool) {
	s.Info.Test = fingerprint(s.Config, s.Targets, seedGiven)
	if s.Config.Shards > 1 && !seedGiven {
		s.Config.Seed = seedFromFingerprint(s.Info.Test)
		s.Info.Seed = s.Config.Seed
	}
}

// fingerprint identifies what a run loads and how, whatever shard it is: results with the
// same fingerprint can be merged.
func fingerprint(cfg loader.Config, targets []urls.Target, seedGiven bool) string {
	h := sha256.New()
	type target struct {
		Method, URL, ContentType string
		Body                     []byte
		Weight                   float64
		// A URL's checks change what fails; none leaves the fingerprints of older runs as they were.
		Checks []check.Expr `json:",omitempty"`
		// So do its extraction rules: a value the response lacks fails the request.
		Extracts []extract.Rule `json:",omitempty"`
	}
	cfg.Shard, cfg.Shards = 0, 0
	cfg.BatchSize, cfg.FlushInterval = 0, 0 // how results are batched changes nothing sent
	if !seedGiven {
		cfg.Seed = 0
	}
	// The bytes are those of encoding {"Config":cfg,"Targets":[...]} at once, which older
	// fingerprints are, but written a target at a time: a million-line list encoded whole
	// took hundreds of MB. Config and targets are plain data; encoding them cannot fail.
	c, _ := json.Marshal(cfg)
	h.Write([]byte(`{"Config":`))
	h.Write(c)
	h.Write([]byte(`,"Targets":`))
	if len(targets) == 0 {
		h.Write([]byte("null"))
	}
	// One encoder and one target value serve every line: json.Marshal of each line left about
	// 600 bytes of garbage a line, which a long list's start paid for in collections or memory.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	var tg target
	for i := range targets {
		t := &targets[i]
		buf.Reset()
		if i == 0 {
			buf.WriteByte('[')
		} else {
			buf.WriteByte(',')
		}
		tg = target{t.Method, t.URL, t.ContentType, t.Body, t.Weight, t.Checks, t.Extracts}
		_ = enc.Encode(&tg)
		h.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))) // Encode ends each value with one
	}
	if len(targets) > 0 {
		h.Write([]byte("]"))
	}
	h.Write([]byte("}\n"))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// seedFromFingerprint turns a fingerprint into a seed all shards share.
func seedFromFingerprint(fp string) uint64 {
	b, _ := hex.DecodeString(fp)
	return binary.BigEndian.Uint64(b[:8])
}

// waitForStart sleeps until the planned start, or until ctx ends.
func waitForStart(ctx context.Context, at time.Time) error {
	if at.IsZero() {
		return nil
	}
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for the start at %s: %w", at.Format(time.RFC3339), ctx.Err())
	}
}
