package urls

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// importFuzzOptions turns a fuzzed byte into options, so one corpus covers detection, each
// named format and the URL rewriting switches.
func importFuzzOptions(mode uint8, formats []string) ImportOptions {
	opt := ImportOptions{Base: testBase, Format: formats[int(mode)%len(formats)], Top: -1}
	if opt.Format == "csv" {
		opt.URLColumn, opt.CountColumn = "url", "count"
	}
	if mode&0x10 != 0 {
		opt.StripQuery = true
	}
	if mode&0x20 != 0 {
		opt.DropParams = []string{"sid", "utm_*"}
	}
	if mode&0x40 != 0 {
		opt.Host = "example.com"
	}
	if mode&0x80 != 0 {
		opt.IncludeAssets, opt.IncludeBots = true, true
		opt.Methods = []string{"GET", "POST", "DELETE"}
		opt.Status = []string{"2xx", "404"}
	}
	return opt
}

// checkImportResult holds ImportReader to its promises on any input: an error or entries,
// never both; every entry a positive count for a URL that a URL file can carry; entries
// unique and in order; and a summary that adds up.
func checkImportResult(t *testing.T, entries []Entry, sum ImportSummary, err error) {
	t.Helper()
	if err != nil {
		if entries != nil {
			t.Fatalf("entries with error %v", err)
		}
		if err.Error() == "" {
			t.Fatal("empty error message")
		}
		return
	}
	if len(entries) == 0 {
		t.Fatal("no entries and no error")
	}
	seen := map[importKey]bool{}
	var kept int64
	for i, e := range entries {
		if e.Count <= 0 {
			t.Fatalf("entry %+v has count %d", e, e.Count)
		}
		tg, perr := ParseLine(e.URL, Options{})
		if perr != nil || tg.URL != e.URL || tg.Method != "GET" || tg.Body != nil {
			t.Fatalf("entry URL %q does not parse as itself: %+v, %v", e.URL, tg, perr)
		}
		if methodAt(e.Method) != e.Method || e.Method == "" {
			t.Fatalf("entry %+v has a method a URL file cannot carry", e)
		}
		if !strings.HasPrefix(e.URL, testBase+"/") {
			t.Fatalf("entry URL %q is not on the base", e.URL)
		}
		k := importKey{e.Method, e.URL}
		if seen[k] {
			t.Fatalf("entry %+v appears twice", e)
		}
		seen[k] = true
		if i > 0 && entries[i-1].Count < e.Count {
			t.Fatalf("entries out of order at %d", i)
		}
		kept = importAdd(kept, e.Count)
	}
	if sum.Kept != kept || sum.Kept > sum.Total || sum.Coverage <= 0 || sum.Coverage > 100 {
		t.Fatalf("summary kept %d of %d (%v%%), entries add up to %d", sum.Kept, sum.Total, sum.Coverage, kept)
	}
	if len(sum.BadRows) > importMaxBadRows {
		t.Fatalf("%d bad rows quoted", len(sum.BadRows))
	}
	for _, b := range sum.BadRows {
		if !strings.HasPrefix(b, "fuzz:") {
			t.Fatalf("bad row %q does not name the input", b)
		}
	}
}

// addImportSeeds seeds a fuzz target with fixtures.
func addImportSeeds(f *testing.F, names []string, modes int) {
	for _, name := range names {
		data, err := os.ReadFile(fixture(name))
		if err != nil {
			f.Fatal(err)
		}
		for mode := 0; mode < modes; mode++ {
			f.Add(data, uint8(mode))
		}
	}
}

// FuzzImportCSV feeds arbitrary bytes to the export readers.
func FuzzImportCSV(f *testing.F) {
	formats := []string{"", "ga4", "ua", "yandex", "matomo", "csv"}
	addImportSeeds(f, []string{"ga4.csv", "ua.csv", "yandex_ru.csv", "yandex_ru.tsv", "yandex_en.csv", "matomo.csv", "matomo_labels.csv"}, len(formats))
	f.Add([]byte("url;count\n/a?sid=1&b=2;\"1 234\"\nhttp://example.com/x#y;1.000\n"), uint8(5|0x20|0x40))
	f.Add([]byte("sep=\t\nPage path\tViews\n\"/a\nb\"\t3\n"), uint8(0))
	f.Add([]byte{0xff, 0xfe, 'P', 0, 'a', 0}, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		entries, sum, err := ImportReader(bytes.NewReader(data), "fuzz", importFuzzOptions(mode, formats))
		checkImportResult(t, entries, sum, err)
	})
}

// FuzzImportLog feeds arbitrary bytes to the access log reader.
func FuzzImportLog(f *testing.F) {
	formats := []string{"", "log"}
	addImportSeeds(f, []string{"access.log", "access_common.log"}, 2)
	gz, err := os.ReadFile(fixture("access.log.2.gz"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(gz, uint8(0))
	f.Add([]byte(`::1 - - [10/Oct/2026:13:55:36 +0000] "DELETE http://example.com/a?sid=1 HTTP/1.1" 404 0 "-" "-"`+"\n"), uint8(1|0x80|0x20|0x40))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		entries, sum, err := ImportReader(bytes.NewReader(data), "fuzz", importFuzzOptions(mode, formats))
		checkImportResult(t, entries, sum, err)
	})
}
