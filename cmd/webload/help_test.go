package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// helpFlagLine is one flag's entry in --help: its first name, the heading it sits under ("" when
// none) and its whole text, continuation lines included.
type helpFlagLine struct {
	name, heading, text string
}

// parseHelp reads the headings (in order) and the flag entries of the options part of a help
// text. An entry starts at column 3 ("-c, --concurrent N") or, without a short name, at column 7
// ("--rate R"); a heading is another line at column 3; deeper lines continue an entry.
func parseHelp(t *testing.T, help string) (headings []string, flags []helpFlagLine) {
	t.Helper()
	_, opts, ok := strings.Cut(help, "OPTIONS:\n")
	if !ok {
		t.Fatalf("no OPTIONS section in the help:\n%s", help)
	}
	heading := ""
	for _, line := range strings.Split(opts, "\n") {
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case trimmed == "":
		case (indent == 3 || indent == 7) && strings.HasPrefix(trimmed, "-"):
			fields := strings.Fields(trimmed)
			name := fields[0]
			for _, f := range fields {
				if strings.HasPrefix(f, "--") {
					name = f
					break
				}
			}
			name = strings.TrimSuffix(strings.TrimLeft(name, "-"), ",")
			flags = append(flags, helpFlagLine{name, heading, trimmed})
		case indent > 3 && len(flags) > 0:
			flags[len(flags)-1].text += " " + trimmed
		default:
			heading = trimmed
			headings = append(headings, heading)
		}
	}
	return headings, flags
}

func TestRunHelpGroupsFlagsByCategory(t *testing.T) {
	t.Parallel()
	want := map[string]string{} // flag name -> its category
	for _, f := range append(runFlags(), helpFlag()) {
		cat := ""
		if cf, ok := f.(cli.CategorizableFlag); ok {
			cat = cf.GetCategory()
		}
		if f.Names()[0] == "help" {
			cat = catDiagnostics // newApp gives the run's --help this category
		}
		if !slices.Contains(flagCategories(), cat) {
			t.Errorf("flag --%s: category %q is not one of the help's headings %q", f.Names()[0], cat, flagCategories())
		}
		want[f.Names()[0]] = cat
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"root --help", []string{"--help"}},
		{"root -h", []string{"-h"}},
		{"run --help", []string{"run", "--help"}},
		{"help command", []string{"help"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			headings, flags := parseHelp(t, stdout)
			if !slices.Equal(headings, flagCategories()) {
				t.Errorf("headings %q, want %q", headings, flagCategories())
			}
			seen := map[string]bool{}
			for _, f := range flags {
				seen[f.name] = true
				if cat, ok := want[f.name]; !ok {
					t.Errorf("--%s is in the help but not a run flag", f.name)
				} else if f.heading != cat {
					t.Errorf("--%s is under %q, want %q", f.name, f.heading, cat)
				}
			}
			for name := range want {
				if !seen[name] {
					t.Errorf("--%s is missing from the help", name)
				}
			}
		})
	}
}

// TestHelpStatesEachDefaultOnce: a default said in the usage text and again by the flag library's
// "(default: ...)" reads as two answers, sometimes contradicting ones ("never", "0").
func TestHelpStatesEachDefaultOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"root", []string{"--help"}},
		{"run", []string{"run", "--help"}},
		{"demo", []string{"demo", "--help"}},
		{"merge", []string{"merge", "--help"}},
		{"compare", []string{"compare", "--help"}},
		{"report", []string{"report", "--help"}},
		{"urls import", []string{"urls", "import", "--help"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			_, flags := parseHelp(t, stdout)
			if len(flags) == 0 {
				t.Fatalf("no flags in the help:\n%s", stdout)
			}
			for _, f := range flags {
				if n := strings.Count(strings.ToLower(f.text), "default"); n > 1 {
					t.Errorf("--%s says \"default\" %d times: %s", f.name, n, f.text)
				}
			}
		})
	}
}

// TestCapacityHelpHeadingsInOrder: capacity's help has the run's headings in the run's order
// (urfave/cli sorts them by name), after its flags without one.
func TestCapacityHelpHeadingsInOrder(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := webload(t, nil, "capacity", "--help")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	headings, flags := parseHelp(t, stdout)
	var want []string
	for _, h := range flagCategories() {
		if slices.Contains(headings, h) {
			want = append(want, h)
		}
	}
	if len(want) < 3 || !slices.Equal(headings, want) {
		t.Errorf("headings %q, want them in the order %q", headings, flagCategories())
	}
	if len(flags) == 0 || flags[0].name != "help" || flags[0].heading != "" {
		t.Errorf("the first flag is %+v, want --help before any heading", flags[0])
	}
}
