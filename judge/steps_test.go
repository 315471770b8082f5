package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/webload/webload/stats"
)

func TestLadderKeepsStepsAndTotals(t *testing.T) {
	t.Parallel()
	two, four := loadSaved(t, "repeat"), loadSaved(t, "closed") // 2 users (a series), then 4
	rep, err := stats.Ladder([]stats.Report{two, four})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Transactions != two.Transactions+four.Transactions || rep.Requests != two.Requests+four.Requests {
		t.Errorf("transactions %d, requests %d: want the steps' sums %d and %d", rep.Transactions, rep.Requests,
			two.Transactions+four.Transactions, two.Requests+four.Requests)
	}
	if len(rep.Steps) != 2 || rep.Steps[0].Run.Users != 2 || rep.Steps[1].Run.Users != 4 {
		t.Fatalf("steps %d, want the two steps in order", len(rep.Steps))
	}
	if len(rep.Steps[0].Repeats) != 2 {
		t.Errorf("the first step's series has %d repeats, want 2", len(rep.Steps[0].Repeats))
	}
	if rep.Repeats != nil {
		t.Errorf("a ladder is not a series: %d repeats", len(rep.Repeats))
	}
	if rep.Run.Users != 4 || rep.Users.Count != 4 {
		t.Errorf("users %d (count %d), want the largest step's 4", rep.Run.Users, rep.Users.Count)
	}
	if err := rep.Check(); err != nil {
		t.Error(err)
	}
	// Written, read and written again, a ladder is the same bytes, its steps included.
	first := jsonOf(t, &rep)
	var back stats.Report
	if err := json.Unmarshal(first, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Steps) != 2 || back.Steps[1].Transactions != four.Transactions {
		t.Fatalf("read back %d steps", len(back.Steps))
	}
	if again := jsonOf(t, &back); !bytes.Equal(first, again) {
		t.Errorf("written again, the ladder differs:\n%s", again)
	}
}

func TestLadderOfNoStepsIsRefused(t *testing.T) {
	t.Parallel()
	if _, err := stats.Ladder(nil); !errors.Is(err, stats.ErrNoSteps) {
		t.Errorf("no steps: %v, want ErrNoSteps", err)
	}
	// A ladder stopped during its second step has one: still a ladder.
	rep, err := stats.Ladder([]stats.Report{loadSaved(t, "closed")})
	if err != nil || len(rep.Steps) != 1 {
		t.Errorf("one step: %d steps, %v", len(rep.Steps), err)
	}
}

func TestLittle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		rep  stats.Report
		want float64
	}{
		{"all time in requests", stats.Report{TransactionRate: 400, ResponseTime: 0.02, Run: stats.RunInfo{Users: 8}}, 1},
		{"queued behind the server", stats.Report{TransactionRate: 400, ResponseTime: 0.08, Run: stats.RunInfo{Users: 32}}, 1},
		{"pauses count half of -d", stats.Report{TransactionRate: 50, ResponseTime: 0.1, Run: stats.RunInfo{Users: 10, Delay: 0.2}}, 1},
		{"time lost outside requests", stats.Report{TransactionRate: 200, ResponseTime: 0.02, Run: stats.RunInfo{Users: 8}}, 0.5},
		{"open model has no users", stats.Report{TransactionRate: 200, ResponseTime: 0.02, Run: stats.RunInfo{Model: stats.ModelOpen, Users: 8}}, 0},
		{"no users", stats.Report{TransactionRate: 200, ResponseTime: 0.02}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.rep.Little(); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("Little() = %g, want %g", got, tc.want)
			}
		})
	}
}

// A saved ladder is the ladder of its saved steps, to the last digit.
func TestSavedLadderIsItsSteps(t *testing.T) {
	t.Parallel()
	saved := loadSaved(t, "ladder")
	again, err := stats.Ladder(saved.Steps)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsonOf(t, &again), jsonOf(t, &saved); !bytes.Equal(got, want) {
		t.Errorf("Ladder of the saved steps differs from the saved ladder:\n--- got\n%s\n--- want\n%s", got, want)
	}
}

// A limit holds for every step two ladders share: 4 workers against 8 regress at 8 users,
// where the smaller stack passed its knee, and that step's verdict fails.
func TestLadderLimitsJudgeEachStep(t *testing.T) {
	t.Parallel()
	cmp, err := Compare([]stats.Report{loadSaved(t, "ladder-b"), loadSaved(t, "ladder")}, false)
	if err != nil {
		t.Fatal(err)
	}
	limits, err := ParseLimits("p95=10%")
	if err != nil {
		t.Fatal(err)
	}
	var checks []string
	failedAt8 := false
	for _, v := range cmp.CheckLimits(limits) {
		checks = append(checks, v.Check)
		if v.Check == "4 workers at 8 users: p95" {
			failedAt8 = !v.Passed && !v.Inconclusive
			t.Log(v.Text)
		}
	}
	want := []string{"4 workers: p95", "4 workers at 2 users: p95", "4 workers at 4 users: p95", "4 workers at 8 users: p95"}
	if strings.Join(checks, "|") != strings.Join(want, "|") {
		t.Errorf("checks %q, want %q", checks, want)
	}
	if !failedAt8 {
		t.Error("p95 at 8 users, 89 % worse and significant, should fail")
	}
}
