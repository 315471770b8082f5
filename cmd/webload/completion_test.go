package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCompletionWords: with completionMarker last, webload prints the words that may replace
// the last argument and runs nothing.
func TestCompletionWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		words []string // what is typed, the word being completed last
		want  []string
	}{
		{"a flag's start", []string{"--conc"}, []string{"--concurrent"}},
		{"flags of a command", []string{"compare", "--hi"}, []string{"--history"}},
		{"flags of a subcommand", []string{"urls", "import", "--ba"}, []string{"--base"}},
		{"short names too", []string{"-"}, nil}, // checked below: every flag of the run
		{"commands", []string{"c"}, []string{"compare", "capacity", "completion"}},
		{"commands after a flag", []string{"-q", "re"}, []string{"report", "replay"}},
		{"subcommands", []string{"urls", ""}, []string{"import"}},
		{"shells", []string{"completion", ""}, []string{"bash", "zsh", "fish"}},
		{"commands to help with", []string{"help", "me"}, []string{"merge"}},
		{"a flag's value: the shell's file names", []string{"-f", ""}, nil},
		{"a flag's value, long name", []string{"--output", "r"}, nil},
		{"after a URL: no commands", []string{"http://127.0.0.1:1/", ""}, nil},
		{"after a flag and its value", []string{"-c", "5", "de"}, []string{"demo"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, append(tc.words, completionMarker)...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			got := strings.Fields(stdout)
			if tc.name == "short names too" {
				for _, w := range []string{"-c", "--concurrent", "-h", "--help", "--rate"} {
					if !slices.Contains(got, w) {
						t.Errorf("%q is not offered after \"-\": %q", w, got)
					}
				}
				return
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("completing %q: %q, want %q", tc.words, got, tc.want)
			}
		})
	}
}

// TestCompletionHidesCapacitysRefusedFlags: capacity parses the run's flags it refuses (so as to
// name them), but does not offer them.
func TestCompletionHidesCapacitysRefusedFlags(t *testing.T) {
	t.Parallel()
	stdout, _, _ := webload(t, nil, "capacity", "--", completionMarker)
	got := strings.Fields(stdout)
	if !slices.Contains(got, "--slo") || slices.Contains(got, "--concurrent") {
		t.Errorf("capacity offers %q; want --slo and not --concurrent", got)
	}
}

func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		shell string
		want  []string
	}{
		{"bash", []string{"complete -o bashdefault -o default -F _webload webload", completionMarker}},
		{"zsh", []string{"#compdef webload", "compdef _webload webload", completionMarker}},
		{"fish", []string{"complete -c webload", "-l concurrent -s c", "-a 'compare'"}},
	} {
		t.Run(tc.shell, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := webload(t, nil, "completion", tc.shell)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("the %s script lacks %q:\n%s", tc.shell, w, stdout)
				}
			}
			if strings.Contains(stdout, "`") {
				t.Errorf("the %s script has back quotes, which urfave/cli leaves around value names", tc.shell)
			}
		})
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		_, stderr, code := webload(t, nil, args...)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "bash, zsh, fish") {
			t.Errorf("webload %s: exit %d, stderr %q; want exit %d, one line naming the shells", strings.Join(args, " "), code, stderr, exitUsage)
		}
	}
}

// TestBashCompletesWithTheScript loads the bash script into a real bash and asks it to complete
// "webload --conc", as a Tab would.
func TestBashCompletesWithTheScript(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash here")
	}
	script, _, _ := webload(t, nil, "completion", "bash")
	path := filepath.Join(t.TempDir(), "webload.bash")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		words string // COMP_WORDS after the program
		cword int
		want  string
	}{
		{"flag", "--conc", 1, "--concurrent"},
		{"command", "urls im", 2, "import"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The program is this test binary, which runs webload's main with WEBLOAD_TEST_MAIN.
			test := `source "$1"; COMP_WORDS=("$2" ` + tc.words + `); COMP_CWORD=` + string(rune('0'+tc.cword)) +
				`; _webload; printf '%s\n' "${COMPREPLY[@]}"`
			cmd := exec.Command(bash, "--norc", "-c", test, "bash", path, os.Args[0])
			cmd.Env = append(os.Environ(), "WEBLOAD_TEST_MAIN=1")
			var out, errw bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errw
			if err := cmd.Run(); err != nil {
				t.Fatalf("bash: %v\n%s", err, errw.String())
			}
			if got := strings.TrimSpace(out.String()); got != tc.want {
				t.Errorf("bash completed %q to %q, want %q (stderr %q)", tc.words, got, tc.want, errw.String())
			}
		})
	}
}

// TestManPage: webload man is a roff page with every option of the run, under the help's
// headings, its text kept whole where Markdown would have taken "<FILE" for HTML.
func TestManPage(t *testing.T) {
	t.Parallel()
	page, stderr, code := webload(t, nil, "man")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(page, ".TH WEBLOAD 1 ") {
		t.Errorf("the page does not start with .TH WEBLOAD 1:\n%.200s", page)
	}
	for _, want := range []string{".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SS Load", ".SH COMMANDS", `\-\-concurrent`,
		`"<FILE" bodies`, `p95<800ms, availability>=99.9`, `.SS webload urls import`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, f := range runFlags() {
		if !strings.Contains(page, `\-\-`+strings.ReplaceAll(f.Names()[0], "-", `\-`)) {
			t.Errorf("the page lacks --%s", f.Names()[0])
		}
	}
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "'") || (strings.HasPrefix(line, ".") && !strings.HasPrefix(line, ".TH ") &&
			!slices.Contains([]string{".SH", ".SS", ".TP", ".PP", ".nf", ".fi"}, strings.Fields(line)[0])) {
			t.Errorf("a text line reads as a roff request: %q", line)
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		return
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(page)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("groff warns about the page: %v\n%s", err, out)
	}
}
