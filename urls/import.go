package urls

import (
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strings"
)

// ImportOptions say how to read and filter the input. The zero value detects the format,
// keeps the 50 most visited pages and, for access logs, counts successful GET and HEAD
// requests of pages by people.
type ImportOptions struct {
	// Format is "" to detect it from the content, or one of ga4, ua, yandex, matomo, csv
	// and log. Detection cannot mix formats: files of different formats are refused.
	Format string
	// URLColumn names the URL or path column of a generic CSV file (case-insensitive).
	// Given with Format "", it selects the csv format; given with an analytics format,
	// it overrides that format's choice of column.
	URLColumn string
	// CountColumn names the count column the same way; without one, in the csv format,
	// each row counts once.
	CountColumn string
	// Base is the site under test, such as http://127.0.0.1:8080. Paths are appended to
	// it; full URLs keep their path and query but take its scheme and host. A path in Base
	// is put before every path ("http://h/staging" turns "/p" into "http://h/staging/p").
	// A Base that starts with a variable ("$(SITE)", "$(SITE)/staging") is kept as written,
	// so the list follows the variable when it runs.
	Base string
	// Host keeps only rows whose URL is on this host, by the rule of HostPattern (with a port
	// only if Host has one; a URL is accepted too). It applies before the rewrite to Base, and
	// not to path-only rows.
	Host string
	// Status lists the statuses to count in access logs, as classes ("2xx") or codes
	// ("200"); nil means 2xx and 3xx, the requests that served a page or redirected to one.
	Status []string
	// Methods lists the methods to count in access logs; nil means GET and HEAD, because
	// replaying POSTs without their bodies is rarely what a load test wants.
	Methods []string
	// IncludeAssets keeps static files in access logs. Without it a request is skipped when
	// the line logs the response's content type (a quoted media type after the user agent, as
	// nginx writes "$sent_http_content_type") and it is a style, script, image, font, audio,
	// video, WebAssembly or manifest type; when no type is logged (the common and combined
	// formats), by its path, in any case, query ignored: under /static/, /assets/,
	// /_next/static/, /_nuxt/, /wp-content/, /wp-includes/, /resources/, /skins/,
	// /w/resources/ or /w/skins/; named load.php (MediaWiki's style and script bundles),
	// favicon.ico, robots.txt, apple-touch-icon.png or browserconfig.xml; or ending in .css
	// .js .mjs .map .png .jpg .jpeg .gif .svg .ico .webp .avif .bmp .tif .tiff .woff .woff2
	// .ttf .otf .eot .mp4 .webm .mp3 .ogg .wav or .webmanifest. Replaying them measures the
	// file server, not the application.
	IncludeAssets bool
	// Include keeps only the rows whose path and query (a full URL without its scheme and
	// host, before StripQuery and DropParams) match one of these regular expressions (Go
	// syntax, unanchored). A row it matches is kept even if it is an asset.
	Include []string
	// Exclude drops the rows whose path and query match one of these, after every other
	// filter: it wins over Include.
	Exclude []string
	// IncludeBots keeps requests from obvious bots in access logs. Without it, user agents
	// containing bot, crawler, spider, slurp, facebookexternalhit, curl, wget,
	// python-requests, python-urllib, go-http-client, headlesschrome or scrapy (in any
	// case) are skipped.
	IncludeBots bool
	// StripQuery drops query strings, merging the pages that differ only in them.
	StripQuery bool
	// DropParams drops these query parameters (such as session ids) and keeps the others
	// in their order. Names match case-insensitively; "utm_*" matches by prefix.
	DropParams []string
	// Top keeps the N most visited entries: 0 means 50, a negative number means all.
	Top int
	// MinCount drops entries counted fewer times.
	MinCount int64
}

// Entry is one page and how often it was visited.
type Entry struct {
	// Method is GET for analytics exports; access logs keep the logged method.
	Method string
	// URL is absolute and in the form ParseLine returns, so it can be written to a URL
	// file as it is; with a variable Base it starts with that variable ("$(SITE)/p").
	URL string
	// Count is the visits, summed over the rows and files that gave this method and URL.
	Count int64
}

