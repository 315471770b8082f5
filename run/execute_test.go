package run

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// site is a loopback server that counts the requests it answers.
type site struct {
	*httptest.Server
	hits atomic.Int64
}

// newSite starts a site; onHit, if not nil, runs on every request.
func newSite(t *testing.T, onHit func()) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		if onHit != nil {
			onHit()
		}
		w.Write([]byte("ok\n"))
	}))
	t.Cleanup(s.Close)
	return s
}

// smallSpec is users × reps requests to url, printing nothing.
func smallSpec(t testing.TB, url string, users, reps int) Spec {
	t.Helper()
	target, err := urls.ParseLine(url, urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := loader.DefaultConfig()
	cfg.Users, cfg.Reps, cfg.MaxUsers, cfg.Timeout = users, reps, 0, 10*time.Second
	cfg.UserAgent = "webload-test"
	return Spec{
		Config:   cfg,
		Targets:  []urls.Target{target},
		Info:     NewInfo(&cfg, "", "", "test"),
		Outputs:  Outputs{Quiet: true},
		Interval: time.Second,
	}
}

// boundedCtx keeps a broken engine from hanging the suite.
func boundedCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// A series of runs sends every run's requests, combines them into one result and writes it to
// every file asked for, and into the history under a name that sorts by time.
func TestExecuteRepeatsAndWritesOutputs(t *testing.T) {
	t.Parallel()
	srv := newSite(t, nil)
	dir := t.TempDir()
	spec := smallSpec(t, srv.URL+"/a", 2, 3)
	spec.Repeat = 3
	spec.History = filepath.Join(dir, "history")
	spec.Outputs.Label = "Nightly: MariaDB 10"
	spec.Outputs.JSONFile = filepath.Join(dir, "r.json")
	spec.Outputs.LogFile = filepath.Join(dir, "siege.log")
	spec.Outputs.Mark = "first"
	var stdout, stderr bytes.Buffer

	rep, err := Execute(boundedCtx(t), spec, Streams{Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.hits.Load(); got != 18 {
		t.Errorf("the server answered %d requests, want 3 runs × 2 users × 3", got)
	}
	if rep.Transactions != 18 || len(rep.Repeats) != 3 || rep.Label != spec.Outputs.Label {
		t.Errorf("result: %d transactions over %d runs, label %q; want 18 over 3, %q",
			rep.Transactions, len(rep.Repeats), rep.Label, spec.Outputs.Label)
	}
	if stdout.Len()+stderr.Len() > 0 {
		t.Errorf("quiet run printed %q and %q", stdout.String(), stderr.String())
	}
	saved, err := stats.ReadJSON(spec.Outputs.JSONFile)
	if err != nil || saved.Transactions != 18 || len(saved.Repeats) != 3 {
		t.Errorf("-o holds %d transactions over %d runs (%v), want 18 over 3", saved.Transactions, len(saved.Repeats), err)
	}
	log, err := os.ReadFile(spec.Outputs.LogFile)
	if err != nil || !strings.Contains(string(log), "**** first ****\n") || strings.Count(string(log), "\n") != 3 {
		t.Errorf("log file (%v):\n%s\nwant its header, the mark and one line", err, log)
	}
	kept, err := filepath.Glob(filepath.Join(spec.History, "*.json"))
	if err != nil || len(kept) != 1 || !strings.HasSuffix(kept[0], "Z-nightly-mariadb-10.json") {
		t.Errorf("history holds %v (%v), want one result named after its start and label", kept, err)
	}
}

// A series that ends early still writes what it measured, and says why it ended with a typed
// error; a setting that cannot work fails before any request.
func TestExecuteErrors(t *testing.T) {
	t.Parallel()
	stopped := errors.New("stopped by the test")
	refused := httptest.NewServer(http.NotFoundHandler())
	refused.Close() // nothing listens there any more

	tests := []struct {
		name      string
		interrupt bool // the first request cancels the run's context
		edit      func(s *Spec, dir string)
		check     func(t *testing.T, err error)
		wantSent  bool // the result was written to -o
	}{
		{
			name:      "interrupted",
			interrupt: true,
			check: func(t *testing.T, err error) {
				var intr InterruptedError
				if !errors.As(err, &intr) || !errors.Is(err, stopped) {
					t.Errorf("got %v, want an InterruptedError caused by %v", err, stopped)
				}
			},
			wantSent: true,
		},
		{
			name: "aborted at the failure threshold",
			edit: func(s *Spec, _ string) {
				target, _ := urls.ParseLine(refused.URL+"/", urls.Options{})
				s.Targets = []urls.Target{target}
				s.Config.MaxFailures = 2
			},
			check: func(t *testing.T, err error) {
				var ab AbortedError
				if !errors.As(err, &ab) || ab.Threshold != 2 || ab.Failed < 2 {
					t.Errorf("got %#v, want an AbortedError at 2 failures", err)
				}
			},
			wantSent: true,
		},
		{
			name: "CSV file that cannot be created",
			edit: func(s *Spec, dir string) { s.Outputs.CSVFile = filepath.Join(dir, "missing", "r.csv") },
			check: func(t *testing.T, err error) {
				var se SettingError
				if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "--csv: ") {
					t.Errorf("got %v, want a SettingError naming --csv", err)
				}
			},
		},
		{
			name: "metrics off loopback",
			edit: func(s *Spec, _ string) { s.Outputs.PromAddr = "0.0.0.0:0" },
			check: func(t *testing.T, err error) {
				var se SettingError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), "loopback only") {
					t.Errorf("got %v, want a SettingError about loopback", err)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancelCause(boundedCtx(t))
			defer cancel(nil)
			var onHit func()
			if tc.interrupt {
				onHit = func() { cancel(stopped) }
			}
			srv := newSite(t, onHit)
			dir := t.TempDir()
			spec := smallSpec(t, srv.URL+"/", 2, 5)
			spec.Outputs.JSONFile = filepath.Join(dir, "r.json")
			spec.History = filepath.Join(dir, "history")
			if tc.edit != nil {
				tc.edit(&spec, dir)
			}
			_, err := Execute(ctx, spec, Streams{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
			tc.check(t, err)
			if _, statErr := os.Stat(spec.Outputs.JSONFile); (statErr == nil) != tc.wantSent {
				t.Errorf("-o written: %v, want %v", statErr == nil, tc.wantSent)
			}
			if _, statErr := os.Stat(spec.History); statErr == nil {
				t.Error("a run that did not end as planned joined the history")
			}
			if !tc.wantSent && srv.hits.Load() != 0 {
				t.Errorf("%d requests sent despite the bad setting", srv.hits.Load())
			}
		})
	}
}

// A shard that waited for a planned start says how late it began after it.
func TestExecuteShardStartOffset(t *testing.T) {
	t.Parallel()
	srv := newSite(t, nil)
	spec := smallSpec(t, srv.URL+"/", 2, 1)
	spec.Config.Shard, spec.Config.Shards = 1, 2
	spec.StartAt = time.Now().Add(20 * time.Millisecond)
	spec.Info.Shard = &stats.ShardInfo{Index: 1, Count: 2, PlannedStart: spec.StartAt}
	spec.Identify(false)

	rep, err := Execute(boundedCtx(t), spec, Streams{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.hits.Load(); got != 1 {
		t.Errorf("shard 1 of 2 sent %d requests, want its one user's 1", got)
	}
	sh := rep.Run.Shard
	if sh == nil || sh.StartOffset < 0 || rep.Run.StartedAt.Before(spec.StartAt) {
		t.Errorf("shard %+v started at %v, want it after the planned %v with the offset", sh, rep.Run.StartedAt, spec.StartAt)
	}
}

func TestSlugify(t *testing.T) {
	t.Parallel()
	tests := []struct{ label, want string }{
		{"", ""},
		{"MariaDB 10.0 XtraDB", "mariadb-10.0-xtradb"},
		{"  --Nightly: run #3!  ", "nightly-run-3"},
		{"v1.2.", "v1.2"},
		{"été", "t"},
	}
	for _, tc := range tests {
		if got := slugify(tc.label); got != tc.want {
			t.Errorf("slugify(%q) = %q, want %q", tc.label, got, tc.want)
		}
	}
}
