package run

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/internal/testtier"
	"github.com/webload/webload/stats"
)

// turningSite answers its first healthy requests at once with 200, then as turn says: a stall
// (3 s, or until the client goes) or a 500.
func turningSite(t *testing.T, healthy int64, turn string) *httptest.Server {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) <= healthy {
			w.Write([]byte("ok\n"))
			return
		}
		switch turn {
		case "stall":
			select {
			case <-time.After(3 * time.Second):
			case <-r.Context().Done():
			}
			w.Write([]byte("late\n"))
		case "500":
			http.Error(w, "down", http.StatusInternalServerError)
		default:
			w.Write([]byte("ok\n"))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func mustLive(t *testing.T, exprs ...string) []gate.Gate {
	t.Helper()
	var gates []gate.Gate
	for _, e := range exprs {
		g, err := gate.ParseLiveGate(e)
		if err != nil {
			t.Fatal(err)
		}
		gates = append(gates, g)
	}
	return gates
}

// --abort-on stops a run whose server breaks the gate over the window, well before its time
// limit, writes the result of what was measured with the gate that fired, and returns a
// GateAbortError; a healthy server runs to its time limit.
func TestExecuteAbortOn(t *testing.T) {
	t.Parallel()
	testtier.Slow(t)
	tests := []struct {
		name     string
		turn     string
		limit    time.Duration
		gates    []string
		window   time.Duration
		wantGate string // "" for a run that is not aborted
	}{
		{name: "stall", turn: "stall", limit: 30 * time.Second, gates: []string{"error_rate>5", "p95>1s"}, window: 2 * time.Second, wantGate: "p95>1s"},
		{name: "errors", turn: "500", limit: 30 * time.Second, gates: []string{"p95>1m", "error_rate>5"}, window: 2 * time.Second, wantGate: "error_rate>5"},
		{name: "healthy", turn: "", limit: 3 * time.Second, gates: []string{"p95>1m", "error_rate>5"}, window: time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := turningSite(t, 40, tt.turn)
			spec := smallSpec(t, srv.URL+"/", 4, 0)
			spec.Config.Duration = tt.limit
			spec.Config.Delay = 0
			spec.AbortOn, spec.AbortWindow = mustLive(t, tt.gates...), tt.window
			spec.Outputs.JSONFile = filepath.Join(t.TempDir(), "r.json")
			rep, err := Execute(boundedCtx(t), spec, Streams{Stdout: &discardWriter{}, Stderr: &discardWriter{}})
			saved, readErr := stats.ReadJSON(spec.Outputs.JSONFile)
			if readErr != nil {
				t.Fatalf("the result was not written: %v (run: %v)", readErr, err)
			}
			if tt.wantGate == "" {
				if err != nil || rep.Run.StopReason != stats.StopTimeUp || saved.Run.Abort != nil {
					t.Fatalf("healthy run: err %v, stop %q, abort %+v; want no error, stopped by time, no abort", err, rep.Run.StopReason, saved.Run.Abort)
				}
				return
			}
			var ga GateAbortError
			if !errors.As(err, &ga) || ga.Abort.Gate != tt.wantGate {
				t.Fatalf("err = %v; want a GateAbortError on %s", err, tt.wantGate)
			}
			a := saved.Run.Abort
			if saved.Run.StopReason != stats.StopAborted || a == nil || *a != ga.Abort {
				t.Fatalf("saved stop %q, abort %+v; want aborted by %+v", saved.Run.StopReason, a, ga.Abort)
			}
			g := mustLive(t, tt.wantGate)[0]
			if a.Value <= g.Value || a.Window != tt.window.Seconds() || a.At >= tt.limit.Seconds() || a.At < tt.window.Seconds()/2 {
				t.Errorf("abort %+v: want a value beyond %v, the %v window, at a moment before the %v limit", a, g.Value, tt.window, tt.limit)
			}
			if saved.Transactions < 40 || saved.ElapsedTime >= tt.limit.Seconds() {
				t.Errorf("saved %d transactions over %.1f s; want the 40 healthy ones at least, before the %v limit", saved.Transactions, saved.ElapsedTime, tt.limit)
			}
		})
	}
}

// discardWriter swallows what a run prints.
type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
