package urls

import (
	"fmt"
	"strings"
)

// importMaxJoin bounds how many physical lines one quoted field may span, so a stray
// quote cannot swallow the rest of a file as a single row.
const importMaxJoin = 100

// importSplit splits one CSV record. It follows RFC 4180 (quoted fields, "" for a quote)
// but is lenient where exports are sloppy: a quote inside an unquoted field is kept as
// text, and text after a closing quote is appended to the field rather than rejected.
func importSplit(s string, sep byte) []string {
	var fields []string
	for {
		field, rest, more := importField(s, sep)
		fields = append(fields, field)
		if !more {
			return fields
		}
		s = rest
	}
}

// importField cuts the first field off a record; more reports whether a separator
// followed it.
func importField(s string, sep byte) (field, rest string, more bool) {
	t := strings.TrimLeft(s, " ")
	if !strings.HasPrefix(t, `"`) {
		return strings.Cut(s, string(sep))
	}
	var b strings.Builder
	i := 1
	for ; i < len(t); i++ {
		if t[i] == '"' {
			if i+1 < len(t) && t[i+1] == '"' {
				b.WriteByte('"')
				i++
				continue
			}
			i++
			break
		}
		b.WriteByte(t[i])
	}
	tail, rest, more := strings.Cut(t[i:], string(sep))
	b.WriteString(tail)
	return b.String(), rest, more
}

// importOpenQuote reports whether a record ends inside a quoted field, meaning its field
// continues on the next line.
func importOpenQuote(s string, sep byte) bool {
	quoted, atStart := false, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '"':
			if i+1 < len(s) && s[i+1] == '"' {
				i++
			} else {
				quoted = false
			}
		case !quoted && c == '"' && atStart:
			quoted = true
		case c == sep:
			atStart = true
			continue
		case c == ' ' && atStart:
			continue
		}
		atStart = false
	}
	return quoted
}

// readTable reads an analytics export or a generic CSV file: everything up to the header,
// then one row per record.
func (im *importer) readTable(src *importLines, st *importFile, format string) error {
	lay, err := im.findHeader(src, st, format)
	if err != nil {
		return err
	}
	// GA4 and Universal Analytics append more tables (by day, by user type) after a blank
	// line; their pages table ends there.
	stopAtBlank := format == "ga4" || format == "ua"
	seenData := false
	for st.err == nil {
		line, ok := src.next()
		if !ok {
			return nil
		}
		if strings.HasPrefix(strings.TrimLeft(line.text, " \t"), "#") {
			continue // notes some exports put between rows; no URL starts with '#'
		}
		text := line.text
		for joined := 0; importOpenQuote(text, lay.sep) && joined < importMaxJoin && len(text) < importMaxLine; joined++ {
			more, ok := src.next()
			if !ok {
				break
			}
			text += "\n" + more.text
			line.long = line.long || more.long
		}
		fields := importSplit(text, lay.sep)
		if importBlankRecord(fields) {
			if stopAtBlank && seenData {
				return nil
			}
			continue
		}
		seenData = true
		st.read++
		if line.long {
			im.bad(st, line.num, fmt.Errorf("line longer than %d bytes", importMaxLine))
			continue
		}
		im.tableRow(st, line.num, lay, fields)
	}
	return nil
}

