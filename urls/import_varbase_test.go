package urls

import (
	"strings"
	"testing"
)

// TestImportVariableBase: a base that is a variable is written as it is, so the list follows
// SITE at run time, and the list reads back with SITE set.
func TestImportVariableBase(t *testing.T) {
	t.Parallel()
	const input = "Page,Views\n/a,5\nhttps://shop.example/b?q=$x,4\n"
	tests := []struct {
		base string
		want []string
	}{
		{"$(SITE)", []string{"$(SITE)/a", "$(SITE)/b?q=%24x"}},
		{"${SITE}", []string{"${SITE}/a", "${SITE}/b?q=%24x"}},
		{"$SITE", []string{"$SITE/a", "$SITE/b?q=%24x"}},
		{"$(SITE)/staging/", []string{"$(SITE)/staging/a", "$(SITE)/staging/b?q=%24x"}},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			t.Parallel()
			got, _, err := ImportReader(strings.NewReader(input), "export.csv", ImportOptions{Base: tt.base, URLColumn: "Page", CountColumn: "Views"})
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, e := range got {
				lines = append(lines, e.URL)
			}
			if strings.Join(lines, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("URLs %q, want %q", lines, tt.want)
			}
			var b strings.Builder
			if err := WriteEntries(&b, got); err != nil {
				t.Fatal(err)
			}
			env := func(k string) (string, bool) { return "http://127.0.0.1:8102", k == "SITE" }
			targets, err := Parse(strings.NewReader(b.String()), "urls.txt", ".", Options{Getenv: env})
			if err != nil {
				t.Fatalf("the list does not read back: %v\n%s", err, b.String())
			}
			if !strings.HasPrefix(targets[0].URL, "http://127.0.0.1:8102/") || !strings.HasSuffix(targets[1].URL, "/b?q=%24x") {
				t.Errorf("read back as %q and %q", targets[0].URL, targets[1].URL)
			}
		})
	}
}

func TestImportBadVariableBase(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"$(SITE", "$(SITE)x", "http://$(HOST):8080", "$(SITE)?x=1", "$()", "$(SITE)#x", "$(SI TE)"} {
		_, _, err := ImportReader(strings.NewReader("Page,Views\n/a,5\n"), "export.csv", ImportOptions{Base: base, URLColumn: "Page", CountColumn: "Views"})
		if err == nil || !strings.HasPrefix(err.Error(), "bad --base ") {
			t.Errorf("--base %q: error %v", base, err)
		}
	}
}

// FuzzImportVariableBase holds the variable base to its promise on any log: every URL is
// "$(SITE)" and a rest that SITE alone turns into the URL a literal base would give, so no
// byte of the input can add a reference of its own.
func FuzzImportVariableBase(f *testing.F) {
	addImportSeeds(f, []string{"access.log", "access_common.log"}, 1)
	f.Add([]byte(`::1 - - [10/Oct/2026:13:55:36 +0000] "GET /a$(X)?b=${Y}&c=$Z HTTP/1.1" 200 0 "-" "-"`+"\n"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, _ uint8) {
		opt := ImportOptions{Format: "log", Top: -1, Base: "$(SITE)"}
		entries, _, err := ImportReader(strings.NewReader(string(data)), "fuzz", opt)
		if err != nil {
			return
		}
		opt.Base = testBase
		literal, _, err := ImportReader(strings.NewReader(string(data)), "fuzz", opt)
		if err != nil || len(literal) != len(entries) {
			t.Fatalf("the literal base gives %d entries (%v), the variable %d", len(literal), err, len(entries))
		}
		env := func(k string) (string, bool) { return testBase, k == "SITE" }
		for i, e := range entries {
			tg, err := ParseLine(e.URL, Options{Getenv: env})
			if !strings.HasPrefix(e.URL, "$(SITE)/") || err != nil || tg.URL != literal[i].URL {
				t.Fatalf("%q reads as %q (%v), want %q", e.URL, tg.URL, err, literal[i].URL)
			}
		}
	})
}
