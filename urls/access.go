package urls

import (
	"errors"
	"os"
	"strings"
)

// AccessRequest is one request of an access log, read and filtered as Import reads logs, for
// readers that take a log's requests one at a time in their order (webload replay) instead of
// counting them.
type AccessRequest struct {
	// At is the logged time in Unix seconds: the common and combined formats log whole seconds.
	At int64
	// Client is the first field of the line, the client's address as the server logged it.
	Client string
	// Agent is the user agent; "" in the common format, which has none.
	Agent string
	// Extra are the fields the line has after the agent, when its format extends the combined
	// one: a logged cookie or header, as logged ("-" for none).
	Extra []string
	// Method is the logged method, upper case.
	Method string
	// URL is absolute, rewritten to ImportOptions.Base as Import would write it.
	URL string
}

// ErrNeedBase is AccessFilter.Line's error for a logged path when no Base was given: without
// one no line of a log of paths can become a URL.
var ErrNeedBase = errImportNeedBase

// AccessFilter reads access-log lines one at a time with Import's filters and URL rewriting:
// Base, Host, Status, Methods, IncludeAssets, Include, Exclude, IncludeBots, StripQuery and
// DropParams of ImportOptions (Format, the CSV columns, Top and MinCount do not apply). It
// keeps no state between lines, so memory does not grow with the log; it is not safe for
// concurrent use.
type AccessFilter struct {
	im *importer
}

// NewAccessFilter checks the options once, as Import does before it reads any file. A Base
// that is a variable ("$(SITE)") is refused: the URLs are sent, not written to a list.
func NewAccessFilter(opt ImportOptions) (*AccessFilter, error) {
	if strings.Contains(opt.Base, "$") {
		return nil, errors.New("bad site: want a URL such as http://127.0.0.1:8080, not a variable")
	}
	im, err := newImporter(opt)
	if err != nil {
		return nil, err
	}
	return &AccessFilter{im: im}, nil
}

// Line reads one line of a log. A request the filters keep comes back with skip "". One they
// drop comes back with the reason, a key of ImportSummary.Skipped ("status", "method", "bot",
// "asset: *.css", "host", ...), or "blank" for an empty line. A line that is no request in the
// common or combined format, or whose target is not a URL or path, is an error, as is a path
// without a Base (ErrNeedBase).
func (f *AccessFilter) Line(text string) (req AccessRequest, skip string, err error) {
	if strings.TrimSpace(text) == "" {
		return req, "blank", nil
	}
	rec, ok := parseAccessLine(text)
	if !ok {
		return req, "", errors.New("not an access log line in the common or combined format")
	}
	im := f.im
	if !im.statusWanted(rec.status) {
		return req, importSkipStatus, nil
	}
	method, target, err := importSplitRequest(rec.request)
	switch {
	case err != nil:
		return req, "", err
	case !im.methods[method]:
		return req, importSkipMethod, nil
	case !im.opt.IncludeBots && importIsBot(rec.agent):
		return req, importSkipBot, nil
	}
	if skip := im.pathSkip(target, rec.ctype, true); skip != "" {
		return req, skip, nil
	}
	u, skip, err := im.resolve(target)
	if err != nil || skip != "" {
		return req, skip, err
	}
	return AccessRequest{At: rec.at, Client: rec.client, Agent: rec.agent, Extra: rec.extra, Method: method, URL: u}, "", nil
}

// LogFile reads one log line by line, plain or gzip (recognised by its content, as Import
// does), holding one line at a time.
type LogFile struct {
	f     *os.File
	lines *importLines
	name  string
}

// OpenLog opens the named log. Errors name the file.
func OpenLog(path string) (*LogFile, error) {
	f, err := importOpen(path)
	if err != nil {
		return nil, err
	}
	dec, err := importDecode(f)
	if err != nil {
		f.Close()
		return nil, &LineError{File: path, Err: err}
	}
	return &LogFile{f: f, lines: newImportLines(dec), name: path}, nil
}

// Next returns the next line without its line ending and its number, counted from 1. A line
// longer than a megabyte comes back cut, with long set. ok is false at the end of the file and
// on a read error, which Err then reports.
func (l *LogFile) Next() (text string, num int, long, ok bool) {
	line, ok := l.lines.next()
	return line.text, line.num, line.long, ok
}

// Err is the first error reading the file met, naming the file; nil at a clean end.
func (l *LogFile) Err() error {
	if l.lines.err != nil {
		return &LineError{File: l.name, Err: l.lines.err}
	}
	return nil
}

// Close closes the file.
func (l *LogFile) Close() error { return l.f.Close() }
