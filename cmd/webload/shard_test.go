package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/stats"
)

// Four webload processes, each a shard of one run, against one loopback server: merged, they
// make exactly the whole run's requests, URL by URL as the server counted them, and the merged
// percentiles come from the added histograms.
func TestShardedRunMerges(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	cases := []struct {
		name      string
		args      []string
		wantTotal int
	}{
		{"closed", []string{"-c", "10", "-r", "12"}, 120},
		{"open", []string{"--rate", "400", "-r", "200"}, 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			site := newCounter(t, 0, 200)
			list := urlFile(t, site.URL, 7)
			dir := t.TempDir()
			start := time.Now().Add(1500 * time.Millisecond).UTC().Format(time.RFC3339Nano)
			const n = 4
			cmds := make([]*exec.Cmd, n)
			for i := range n {
				args := append([]string{"-q", "--no-parser", "-f", list, "--start-at", start,
					"-o", filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))}, tc.args...)
				cmds[i] = exec.Command(os.Args[0], args...)
				// The index as a Kubernetes Indexed Job gives it; the count from the environment.
				cmds[i].Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1", fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i), "WEBLOAD_SHARDS=4")
				if err := cmds[i].Start(); err != nil {
					t.Fatal(err)
				}
			}
			for i, cmd := range cmds {
				if err := cmd.Wait(); err != nil {
					t.Fatalf("shard %d: %v", i, err)
				}
			}
			total := filepath.Join(dir, "total.json")
			shards, _ := filepath.Glob(filepath.Join(dir, "shard-*.json"))
			_, stderr, code := webload(t, nil, append([]string{"merge", "-o", total}, shards...)...)
			if code != 0 {
				t.Fatalf("merge: exit %d: %s", code, stderr)
			}
			rep, err := stats.ReadJSON(total)
			if err != nil {
				t.Fatal(err)
			}
			if int(rep.Transactions) != tc.wantTotal || len(rep.Run.Shards) != n {
				t.Fatalf("merged %d transactions from %d shards, want %d from %d", rep.Transactions, len(rep.Run.Shards), tc.wantTotal, n)
			}
			// Every request the server saw is in the merged result, and each shard's are in it
			// once: the shards' counts add up to the merge's, and the server's to both.
			seen := site.snapshot()
			served := 0
			for _, n := range seen {
				served += n
			}
			var shardSum int64
			for _, p := range shards {
				r, err := stats.ReadJSON(p)
				if err != nil {
					t.Fatal(err)
				}
				shardSum += r.Transactions
			}
			if served != tc.wantTotal || shardSum != rep.Transactions {
				t.Errorf("the server saw %d requests and the shards made %d transactions; the merge has %d, want %d",
					served, shardSum, rep.Transactions, tc.wantTotal)
			}
			for _, u := range rep.URLs {
				path := u.URL[strings.Index(u.URL, "/page/"):]
				if int(u.Hits) != seen[path] {
					t.Errorf("%s: merged %d hits, the server saw %d", path, u.Hits, seen[path])
				}
			}
			// No shard starts before the planned time; how late a busy machine starts one is no
			// fact of webload's.
			for _, sh := range rep.Run.Shards {
				if sh.StartOffset < 0 {
					t.Errorf("shard %d started %.3f s before the planned start", sh.Index, -sh.StartOffset)
				}
			}
			// The merged p99 is the histogram's: check it against a direct merge of the shards.
			var direct []stats.Report
			for _, p := range shards {
				r, _ := stats.ReadJSON(p)
				direct = append(direct, r)
			}
			all, err := stats.Combine(direct)
			if err != nil || all.Percentiles != rep.Percentiles {
				t.Errorf("merged percentiles %+v, combined %+v (%v)", rep.Percentiles, all.Percentiles, err)
			}
		})
	}
}

