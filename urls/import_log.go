package urls

import (
	"errors"
	"strings"
	"time"
)

// importAccessLine holds the parts of an access log line that the import uses.
type importAccessLine struct {
	client  string // the first field: the client's address as logged
	at      int64  // the logged time in Unix seconds: the formats log whole seconds
	request string // the request line as logged, escapes undone: "GET /p?x=1 HTTP/1.1"
	status  string // three digits, or "-" when the server logged none
	agent   string // "" in the common format, which has no user agent
	ctype   string // the response's Content-Type when logged after the agent, else ""
	// extra are the fields logged after the agent, quoted or not, as a log_format or
	// LogFormat that extends the combined one writes them (a cookie, a header, a time).
	extra []string
}

// parseAccessLine reads one line of the NCSA common or combined format that nginx and
// Apache write by default:
//
//	host ident user [10/Oct/2026:13:55:36 +0000] "GET /p HTTP/1.1" 200 2326 "referer" "agent"
//
// Fields after the user agent (nginx setups often append timings) are ignored. It is
// written by hand rather than as a regular expression because logs run to millions of
// lines.
func parseAccessLine(line string) (importAccessLine, bool) {
	var rec importAccessLine
	s := line
	for k := range 3 { // host, ident, user
		i := strings.IndexByte(s, ' ')
		if i <= 0 {
			return rec, false
		}
		if k == 0 {
			rec.client = s[:i]
		}
		s = s[i+1:]
	}
	if !strings.HasPrefix(s, "[") {
		return rec, false
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return rec, false
	}
	at, err := time.Parse("02/Jan/2006:15:04:05 -0700", s[1:end])
	if err != nil {
		return rec, false
	}
	rec.at = at.Unix()
	s = strings.TrimPrefix(s[end+1:], " ")
	var ok bool
	if rec.request, s, ok = importQuoted(s); !ok {
		return rec, false
	}
	fields := strings.SplitN(strings.TrimPrefix(s, " "), " ", 3)
	if len(fields) < 2 || !importStatusField(fields[0]) || !importBytesField(fields[1]) {
		return rec, false
	}
	if len(fields) == 3 {
		// Combined format: "referer" "agent". A line that has more but not in this shape
		// is still a usable common-format line.
		if _, rest, ok := importQuoted(fields[2]); ok {
			rec.agent, rest, _ = importQuoted(strings.TrimPrefix(rest, " "))
			rec.ctype = importLoggedType(rest)
			rec.extra = trailingFields(rest)
		}
	}
	rec.status = fields[0]
	return rec, true
}

// importQuoted reads a quoted log field, undoing the escapes nginx and Apache write
// (\" \\ and \xHH), and returns what follows it.
func importQuoted(s string) (field, rest string, ok bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", s, false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return b.String(), s[i+1:], true
		case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
			b.WriteByte(s[i+1])
			i++
		case c == '\\' && i+3 < len(s) && s[i+1] == 'x' && isHex(s[i+2]) && isHex(s[i+3]):
			b.WriteByte(importUnhex(s[i+2])<<4 | importUnhex(s[i+3]))
			i += 3
		default:
			b.WriteByte(c)
		}
	}
	return "", s, false
}

// importUnhex is the value of a hexadecimal digit.
func importUnhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// importStatusField accepts a status as servers log it; "-" appears when the client left
// before a response.
func importStatusField(s string) bool {
	return s == "-" || len(s) == 3 && importDigits(s)
}

// importBytesField accepts the size field; Apache writes "-" for an empty body.
func importBytesField(s string) bool {
	return s == "-" || s != "" && importDigits(s)
}

// importDigits reports whether s is all ASCII digits; strconv would also take signs.
func importDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// importSplitRequest splits a request line into method and target. HTTP/0.9 lines have no
// protocol; clients that send blanks in the target get them back as part of it.
func importSplitRequest(request string) (method, target string, err error) {
	method, rest, ok := strings.Cut(request, " ")
	if !ok || method == "" {
		return "", "", errors.New("no request line")
	}
	for i := 0; i < len(method); i++ {
		if method[i] < 'A' || method[i] > 'Z' {
			return "", "", errors.New("no request line")
		}
	}
	if i := strings.LastIndexByte(rest, ' '); i >= 0 && strings.HasPrefix(rest[i+1:], "HTTP/") {
		rest = rest[:i]
	}
	if rest == "" {
		return "", "", errors.New("request line without target")
	}
	return method, rest, nil
}

// importBotWords are lower-case fragments of the user agents of crawlers, uptime checkers
// and scripts: traffic a load test should not reproduce. Matching is deliberately crude;
// only obvious bots are meant ("Cubot" phones are a known casualty of "bot").
var importBotWords = []string{
	"bot", "crawler", "spider", "slurp", "facebookexternalhit", "curl", "wget",
	"python-requests", "python-urllib", "go-http-client", "headlesschrome", "scrapy",
}

// importIsBot reports whether a user agent is an obvious bot.
func importIsBot(agent string) bool {
	a := strings.ToLower(agent)
	for _, w := range importBotWords {
		if strings.Contains(a, w) {
			return true
		}
	}
	return false
}

// readLog reads an access log: one request per line, filtered by status, method, agent and
// path before it is counted.
func (im *importer) readLog(src *importLines, st *importFile) {
	for st.err == nil {
		line, ok := src.next()
		if !ok {
			return
		}
		if strings.TrimSpace(line.text) == "" {
			continue
		}
		st.read++
		if line.long {
			im.bad(st, line.num, errors.New("line too long for an access log line"))
			continue
		}
		rec, ok := parseAccessLine(line.text)
		if !ok {
			im.bad(st, line.num, errors.New("not an access log line in the common or combined format"))
			continue
		}
		if !im.statusWanted(rec.status) {
			st.skip(importSkipStatus)
			continue
		}
		method, target, err := importSplitRequest(rec.request)
		if err != nil {
			im.bad(st, line.num, err)
			continue
		}
		switch {
		case !im.methods[method]:
			st.skip(importSkipMethod)
		case !im.opt.IncludeBots && importIsBot(rec.agent):
			st.skip(importSkipBot)
		default:
			if skip := im.pathSkip(target, rec.ctype, true); skip != "" {
				st.skip(skip)
				continue
			}
			im.take(st, line.num, method, target, 1)
		}
	}
}

// maxExtraFields bounds the fields kept after the agent, so that a line of many costs no more.
const maxExtraFields = 16

// trailingFields splits what a line has after the combined format's agent into its fields:
// quoted ones with their escapes undone, bare ones up to the next blank.
func trailingFields(rest string) []string {
	var out []string
	for len(out) < maxExtraFields {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			break
		}
		if field, after, ok := importQuoted(rest); ok {
			out, rest = append(out, field), after
			continue
		}
		end := strings.IndexAny(rest, " \t")
		if end < 0 {
			end = len(rest)
		}
		out, rest = append(out, rest[:end]), rest[end:]
	}
	return out
}
