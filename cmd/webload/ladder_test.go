package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/webload/webload/stats"
)

func TestParseUsers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"15", []int{15}},
		{"10,20,40,80", []int{10, 20, 40, 80}},
		{" 10, 20 ,40 ", []int{10, 20, 40}},
		{"80,40", nil},
		{"1,1", nil},
		{"2,1", nil},
		{"10,20,20,40", nil},
		{"1,2", []int{1, 2}},
		{"0", nil},
		{"-5", nil},
		{"10,,20", nil},
		{"10,20,", nil},
		{"ten", nil},
		{"", nil},
		{"1e3", nil},
		{"99999999999999999999", nil},
		{strings.Repeat("1,", maxSteps) + "1", nil},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := parseUsers(tc.in)
			if tc.want == nil {
				if err == nil {
					t.Errorf("parseUsers(%q) = %v, want an error", tc.in, got)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("parseUsers(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		})
	}
}

func FuzzParseUsers(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseUsers(s)
		if err != nil {
			return
		}
		if len(got) == 0 || len(got) > maxSteps {
			t.Fatalf("parseUsers(%q) = %d steps", s, len(got))
		}
		for i, u := range got {
			if u < 1 || u > maxStepUsers {
				t.Fatalf("parseUsers(%q) gave %d users", s, u)
			}
			if i > 0 && u <= got[i-1] {
				t.Fatalf("parseUsers(%q) = %v: a ladder that does not rise", s, got)
			}
		}
	})
}

// -c 1,2,3 makes one result with a step per number of users, each sending its users' -r
// requests; -c with one number is a run as before, with no steps.
func TestLadderFromTheCommandLine(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	stdout, stderr, code := webload(t, nil, "-j", "--no-parser", "-c", "1,2,3", "-r", "2", "--repeat-pause", "0s", site.URL+"/a")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep stats.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Steps) != 3 || rep.Requests != 12 || site.snapshot()["/a"] != 12 {
		t.Fatalf("%d steps, %d requests, %d answered: want 3, 12, 12", len(rep.Steps), rep.Requests, site.snapshot()["/a"])
	}
	for i, s := range rep.Steps {
		if s.Run.Users != i+1 || s.Requests != int64(2*(i+1)) {
			t.Errorf("step %d: %d users, %d requests", i+1, s.Run.Users, s.Requests)
		}
	}
	stdout, _, code = webload(t, nil, "-j", "--no-parser", "-c", "2", "-r", "2", site.URL+"/b")
	if code != 0 || strings.Contains(stdout, `"steps"`) || !strings.Contains(stdout, `"users": 2,`) {
		t.Errorf("exit %d; one number should be a plain run of 2 users:\n%s", code, stdout)
	}
}

// A bad list, or a ladder with a load that has no users to step (--rate) or machines that
// could not keep the steps together (--shard), is refused before anything is sent.
func TestLadderRefusals(t *testing.T) {
	t.Parallel()
	site := newCounter(t, 0, 200)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"zero users", []string{"-c", "0"}, "-c: "},
		{"empty step", []string{"-c", "10,,20"}, "-c: "},
		{"falling", []string{"-c", "2,1"}, "-c: a ladder rises: each step has more users than the one before (got 1 after 2 in \"2,1\")"},
		{"flat", []string{"-c", "1,1"}, "-c: a ladder rises: each step has more users than the one before (got 1 after 1 in \"1,1\")"},
		{"with a rate", []string{"-c", "1,2", "--rate", "10"}, "-c"},
		{"with shards", []string{"-c", "1,2", "--shard", "1/2"}, "-c 1,2: a ladder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"-q", "--no-parser", "-r", "1"}, tc.args...)
			_, stderr, code := webload(t, nil, append(args, site.URL+"/"+strings.ReplaceAll(tc.name, " ", "-"))...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
			if n := site.snapshot()["/"+strings.ReplaceAll(tc.name, " ", "-")]; n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

// compare on two ladders lines their steps up, a row per number of users, in text and
// Markdown alike.
func TestCompareLadders(t *testing.T) {
	t.Parallel()
	a := "../../stats/testdata/saved/ladder.json"
	b := "../../stats/testdata/saved/ladder-b.json"
	for _, format := range []string{"text", "md"} {
		stdout, stderr, code := webload(t, nil, "compare", "--format", format, a, b)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		_, steps, ok := strings.Cut(stdout, "Ladder, step by step")
		if !ok {
			t.Fatalf("%s: no ladder table:\n%s", format, stdout)
		}
		for _, users := range []string{"2", "4", "8"} {
			if !strings.Contains(steps, "\n"+users+" ") && !strings.Contains(steps, "\n| "+users+" |") {
				t.Errorf("%s: no row for %s users:\n%s", format, users, steps)
			}
		}
	}
}