// ImportSummary tells what happened to the input, so users can see what the list leaves
// out and why.
type ImportSummary struct {
	// Format is the format detected or given.
	Format string
	// RowsRead counts data rows (or log lines) read, headers and comments excluded.
	RowsRead int64
	// Skipped maps a reason to the rows it dropped: "status", "method", "bot", one
	// "asset: RULE" per asset rule ("asset: load.php", "asset: *.css", "asset: under
	// /static/", "asset: content type text/css"), "no --include match", one "--exclude
	// REGEX" per pattern, "host", "total" (totals rows), "aggregate" ("(other)", folder rows), "zero count",
	// "unreadable" (the rows of BadRows and beyond), "below --min-count" and "beyond --top".
	Skipped map[string]int64
	// BadRows quotes the first ten unreadable rows as "FILE:LINE: problem".
	BadRows []string
	// Total is the count of all rows kept by the filters, before --min-count and --top.
	Total int64
	// Kept is the count of the entries returned.
	Kept int64
	// Coverage is Kept / Total * 100: the share of the traffic the list reproduces.
	Coverage float64
}

// Skip reasons, the keys of ImportSummary.Skipped.
const (
	importSkipStatus    = "status"
	importSkipMethod    = "method"
	importSkipBot       = "bot"
	importSkipHost      = "host"
	importSkipTotal     = "total"
	importSkipAggregate = "aggregate"
	importSkipZero      = "zero count"
	importSkipBad       = "unreadable"
	importSkipMinCount  = "below --min-count"
	importSkipTop       = "beyond --top"
)

const (
	importDefaultTop = 50
	importMaxBadRows = 10
	// importPeekLines is how far detection looks ahead: comment blocks of exports are
	// about ten lines, and importHeaderSearch candidate lines may follow.
	importPeekLines = 100
)

// Import reads the named files (".gz" files or gzip content are decompressed) and returns
// the entries, most visited first (ties by URL), merged by method and URL across rows and
// files. Rows it cannot read are reported in the summary; the error is for problems that
// make the result meaningless, such as a file that cannot be read or has no usable rows.
func Import(paths []string, opt ImportOptions) ([]Entry, ImportSummary, error) {
	im, err := newImporter(opt)
	if err != nil {
		return nil, im.sum, err
	}
	if len(paths) == 0 {
		return nil, im.sum, errors.New("no files to import")
	}
	for _, path := range paths {
		f, err := importOpen(path)
		if err != nil {
			return nil, im.sum, err
		}
		err = im.read(f, path)
		f.Close()
		if err != nil {
			return nil, im.sum, err
		}
	}
	return im.finish()
}

// ImportReader is Import for one already-open input; name is used in messages.
func ImportReader(r io.Reader, name string, opt ImportOptions) ([]Entry, ImportSummary, error) {
	im, err := newImporter(opt)
	if err != nil {
		return nil, im.sum, err
	}
	if err := im.read(r, name); err != nil {
		return nil, im.sum, err
	}
	return im.finish()
}

// importer is the state of one Import call; nothing is shared between calls.
type importer struct {
	opt        ImportOptions
	base       *importBase  // nil without --base
	host       *HostPattern // nil without --host
	include    []*regexp.Regexp
	exclude    []*regexp.Regexp
	methods    map[string]bool
	format     string // of the first input, which all others must share
	formatFile string
	tallies    map[importKey]*importTally
	sum        ImportSummary
}

// importKey merges rows: the same page requested with another method is another entry.
type importKey struct{ method, url string }

// importTally is one entry being counted; rows lets the summary say how many rows an
// entry dropped by --min-count or --top stood for.
type importTally struct{ count, rows int64 }

// importFile is what one input contributed, for its "no usable rows" message.
type importFile struct {
	name    string
	read    int64
	kept    int64
	skipped map[string]int64
	err     error // stops the reading loops: errImportNeedBase
}

// skip counts a row dropped for reason; the per-file counts feed its "no usable rows" message.
func (st *importFile) skip(reason string) { st.skipped[reason]++ }

