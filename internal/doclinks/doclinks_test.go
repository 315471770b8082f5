package doclinks

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSlug: headings give GitHub's anchors: lower case, spaces to "-", punctuation dropped,
// a code span's text kept, letters of any script kept.
func TestSlug(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ heading, want string }{
		{"Speed", "speed"},
		{"What the database did: `--db`", "what-the-database-did---db"},
		{"Right answers: checks, content, and one URL list for every stack", "right-answers-checks-content-and-one-url-list-for-every-stack"},
		{"Browser-like visits: page resources, sessions, redirects, compression, TLS", "browser-like-visits-page-resources-sessions-redirects-compression-tls"},
		{"I want to…", "i-want-to"},
		{"siege's habits, progress and stopping", "sieges-habits-progress-and-stopping"},
		{"webload urls import", "webload-urls-import"},
		{"error_rate and p(95)", "error_rate-and-p95"},
		{"Über die Größe", "über-die-größe"},
		{"A [linked](other.md#x) word", "a-linked-word"},
		{"C++ & Go", "c--go"},
	} {
		t.Run(tc.heading, func(t *testing.T) {
			t.Parallel()
			if got := Slug(tc.heading); got != tc.want {
				t.Errorf("Slug(%q) = %q, want %q", tc.heading, got, tc.want)
			}
		})
	}
}

// TestAnchors: a repeated heading gets "-1", "-2"; lines in code blocks are no headings.
func TestAnchors(t *testing.T) {
	t.Parallel()
	md := "# Title\n\n## Usage\n\n```sh\n# a comment in a script\n```\n\n## Usage\n\n### Usage ###\n\n#NoSpace\n"
	var got []string
	for a := range Anchors(md) {
		got = append(got, a)
	}
	slices.Sort(got)
	want := []string{"title", "usage", "usage-1", "usage-2"}
	if !slices.Equal(got, want) {
		t.Errorf("anchors %q, want %q", got, want)
	}
}

// TestLinks: inline links and images, reference definitions and text spanning lines count;
// code blocks, code spans and escaped brackets do not.
func TestLinks(t *testing.T) {
	t.Parallel()
	md := "See [a](a.md) and ![img](img/x.png \"title\").\n" +
		"A link whose text [spans\ntwo lines](b.md#part).\n" +
		"`[not](code.md)` and \\[S|M|H\\](not-a-link)\n" +
		"```\n[not](in-a-block.md)\n```\n" +
		"[ref]: c.md\n" +
		"[`examples/login/`](examples/login) and [site](https://example.com/)\n"
	var got []Link
	got = append(got, Links(md)...)
	want := []Link{{1, "a.md"}, {1, "img/x.png"}, {3, "b.md#part"}, {8, "c.md"}, {9, "examples/login"}, {9, "https://example.com/"}}
	if !slices.Equal(got, want) {
		t.Errorf("links %v, want %v", got, want)
	}
}

// TestCheck: in a small tree of real files, each kind of broken link is found once, with its
// file and line, and the good ones pass.
func TestCheck(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		path := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# Tool\n\n## Exit codes\n\n"+
		"[ok](docs/page.md) [ok](docs/page.md#a-section) [ok](#exit-codes) [ok](examples) [ok](docs/page%20two.md)\n"+
		"[bad](docs/missing.md)\n"+
		"[bad](docs/page.md#no-such-section)\n"+
		"[bad](#no-such-heading)\n"+
		"[bad](../outside.md)\n"+
		"[bad](examples/run.sh#x)\n"+
		"[external](https://example.com/nowhere#x)\n")
	write("docs/page.md", "# Page\n\n## A section\n\nBack to the [README](../README.md#tool).\n")
	write("docs/page two.md", "# Two\n")
	write("examples/run.sh", "true\n")
	problems, err := Check(root, []string{"README.md", "docs/page.md"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	want := []string{
		"README.md:6: docs/missing.md: no such file or folder",
		"README.md:7: docs/page.md#no-such-section: no heading of docs/page.md has this anchor",
		"README.md:8: #no-such-heading: no heading of README.md has this anchor",
		"README.md:9: ../outside.md: leads out of the repository",
		"README.md:10: examples/run.sh#x: a #fragment on a file that is not Markdown",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%q\nwant:\n%q", got, want)
	}
}
