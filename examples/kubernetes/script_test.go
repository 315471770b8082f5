package kubernetes

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// result.awk takes a shard's JSON document out of its container log whole, wherever the
// container's stderr lines fell among the document's lines: kubectl logs gives both streams as
// one, and this kubectl has no option to read stdout alone.
func TestResultFromLog(t *testing.T) {
	if _, err := exec.LookPath("awk"); err != nil {
		t.Skip("no awk")
	}
	// A saved result in the layout of webload's -j, which TestShardWithoutUsers (in
	// cmd/webload) pins.
	doc, err := os.ReadFile("../../stats/testdata/saved/closed.json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(doc), "\n")
	stderr := []string{
		"webload: shard 0/4 has no users: 2 users split over 4 shards leave it none; it sends nothing, and its empty result merges with the others'\n",
		"webload: warning: the database mysql://db: no reading (connection refused); the run goes on without its figures\n",
		"** note: a stray banner line\n",
	}
	for _, tc := range []struct {
		name string
		at   []int // the document's line before which each stderr line falls
	}{
		{"none", nil},
		{"before", []int{0, 0, 0}},
		{"among", []int{1, len(lines) / 2, len(lines) - 2}},
		{"after", []int{len(lines), len(lines), len(lines)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log strings.Builder
			for i, l := range lines {
				for j, at := range tc.at {
					if at == i {
						log.WriteString(stderr[j])
					}
				}
				log.WriteString(l)
			}
			for j, at := range tc.at {
				if at == len(lines) {
					log.WriteString(stderr[j])
				}
			}
			if len(tc.at) > 0 && json.Valid([]byte(log.String())) {
				t.Fatal("the mixed log is valid JSON: the case tests nothing")
			}
			awk := exec.Command("awk", "-f", "result.awk")
			awk.Stdin = strings.NewReader(log.String())
			got, err := awk.Output()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, doc) {
				t.Errorf("result.awk gave %d bytes, want the %d-byte document", len(got), len(doc))
			}
		})
	}
}

// run.sh stops with a clear failure, not a day's wait, when a shard fails or never completes,
// and reads the results through result.awk.
func TestRunScript(t *testing.T) {
	data, err := os.ReadFile("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	script := string(data)
	for _, want := range []string{
		"--for=condition=Complete", "--for=condition=Failed", // whichever comes first
		`--timeout="${timeout}s"`, // bounded
		"--for=condition=Ready",   // every shard running by the start
		"--cascade=foreground",    // no old pod taken for a new one
		"awk -f result.awk",
	} {
		if !strings.Contains(script, want) {
			t.Errorf("run.sh lacks %s", want)
		}
	}
	if strings.Contains(script, "24h") {
		t.Error("run.sh waits a day for a Job that may have failed")
	}
	if bash, err := exec.LookPath("bash"); err == nil {
		if out, err := exec.Command(bash, "-n", "run.sh").CombinedOutput(); err != nil {
			t.Errorf("bash -n run.sh: %v: %s", err, out)
		}
	}
}