// noRows is the error for an input none of whose rows survived.
func (st *importFile) noRows() error {
	reasons := make([]string, 0, len(st.skipped))
	for r, n := range st.skipped {
		reasons = append(reasons, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(reasons)
	list := strings.Join(reasons, ", ")
	if list == "" {
		list = "none"
	}
	return &LineError{File: st.name, Err: fmt.Errorf("no usable rows (%d read, skipped: %s)", st.read, list)}
}

// read adds one input to the tallies.
func (im *importer) read(r io.Reader, name string) error {
	st := &importFile{name: name, skipped: map[string]int64{}}
	dec, err := importDecode(r)
	if err != nil {
		return &LineError{File: name, Err: err}
	}
	src := newImportLines(dec)
	format := im.opt.Format
	if format == "" && im.opt.URLColumn != "" {
		format = "csv"
	}
	if format == "" {
		head := src.peek(importPeekLines)
		if src.err != nil {
			return &LineError{File: name, Err: fmt.Errorf("read: %w", src.err)}
		}
		if format = im.detect(head); format == "" {
			return importUnknown(name, head, st)
		}
	}
	if im.format == "" {
		im.format, im.formatFile = format, name
		im.sum.Format = format
	} else if format != im.format {
		return &LineError{File: name, Err: fmt.Errorf("format %s differs from %s of %s; import them separately", format, im.format, im.formatFile)}
	}
	if format == "log" {
		im.readLog(src, st)
	} else if err := im.readTable(src, st, format); err != nil {
		return err
	}
	im.sum.RowsRead += st.read
	for r, n := range st.skipped {
		im.sum.Skipped[r] += n
	}
	switch {
	case src.err != nil:
		return &LineError{File: name, Err: fmt.Errorf("read: %w", src.err)}
	case st.err != nil:
		return &LineError{File: name, Err: st.err}
	case st.kept == 0:
		return st.noRows()
	}
	return nil
}

// importUnknown is the error for an input whose format detection could not tell.
func importUnknown(name string, head []importLine, st *importFile) error {
	for _, line := range head {
		if t := strings.TrimSpace(line.text); t != "" && t[0] != '#' {
			return &LineError{File: name, Err: fmt.Errorf("cannot tell the format; give --format (first line: %q)", importClip(t))}
		}
	}
	return st.noRows()
}

// bad counts an unreadable row and quotes the first few.
func (im *importer) bad(st *importFile, line int, err error) {
	st.skip(importSkipBad)
	if len(im.sum.BadRows) < importMaxBadRows {
		im.sum.BadRows = append(im.sum.BadRows, (&LineError{File: st.name, Line: line, Err: err}).Error())
	}
}

// take counts one row's visits for its URL.
func (im *importer) take(st *importFile, line int, method, raw string, count int64) {
	if count == 0 {
		st.skip(importSkipZero)
		return
	}
	u, skip, err := im.resolve(raw)
	switch {
	case errors.Is(err, errImportNeedBase):
		st.err = err
		return
	case err != nil:
		im.bad(st, line, err)
		return
	case skip != "":
		st.skip(skip)
		return
	}
	key := importKey{method, u}
	t := im.tallies[key]
	if t == nil {
		t = &importTally{}
		im.tallies[key] = t
	}
	t.count = importAdd(t.count, count)
	t.rows++
	st.kept++
	im.sum.Total = importAdd(im.sum.Total, count)
}

// importAdd adds counts without wrapping around: a sum past the int64 range would turn
// negative and put the page last instead of first.
func importAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// finish applies --min-count and --top and fills in the totals.
func (im *importer) finish() ([]Entry, ImportSummary, error) {
	type ranked struct {
		Entry
		rows int64
	}
	var all []ranked
	var most int64
	for k, t := range im.tallies {
		most = max(most, t.count)
		if t.count < im.opt.MinCount {
			im.sum.Skipped[importSkipMinCount] += t.rows
			continue
		}
		all = append(all, ranked{Entry{Method: k.method, URL: k.url, Count: t.count}, t.rows})
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.URL != b.URL {
			return a.URL < b.URL
		}
		return a.Method < b.Method
	})
	top := im.opt.Top
	if top == 0 {
		top = importDefaultTop
	}
	if top > 0 && len(all) > top {
		for _, r := range all[top:] {
			im.sum.Skipped[importSkipTop] += r.rows
		}
		all = all[:top]
	}
	entries := make([]Entry, len(all))
	for i, r := range all {
		entries[i] = r.Entry
		im.sum.Kept = importAdd(im.sum.Kept, r.Count)
	}
	if im.sum.Total > 0 {
		im.sum.Coverage = float64(im.sum.Kept) / float64(im.sum.Total) * 100
	}
	if len(entries) == 0 {
		return nil, im.sum, fmt.Errorf("no entries counted at least %d times (the most visited was counted %d times)", im.opt.MinCount, most)
	}
	return entries, im.sum, nil
}
