package urls

import (
	"strings"
)

// The column names each export uses, most wanted first. They are compared after
// importHeaderName, so case, quotes and repeated blanks do not matter.
var (
	// GA4 reports name the page by path, path with query, or full location; the full
	// location comes first because only it lets --host pick one site out of several.
	importGA4URL   = []string{"page location", "page path + query string", "page path and screen class", "page path", "pagelocation", "pagepathplusquerystring", "pagepath"}
	importGA4Count = []string{"views", "screenpageviews", "screen page views"}
	importUAURL    = []string{"page"}
	importUACount  = []string{"pageviews"}
	// importUAMarks are columns only Universal Analytics writes next to Page and Pageviews;
	// they tell its export from a Metrica export with English headers.
	importUAMarks = []string{"unique pageviews", "avg. time on page"}
	// Metrica's page column is "Адрес страницы" in Russian and varies in English.
	importYandexURL = []string{"адрес страницы", "url страницы", "page url", "url", "page address", "address", "page", "страница", "адрес"}
	// importYandexURLLevel finds the deepest "URL, ур. N" column of Metrica's tree report
	// when there is no plain page column: the deepest level holds the full address.
	importYandexURLLevel = []string{"адрес страницы", "url", "page url"}
	// Pageviews are preferred over visits: a load test repeats requests, not visits.
	importYandexCount = []string{"просмотры", "pageviews", "page views", "views", "просмотров", "визиты", "visits", "визитов"}
	// Matomo's raw export names metrics by their API names; its translated export uses
	// "Pageviews" for nb_hits and "Unique Pageviews" for nb_visits.
	importMatomoCount = []string{"nb_hits", "nb_visits", "pageviews", "unique pageviews"}
)

// importFormats are the values ImportOptions.Format accepts besides "".
var importFormats = []string{"ga4", "ua", "yandex", "matomo", "csv", "log"}

// importHeaderSearch is how many candidate lines (not blank, not "#" comments) may precede
// the header: exports sometimes put a title or a date range above the table.
const importHeaderSearch = 30

// importLayout says where a table keeps what the import needs.
type importLayout struct {
	format string
	sep    byte
	url    int // the URL or path column; -1 when only a Matomo label exists
	label  int // Matomo's label column, used when there is no url column; -1 otherwise
	count  int // -1 when each row counts once (generic csv without a count column)
	width  int // the fields a data row needs
	header []string
}

// importHeaderName normalises a header cell for comparison.
func importHeaderName(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `"`)
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// importColumn returns the index of the first of want that names occurs in, or -1.
func importColumn(names []string, want ...string) int {
	for _, w := range want {
		for i, n := range names {
			if n == w {
				return i
			}
		}
	}
	return -1
}

// importSeparator picks the field separator of a header line: the most frequent of tab,
// ';' and ',' outside quotes. Ties go to tab, then ';', because those rarely occur inside
// unquoted names while ',' does ("Avg. Time on Page, sec").
func importSeparator(line string) byte {
	counts := map[byte]int{}
	quoted := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"':
			quoted = !quoted
		case !quoted && (c == '\t' || c == ';' || c == ','):
			counts[c]++
		}
	}
	best, n := byte(','), 0
	for _, c := range []byte{'\t', ';', ','} {
		if counts[c] > n {
			best, n = c, counts[c]
		}
	}
	return best
}

// importSepLine recognises Excel's "sep=;" first line, which names the separator.
func importSepLine(text string) (byte, bool) {
	t := strings.TrimSpace(text)
	if len(t) == 5 && strings.EqualFold(t[:4], "sep=") {
		return t[4], true
	}
	return 0, false
}

// layout matches a header line against one format (or, with format "", against each
// analytics format in turn). detecting makes the Universal Analytics match stricter, since
// a bare "Page,Pageviews" header is as likely a Metrica export.
func (im *importer) layout(format string, fields []string, sep byte, preamble, detecting bool) (importLayout, bool) {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = importHeaderName(f)
	}
	formats := []string{format}
	if format == "" {
		formats = []string{"matomo", "ga4", "ua", "yandex"}
	}
	for _, f := range formats {
		lay := importLayout{format: f, sep: sep, url: -1, label: -1, count: -1, header: fields}
		switch f {
		case "csv":
			lay.url = importColumn(names, importHeaderName(im.opt.URLColumn))
		case "ga4":
			lay.url, lay.count = importColumn(names, importGA4URL...), importColumn(names, importGA4Count...)
		case "ua":
			lay.url, lay.count = importColumn(names, importUAURL...), importColumn(names, importUACount...)
			if detecting && !preamble && importColumn(names, importUAMarks...) < 0 {
				continue
			}
		case "yandex":
			lay.url, lay.count = importColumn(names, importYandexURL...), importColumn(names, importYandexCount...)
			if lay.url < 0 {
				lay.url = importLastColumnWithPrefix(names, importYandexURLLevel)
			}
		case "matomo":
			lay.url, lay.label = importColumn(names, "url"), importColumn(names, "label")
			lay.count = importColumn(names, importMatomoCount[:2]...)
			if lay.count < 0 && lay.label >= 0 {
				// Only with a label column: "URL,Pageviews" is a Metrica header.
				lay.count = importColumn(names, importMatomoCount[2:]...)
			}
			if lay.url < 0 && lay.label < 0 {
				continue
			}
		}
		if im.opt.URLColumn != "" {
			lay.url, lay.label = importColumn(names, importHeaderName(im.opt.URLColumn)), -1
		}
		if im.opt.CountColumn != "" {
			lay.count = importColumn(names, importHeaderName(im.opt.CountColumn))
		}
		if lay.url < 0 && lay.label < 0 || lay.count < 0 && (f != "csv" || im.opt.CountColumn != "") {
			continue
		}
		lay.width = max(lay.url, lay.label, lay.count) + 1
		return lay, true
	}
	return importLayout{}, false
}

// importLastColumnWithPrefix returns the rightmost column whose name starts with one of
// prefixes, or -1.
func importLastColumnWithPrefix(names, prefixes []string) int {
	for i := len(names) - 1; i >= 0; i-- {
		for _, p := range prefixes {
			if strings.HasPrefix(names[i], p) {
				return i
			}
		}
	}
	return -1
}

// detect names the format of an input from its first lines: the first line that reads as
// a known export header decides; failing that, the input is an access log when at least
// half of its first non-blank lines parse as log lines. It returns "" when neither holds.
func (im *importer) detect(head []importLine) string {
	i := 0
	next := func() (importLine, bool) {
		if i == len(head) {
			return importLine{}, false
		}
		i++
		return head[i-1], true
	}
	format := ""
	scanHeaderCandidates(next, func(fields []string, sep byte, preamble bool) bool {
		if lay, ok := im.layout("", fields, sep, preamble, true); ok {
			format = lay.format
			return true
		}
		return false
	})
	if format != "" {
		return format
	}
	lines, logs := 0, 0
	for _, line := range head {
		if strings.TrimSpace(line.text) == "" {
			continue
		}
		lines++
		if _, ok := parseAccessLine(line.text); ok {
			logs++
		}
	}
	if logs > 0 && logs*2 >= lines {
		return "log"
	}
	return ""
}
