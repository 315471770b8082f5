package urls

import (
	"bytes"
	"strings"
	"testing"
)

// TestImportRoundTrip writes imported entries the way `webload urls import` does and parses
// the result back: the file must stay a valid URL file with the same requests and weights.
func TestImportRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files []string
		opt   ImportOptions
	}{
		{"ga4", []string{"ga4.csv"}, ImportOptions{}},
		{"ua with queries", []string{"ua.csv"}, ImportOptions{}},
		{"yandex full URLs", []string{"yandex_ru.csv"}, ImportOptions{}},
		{"matomo", []string{"matomo.csv"}, ImportOptions{}},
		{"logs with several methods", []string{"access.log", "access.log.2.gz"}, ImportOptions{Methods: []string{"GET", "HEAD", "POST"}, IncludeAssets: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var paths []string
			for _, f := range tt.files {
				paths = append(paths, fixture(f))
			}
			tt.opt.Base = testBase
			entries, _, err := Import(paths, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			var file bytes.Buffer
			if err := WriteEntries(&file, entries); err != nil {
				t.Fatal(err)
			}
			targets, err := Parse(bytes.NewReader(file.Bytes()), "imported.txt", "", Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, file.String())
			}
			if len(targets) != len(entries) {
				t.Fatalf("%d targets from %d entries:\n%s", len(targets), len(entries), file.String())
			}
			for i, tg := range targets {
				e := entries[i]
				if tg.URL != e.URL || tg.Method != e.Method || tg.Weight != float64(e.Count) || tg.Body != nil {
					t.Errorf("target %d = %s %s weight %v; want %s %s weight %d", i, tg.Method, tg.URL, tg.Weight, e.Method, e.URL, e.Count)
				}
			}
		})
	}
}

// TestImportRoundTripHostileURLs imports pages whose text means something in a URL file:
// variables, blanks before method words, comment markers, body markers. Written and parsed
// back, each must still be the one GET request it was.
func TestImportRoundTripHostileURLs(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		"url\tviews",
		"/price?max=$HOME&min=${X}\t9",
		"/a b POST x=1\t8",
		"/c DELETE\t7",
		"/d <body.json\t6",
		"/e -T text/plain; hi\t5",
		"/f\\$g\t4",
		"/страница?q=привет мир\t3",
		"/h%zz%41\t2",
		`/i"j'k` + "\t1",
	}, "\n")
	entries, sum, err := ImportReader(strings.NewReader(in), "hostile.tsv", ImportOptions{Base: testBase, URLColumn: "url", CountColumn: "views"})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 9 || len(sum.BadRows) != 0 {
		t.Fatalf("entries:\n%sbad rows: %q", entriesText(entries), sum.BadRows)
	}
	var file bytes.Buffer
	if err := WriteEntries(&file, entries); err != nil {
		t.Fatal(err)
	}
	targets, err := Parse(&file, "imported.txt", t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, tg := range targets {
		if tg.URL != entries[i].URL || tg.Method != "GET" || tg.Body != nil || tg.Weight != float64(entries[i].Count) {
			t.Errorf("URL %q parsed as %s %s %q weight %v", entries[i].URL, tg.Method, tg.URL, tg.Body, tg.Weight)
		}
	}
	if want := testBase + "/price?max=%24HOME&min=%24%7BX%7D"; entries[0].URL != want {
		t.Errorf("first URL %q, want %q", entries[0].URL, want)
	}
}