// merge refuses what is not one run's complete set of shards, saying why.
func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	dir := t.TempDir()
	shard := func(name string, args ...string) string {
		t.Helper()
		out := filepath.Join(dir, name)
		args = append([]string{"-q", "--no-parser", "-c", "2", "-r", "2", "-o", out}, args...)
		if _, stderr, code := webload(t, nil, append(args, site.URL+"/")...); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		return out
	}
	a0, a1 := shard("a0.json", "--shard", "0/3"), shard("a1.json", "--shard", "1/3")
	b2 := shard("b2.json", "--shard", "2/3", "-r", "3")
	whole := shard("whole.json")
	cases := []struct {
		name  string
		files []string
		want  string
	}{
		{"missing", []string{a0, a1}, "missing shard 2 of 3"},
		{"different test", []string{a0, a1, b2}, "different test"},
		{"twice", []string{a0, a0, a1}, "given twice"},
		{"whole run", []string{a0, whole}, "not a shard"},
	}
	for _, tc := range cases {
		_, stderr, code := webload(t, nil, append([]string{"merge"}, tc.files...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, %q; want %d and %q", tc.name, code, stderr, exitUsage, tc.want)
		}
	}
	var rep struct {
		Run struct{ Shard struct{ Index, Count int } }
	}
	data, _ := os.ReadFile(a1)
	if err := json.Unmarshal(data, &rep); err != nil || rep.Run.Shard.Index != 1 || rep.Run.Shard.Count != 3 {
		t.Errorf("shard 1's result says %+v (%v)", rep.Run.Shard, err)
	}
}

// With more shards than users, a shard given no user sends nothing and says so in one line on
// stderr, even under -q and -j (whose stdout stays the JSON document alone); its result is a
// valid shard, and the shards merge to exactly the whole run's requests. An error is no better:
// an Indexed Job or a gang job with one failed shard fails whole, though the others carry the
// entire load.
func TestShardWithoutUsers(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	list := urlFile(t, site.URL, 3)
	dir := t.TempDir()
	const users, reps, n = 2, 3, 4
	var files []string
	for i := range n {
		before := site.snapshot()
		shard := fmt.Sprintf("%d/%d", i, n)
		stdout, stderr, code := webload(t, nil, "-q", "--no-parser", "-f", list, "-c", fmt.Sprint(users), "-r", fmt.Sprint(reps),
			"--shard", shard, "-j")
		if code != 0 {
			t.Fatalf("shard %s: exit %d: %s", shard, code, stderr)
		}
		sent := 0
		for k, v := range site.snapshot() {
			sent += v - before[k]
		}
		// shard i runs users i*2/4 up to (i+1)*2/4: shards 0 and 2 get none.
		empty := i%2 == 0
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if empty && (len(lines) != 1 || !strings.Contains(lines[0], "shard "+shard+" has no users") || sent != 0) {
			t.Errorf("shard %s: sent %d requests, stderr %q; want none and one line saying it has no users", shard, sent, stderr)
		}
		if !empty && (stderr != "" || sent != reps) {
			t.Errorf("shard %s: sent %d requests, stderr %q; want %d and nothing", shard, sent, stderr, reps)
		}
		rep := decode(t, []byte(stdout))
		// The layout examples/kubernetes/result.awk keeps whole out of a container log that
		// holds these stderr lines too: "{", lines indented by two spaces, "}".
		for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
			if l != "{" && l != "}" && !strings.HasPrefix(l, "  ") {
				t.Fatalf("shard %s: -j wrote the line %q, which a container log's reader would drop", shard, l)
			}
		}
		for _, l := range lines {
			if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "{") || strings.HasPrefix(l, "}") {
				t.Errorf("shard %s: the stderr line %q would pass for the JSON document's", shard, l)
			}
		}
		if got := rep["transactions"].(float64); int(got) != sent {
			t.Errorf("shard %s: %v transactions, the server saw %d", shard, got, sent)
		}
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		if err := os.WriteFile(f, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	total := filepath.Join(dir, "total.json")
	if _, stderr, code := webload(t, nil, append([]string{"merge", "-o", total}, files...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	rep, err := stats.ReadJSON(total)
	if err != nil {
		t.Fatal(err)
	}
	served := 0
	for _, v := range site.snapshot() {
		served += v
	}
	if rep.Transactions != users*reps || served != users*reps || len(rep.Run.Shards) != n {
		t.Errorf("merged %d transactions from %d shards, the server saw %d; want %d from %d",
			rep.Transactions, len(rep.Run.Shards), served, users*reps, n)
	}
}
