package urls

import (
	"errors"
	"fmt"
	"strings"
)

// newImporter checks the options once, before any file is opened, so a typo in a flag is
// reported before a long log is read.
func newImporter(opt ImportOptions) (*importer, error) {
	im := &importer{opt: opt, tallies: map[importKey]*importTally{}}
	im.sum.Skipped = map[string]int64{}
	im.opt.Format = strings.ToLower(strings.TrimSpace(opt.Format))
	if im.opt.Format != "" && !importKnownFormat(im.opt.Format) {
		return im, fmt.Errorf("unknown format %q: want %s", opt.Format, strings.Join(importFormats, ", "))
	}
	if im.opt.Format == "csv" && opt.URLColumn == "" {
		return im, errors.New("format csv needs --url-column")
	}
	if opt.Base != "" {
		b, err := parseImportBase(opt.Base)
		if err != nil {
			return im, err
		}
		im.base = &b
	}
	if opt.Host != "" {
		h, err := parseImportHost(opt.Host)
		if err != nil {
			return im, err
		}
		im.host = &h
	}
	var err error
	if im.include, err = compileImportPatterns("--include", opt.Include); err != nil {
		return im, err
	}
	if im.exclude, err = compileImportPatterns("--exclude", opt.Exclude); err != nil {
		return im, err
	}
	im.opt.Status = nil // a copy, normalised, so the caller's slice is left alone
	for _, s := range opt.Status {
		rule := strings.ToLower(strings.TrimSpace(s))
		if !importStatusRule(rule) {
			return im, fmt.Errorf("bad --status %q: want a class such as 2xx or a code such as 200", s)
		}
		im.opt.Status = append(im.opt.Status, rule)
	}
	if len(opt.Status) == 0 {
		im.opt.Status = []string{"2xx", "3xx"}
	}
	methods := opt.Methods
	if len(methods) == 0 {
		methods = []string{"GET", "HEAD"}
	}
	im.methods = map[string]bool{}
	for _, m := range methods {
		u := strings.ToUpper(strings.TrimSpace(m))
		// The URL file grammar knows only these methods, so no other could be written.
		if methodAt(u) != u || u == "" {
			return im, fmt.Errorf("bad --methods %q: want GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS", m)
		}
		im.methods[u] = true
	}
	return im, nil
}

// importKnownFormat reports whether f names a format, so a typo fails before any reading.
func importKnownFormat(f string) bool {
	for _, k := range importFormats {
		if f == k {
			return true
		}
	}
	return false
}

// importStatusRule accepts "2xx" (classes 1 to 5) and three-digit codes.
func importStatusRule(s string) bool {
	if len(s) != 3 || s[0] < '1' || s[0] > '5' {
		return false
	}
	return s[1:] == "xx" || importDigits(s[1:])
}

// statusWanted matches a logged status against --status.
func (im *importer) statusWanted(code string) bool {
	for _, rule := range im.opt.Status {
		if rule[1:] == "xx" && code[0] == rule[0] || rule == code {
			return true
		}
	}
	return false
}
