package main

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// widestLine is the number of runes of the longest line of text, and that line.
func widestLine(text string) (int, string) {
	n, widest := 0, ""
	for _, line := range strings.Split(text, "\n") {
		if w := utf8.RuneCountInString(line); w > n {
			n, widest = w, line
		}
	}
	return n, widest
}

// TestHelpFitsTheWidth: every command's help is wrapped to $COLUMNS, or to 80 columns when
// standard output is not a terminal (here a buffer), and never wider than 100.
func TestHelpFitsTheWidth(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		columns string // "" leaves $COLUMNS unset
		want    int
	}{
		{"", 80},
		{"100", 100},
		{"72", 72},
		{"250", 100}, // a wide terminal: longer lines would be hard to read
		{"20", 40},   // too narrow for the layout: the narrowest it takes
		{"junk", 80},
	} {
		for _, path := range append([][]string{{}}, commandPaths(nil, newApp(io.Discard, io.Discard, nil).Commands)...) {
			name := "COLUMNS=" + tc.columns + " " + strings.Join(path, " ")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				env := map[string]string{}
				if tc.columns != "" {
					env["COLUMNS"] = tc.columns
				}
				stdout, stderr, code := webload(t, env, append(path, "--help")...)
				if code != 0 {
					t.Fatalf("exit %d, stderr %q", code, stderr)
				}
				width, line := widestLine(stdout)
				// A word longer than the narrowest line may stick out; only the 40 case has any.
				if width > tc.want && !(tc.want == 40 && !strings.Contains(strings.TrimSpace(line), " ")) {
					t.Errorf("a line of %d runes, wider than %d:\n%s", width, tc.want, line)
				}
			})
		}
	}
}

// TestHelpHangingIndent: a flag's text that takes several lines goes on at the column where it
// started, and the whole help shares that column.
func TestHelpHangingIndent(t *testing.T) {
	t.Parallel()
	stdout, _, code := webload(t, nil, "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	_, opts, _ := strings.Cut(stdout, "OPTIONS:\n")
	lines := strings.Split(opts, "\n")
	col := -1
	for i, line := range lines {
		if !strings.HasPrefix(line, "   -c, --concurrent N ") {
			continue
		}
		col = strings.Index(line, "N simulated")
		if next := lines[i+1]; strings.TrimLeft(next, " ") == next || len(next)-len(strings.TrimLeft(next, " ")) != col {
			t.Errorf("the text of -c goes on at another column than %d:\n%s\n%s", col, line, next)
		}
	}
	if col < 0 {
		t.Fatalf("no line for -c in the help:\n%s", opts)
	}
	if i := strings.Index(opts, "       --rate R "); i < 0 || !strings.HasPrefix(opts[i+col:], "open model") {
		t.Errorf("--rate's text does not start at column %d:\n%s", col, opts)
	}
}

func TestHangingWrap(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                 string
		text                 string
		first, indent, width int
		want                 string
	}{
		{"fits", "one two", 5, 5, 20, "one two"},
		{"breaks at a space", "one two three", 0, 2, 8, "one two\n  three"},
		{"first line starts further", "one two three", 10, 0, 17, "one two\nthree"},
		{"a word longer than the line stays whole", "a verylongword b", 0, 0, 5, "a\nverylongword\nb"},
		{"runes, not bytes", "éé éé", 0, 0, 5, "éé éé"},
		{"empty", "  ", 0, 0, 10, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := hangingWrap(tc.text, tc.first, tc.indent, tc.width); got != tc.want {
				t.Errorf("hangingWrap(%q, %d, %d, %d) = %q, want %q", tc.text, tc.first, tc.indent, tc.width, got, tc.want)
			}
		})
	}
}

// TestHelpTakesTheTerminalsWidth: on a terminal, the help is as wide as the terminal, up to 100.
func TestHelpTakesTheTerminalsWidth(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cols uint16
		want int
	}{{140, 100}, {64, 64}} {
		t.Run(strconv.Itoa(int(tc.cols)), func(t *testing.T) {
			t.Parallel()
			out, _ := onTerminal(t, tc.cols, nil, "--help")
			width, line := widestLine(out)
			if width > tc.want || width < tc.want-8 {
				t.Errorf("widest line %d runes on a terminal %d wide, want at most %d and close to it:\n%s", width, tc.cols, tc.want, line)
			}
		})
	}
}