// importBlankRecord reports a record with no text at all, such as "" or ",,,".
func importBlankRecord(fields []string) bool {
	for _, f := range fields {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// scanHeaderCandidates feeds visit every line that could be a table header, split with the
// separator it uses, and whether a "#" preamble came before it. Blank, comment and Excel's
// "sep=" lines are skipped, and at most importHeaderSearch candidates are looked at; visit
// returns true to stop. findHeader and detect share it so they look at the same lines.
func scanHeaderCandidates(next func() (importLine, bool), visit func(fields []string, sep byte, preamble bool) bool) {
	var sep byte
	preamble := false
	for candidates := 0; candidates < importHeaderSearch; {
		line, ok := next()
		if !ok {
			return
		}
		t := strings.TrimSpace(line.text)
		switch {
		case t == "":
			continue
		case t[0] == '#':
			preamble = true
			continue
		}
		if s, ok := importSepLine(t); ok {
			sep = s
			continue
		}
		candidates++
		s := sep
		if s == 0 {
			s = importSeparator(line.text)
		}
		if visit(importSplit(line.text, s), s, preamble) {
			return
		}
	}
}

// findHeader consumes lines up to and including the table's header. Comment lines, blank
// lines, Excel's "sep=" line and up to importHeaderSearch other lines may come first.
func (im *importer) findHeader(src *importLines, st *importFile, format string) (importLayout, error) {
	var first []string
	var found importLayout
	ok := false
	scanHeaderCandidates(src.next, func(fields []string, sep byte, preamble bool) bool {
		if first == nil {
			first = fields
		}
		found, ok = im.layout(format, fields, sep, preamble, false)
		return ok
	})
	if ok {
		return found, nil
	}
	if src.err != nil {
		return importLayout{}, &LineError{File: st.name, Err: fmt.Errorf("read: %w", src.err)}
	}
	if first == nil {
		return importLayout{}, st.noRows()
	}
	return importLayout{}, &LineError{File: st.name, Err: fmt.Errorf("%s (headers found: %s)", im.wantHeader(format), importQuoteList(first))}
}

// wantHeader describes the header a format needs, for the error when none is found.
func (im *importer) wantHeader(format string) string {
	switch {
	case im.opt.URLColumn != "" && im.opt.CountColumn != "":
		return fmt.Sprintf("no header with columns %q and %q", im.opt.URLColumn, im.opt.CountColumn)
	case im.opt.URLColumn != "":
		return fmt.Sprintf("no header with column %q", im.opt.URLColumn)
	case im.opt.CountColumn != "":
		return fmt.Sprintf("no header with column %q and a %s page column", im.opt.CountColumn, format)
	}
	switch format {
	case "ga4":
		return `no ga4 header: want a "Page path and screen class", "Page path", "Page path + query string" or "Page location" column and a "Views" column`
	case "ua":
		return `no ua header: want "Page" and "Pageviews" columns`
	case "yandex":
		return `no yandex header: want a page column ("Адрес страницы", "URL", "Page", "Address") and a "Просмотры", "Pageviews", "Визиты" or "Visits" column`
	default:
		return `no matomo header: want a "label" or "url" column and an "nb_hits" or "nb_visits" column`
	}
}

// importQuoteList formats header cells for messages.
func importQuoteList(cells []string) string {
	q := make([]string, len(cells))
	for i, c := range cells {
		q[i] = fmt.Sprintf("%q", strings.TrimSpace(c))
	}
	return strings.Join(q, ", ")
}

// tableRow turns one data row into a count for a URL, or a skip or a bad row.
func (im *importer) tableRow(st *importFile, num int, lay importLayout, fields []string) {
	if len(fields) < lay.width {
		im.bad(st, num, fmt.Errorf("want %d fields, got %d", lay.width, len(fields)))
		return
	}
	var raw string
	switch {
	case lay.url >= 0 && lay.label >= 0 && strings.TrimSpace(fields[lay.url]) == "":
		// Matomo leaves url empty on folder rows of its page tree, whose counts add up
		// the pages below them.
		if importTotalRow(fields[lay.label]) == "" {
			st.skip(importSkipAggregate)
			return
		}
		raw = fields[lay.label]
	case lay.url >= 0:
		raw = fields[lay.url]
	default:
		raw = fields[lay.label]
	}
	if reason := importTotalRow(raw); reason != "" && !(reason == importSkipTotal && lay.format == "csv") {
		st.skip(reason)
		return
	}
	if lay.url < 0 {
		raw = importMatomoLabel(raw)
	}
	count := int64(1)
	if lay.count >= 0 {
		n, err := parseImportCount(fields[lay.count])
		if err != nil {
			im.bad(st, num, fmt.Errorf("bad count: %w", err))
			return
		}
		count = n
	}
	if skip := im.pathSkip(strings.TrimSpace(raw), "", false); skip != "" {
		st.skip(skip)
		return
	}
	im.take(st, num, "GET", raw, count)
}

// importTotalRow recognises rows that are not pages: totals ("Итого и средние", "Total and
// averages", an empty page cell as Universal Analytics writes it) and buckets that lump
// many pages together ("(other)" in GA4, "Others" in Matomo). It returns the skip reason.
func importTotalRow(cell string) string {
	c := importHeaderName(cell)
	switch {
	case c == "":
		return importSkipTotal
	case strings.HasPrefix(c, "/") || strings.Contains(c, "://"):
		return ""
	}
	for _, p := range []string{"total", "grand total", "итого", "всего"} {
		if strings.HasPrefix(c, p) {
			return importSkipTotal
		}
	}
	switch c {
	case "(other)", "(not set)", "others", "other", "другие", "прочее":
		return importSkipAggregate
	}
	return ""
}

// importMatomoLabel turns a Matomo page label into a path. Labels of the flat report have
// no leading '/' below the top level ("shop/product"), and Matomo names the page at a
// folder's own URL "index" (its action_default_name setting), so "/index" is "/" and
// "shop/index" is "/shop/".
func importMatomoLabel(label string) string {
	p := strings.TrimSpace(label)
	if strings.Contains(p, "://") {
		return p
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if p == "/index" || strings.HasSuffix(p, "/index") {
		p = strings.TrimSuffix(p, "index")
	}
	return p
}
