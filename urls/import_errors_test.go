package urls

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestImportErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files []string
		opt   ImportOptions
		want  string
	}{
		{"missing file", []string{"testdata/import/nope.csv"}, ImportOptions{Base: testBase},
			"testdata/import/nope.csv: no such file or directory"},
		{"unknown format", []string{fixture("ga4.csv")}, ImportOptions{Format: "excel"},
			`unknown format "excel": want ga4, ua, yandex, matomo, csv, log`},
		{"csv without url column", []string{fixture("generic.csv")}, ImportOptions{Format: "csv", Base: testBase},
			"format csv needs --url-column"},
		{"paths without base", []string{fixture("ga4.csv")}, ImportOptions{},
			"testdata/import/ga4.csv: the rows have paths only; give --base URL"},
		{"log without base", []string{fixture("access.log")}, ImportOptions{},
			"testdata/import/access.log: the rows have paths only; give --base URL"},
		{"generic csv without the column", []string{fixture("generic.csv")}, ImportOptions{Base: testBase, URLColumn: "url", CountColumn: "hits"},
			`testdata/import/generic.csv: no header with columns "url" and "hits" (headers found: "path", "hits", "comment")`},
		{"generic csv without the count column", []string{fixture("generic.csv")}, ImportOptions{Base: testBase, Format: "csv", URLColumn: "path", CountColumn: "views"},
			`testdata/import/generic.csv: no header with columns "path" and "views" (headers found: "path", "hits", "comment")`},
		{"format given does not match", []string{fixture("matomo.csv")}, ImportOptions{Base: testBase, Format: "ga4"},
			`testdata/import/matomo.csv: no ga4 header: want a "Page path and screen class", "Page path", "Page path + query string" or "Page location" column and a "Views" column (headers found: "label", "nb_visits", "nb_hits", "sum_time_spent", "entry_nb_visits", "entry_bounce_count", "exit_nb_visits", "avg_time_on_page", "bounce_rate", "exit_rate", "url")`},
		{"formats differ", []string{fixture("ga4.csv"), fixture("yandex_en.csv")}, ImportOptions{Base: testBase},
			"testdata/import/yandex_en.csv: format yandex differs from ga4 of testdata/import/ga4.csv; import them separately"},
		{"no usable rows", []string{fixture("access_common.log")}, ImportOptions{Base: testBase, Status: []string{"5xx"}},
			"testdata/import/access_common.log: no usable rows (4 read, skipped: status 4)"},
		{"no usable rows in a later file", []string{fixture("access.log"), fixture("access_common.log")}, ImportOptions{Base: testBase, Host: "x.example", Methods: []string{"post"}},
			"testdata/import/access_common.log: no usable rows (4 read, skipped: method 4)"},
		{"host filter leaves nothing", []string{fixture("yandex_en.csv")}, ImportOptions{Base: testBase, Host: "other.example"},
			"testdata/import/yandex_en.csv: no usable rows (3 read, skipped: host 2, total 1)"},
		{"min count leaves nothing", []string{fixture("yandex_en.csv")}, ImportOptions{Base: testBase, MinCount: 5000},
			"no entries counted at least 5000 times (the most visited was counted 1000 times)"},
		{"bad base", []string{fixture("ga4.csv")}, ImportOptions{Base: "ftp://x/"},
			`bad --base "ftp://x/": unsupported scheme "ftp"`},
		{"base with query", []string{fixture("ga4.csv")}, ImportOptions{Base: "http://x/?a=1"},
			`bad --base "http://x/?a=1": want http://host[:port][/path] without query or fragment`},
		{"bad host", []string{fixture("ga4.csv")}, ImportOptions{Base: testBase, Host: "a b"},
			`bad --host "a b": want a host name such as example.com`},
		{"bad status", []string{fixture("access.log")}, ImportOptions{Base: testBase, Status: []string{"2x"}},
			`bad --status "2x": want a class such as 2xx or a code such as 200`},
		{"bad method", []string{fixture("access.log")}, ImportOptions{Base: testBase, Methods: []string{"PROPFIND"}},
			`bad --methods "PROPFIND": want GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS`},
		{"no files", nil, ImportOptions{Base: testBase}, "no files to import"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _, err := Import(tt.files, tt.opt)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v\nwant  %s", err, tt.want)
			}
			if got != nil {
				t.Errorf("entries returned with an error: %v", got)
			}
		})
	}
}

func TestImportReaderErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, want string }{
		{"empty", "", "in: no usable rows (0 read, skipped: none)"},
		{"comments only", "# Pages\n# 20261101-20261130\n\n", "in: no usable rows (0 read, skipped: none)"},
		{"unknown", "hello,world\n1,2\n", `in: cannot tell the format; give --format (first line: "hello,world")`},
		{"header only", "Page path,Views\n", "in: no usable rows (0 read, skipped: none)"},
		{"totals only", "Адрес страницы;Просмотры\nИтого и средние;10\n", "in: no usable rows (1 read, skipped: total 1)"},
		{"all rows unreadable", "Page path,Views\n/a,x\n/b\n", "in: no usable rows (2 read, skipped: unreadable 2)"},
		{"broken gzip", "\x1f\x8bnot really gzip", "in: gzip: invalid header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := ImportReader(strings.NewReader(tt.text), "in", ImportOptions{Base: testBase})
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v\nwant  %s", err, tt.want)
			}
		})
	}
}

// TestImportErrorsUnwrap checks that errors keep their cause for errors.Is and name the file
// as a *LineError.
func TestImportErrorsUnwrap(t *testing.T) {
	t.Parallel()
	_, _, err := Import([]string{filepath.Join(t.TempDir(), "gone.log")}, ImportOptions{Base: testBase})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v does not wrap fs.ErrNotExist", err)
	}
	var le *LineError
	if !errors.As(err, &le) || !strings.HasSuffix(le.File, "gone.log") {
		t.Errorf("missing file: %v is not a *LineError naming the file", err)
	}
	_, _, err = Import([]string{t.TempDir()}, ImportOptions{Base: testBase})
	if err == nil || !strings.Contains(err.Error(), ": read: ") {
		t.Errorf("directory: %v", err)
	}
}
