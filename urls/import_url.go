package urls

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// errImportNeedBase stops an import at the first path-only row when no base was given:
// without one no row of the file can become a URL, so reading on would only waste time.
var errImportNeedBase = errors.New("the rows have paths only; give --base URL")

// importBase is the site under test, split for joining.
type importBase struct {
	origin string // "http://127.0.0.1:8080": scheme, optional userinfo, host and port
	prefix string // the base's path without its trailing '/', put before every path
	// variable is the reference a base such as "$(SITE)/path" starts with, written into the
	// list in place of origin (then importVariableOrigin), so the list follows the variable
	// at run time; "" for a literal base.
	variable string
}

// importVariableOrigin stands for a variable base while rows are joined and checked: a host
// that can never resolve (RFC 2606), replaced by the variable before the URL is kept.
const importVariableOrigin = "http://webload-variable.invalid"

// parseImportBase checks the base the same way a URL file line is checked, so a base that
// imports fine also runs fine. A base starting with a variable ("$(SITE)", "$(SITE)/staging")
// is kept as written rather than expanded: the list it makes names no host, and a run reads
// SITE from the environment or a "SITE=" line.
func parseImportBase(raw string) (importBase, error) {
	bad := func(why string) (importBase, error) {
		return importBase{}, fmt.Errorf("bad --base %q: %s", Redacted(raw), why) // a password in it is no message's
	}
	if strings.Contains(raw, "$") {
		ref, rest, ok := importBaseVariable(raw)
		if !ok || strings.Contains(rest, "$") || rest != "" && rest[0] != '/' {
			return bad("a variable must stand for the whole scheme and host, as in $(SITE) or $(SITE)/path")
		}
		b, err := parseImportBase(importVariableOrigin + rest)
		if err != nil {
			return bad(strings.TrimPrefix(err.Error(), fmt.Sprintf("bad --base %q: ", importVariableOrigin+rest)))
		}
		b.variable = ref
		return b, nil
	}
	if strings.ContainsAny(raw, "?#") {
		return bad("want http://host[:port][/path] without query or fragment")
	}
	t, err := ParseLine(raw, Options{})
	if err != nil {
		var le *LineError
		if errors.As(err, &le) {
			err = le.Err
		}
		return bad(err.Error())
	}
	if t.Method != "GET" || t.Body != nil {
		return bad("want a URL only")
	}
	scheme, authority, rest, _ := importSplitFull(t.URL)
	return importBase{origin: scheme + "://" + authority, prefix: strings.TrimRight(rest, "/")}, nil
}

// importBaseVariable splits a base that starts with a variable reference, $(NAME), ${NAME}
// or $NAME, into the reference as written and the rest.
func importBaseVariable(raw string) (ref, rest string, ok bool) {
	if len(raw) < 2 || raw[0] != '$' {
		return "", "", false
	}
	if closer := map[byte]byte{'(': ')', '{': '}'}[raw[1]]; closer != 0 {
		end := strings.IndexByte(raw, closer)
		if end < 0 || !isName(raw[2:end]) {
			return "", "", false
		}
		return raw[:end+1], raw[end+1:], true
	}
	end := 1
	for end < len(raw) && isNameByte(raw[end]) {
		end++
	}
	return raw[:end], raw[end:], end > 1
}

// importSplitFull splits an absolute http or https URL. Anything else, including
// "//host/x" (which in access logs is a path with a doubled slash), is not split.
func importSplitFull(raw string) (scheme, authority, rest string, ok bool) {
	for _, s := range []string{"http", "https"} {
		if len(raw) > len(s)+3 && strings.EqualFold(raw[:len(s)], s) && raw[len(s):len(s)+3] == "://" {
			rest := raw[len(s)+3:]
			end := strings.IndexAny(rest, "/?#")
			if end < 0 {
				end = len(rest)
			}
			return strings.ToLower(s), rest[:end], rest[end:], true
		}
	}
	return "", "", "", false
}

// parseImportHost reads --host: a host name, optionally with a port. A URL is accepted too,
// since users often paste one.
func parseImportHost(raw string) (HostPattern, error) {
	h := strings.TrimSpace(raw)
	if _, authority, _, ok := importSplitFull(h); ok {
		h = authority
	}
	h, err := asciiHost(strings.TrimSuffix(h, "/"))
	if err != nil || h == "" || checkHostPort(h) != nil {
		return HostPattern{}, fmt.Errorf("bad --host %q: want a host name such as example.com", raw)
	}
	p, err := ParseHostPattern(h)
	if err != nil {
		return HostPattern{}, fmt.Errorf("bad --host %q: want a host name such as example.com", raw)
	}
	return p, nil
}

// importASCIIAuthority puts the host of a row's authority in punycode, by the rule of URL
// lines, so that --host compares the names a run would send and the row's URL keeps its host
// instead of having it %-escaped into a name no server has.
func importASCIIAuthority(authority string) (string, error) {
	at := strings.LastIndexByte(authority, '@') + 1
	host, err := asciiHost(authority[at:])
	if err != nil {
		return "", err
	}
	return authority[:at] + host, nil
}

// resolve turns a row's page into the URL to request. skip is a filter reason ("host") and
// err a problem with the row, or errImportNeedBase.
func (im *importer) resolve(raw string) (u, skip string, err error) {
	raw = strings.TrimSpace(raw)
	switch scheme, authority, rest, full := importSplitFull(raw); {
	case full:
		if authority, err = importASCIIAuthority(authority); err != nil {
			return "", "", fmt.Errorf("bad URL %q: %w", importClip(Redacted(raw)), err)
		}
		if im.host != nil && !im.host.Match(scheme, authority[strings.LastIndexByte(authority, '@')+1:]) {
			return "", importSkipHost, nil
		}
		if im.base == nil {
			u = scheme + "://" + authority + rest
			break
		}
		if rest == "" || rest[0] != '/' {
			rest = "/" + rest
		}
		u = im.base.origin + im.base.prefix + rest
	case strings.HasPrefix(raw, "/"):
		if im.base == nil {
			return "", "", errImportNeedBase
		}
		u = im.base.origin + im.base.prefix + raw
	default:
		return "", "", fmt.Errorf("not a URL or path: %q", importClip(raw))
	}
	u, _, _ = strings.Cut(u, "#") // fragments never reach the server
	if path, query, ok := strings.Cut(u, "?"); ok {
		switch {
		case im.opt.StripQuery:
			u = path
		case len(im.opt.DropParams) > 0:
			if query = importDropParams(query, im.opt.DropParams); query != "" {
				u = path + "?" + query
			} else {
				u = path
			}
		}
	}
	if u, err = importLineSafe(u); err != nil || im.base == nil || im.base.variable == "" {
		return u, "", err
	}
	rest, ok := strings.CutPrefix(u, importVariableOrigin)
	if !ok {
		return "", "", fmt.Errorf("bad URL %q: does not read back as itself", importClip(u))
	}
	return im.base.variable + rest, "", nil
}

// importDropParams removes the named parameters from a query and keeps the others in
// their order. Names match case-insensitively after %-decoding, and a name ending in '*'
// matches by prefix ("utm_*"), because tracking parameters come in families.
func importDropParams(query string, drop []string) string {
	var kept []string
	for _, p := range strings.Split(query, "&") {
		if p == "" {
			continue
		}
		name, _, _ := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if !importParamDropped(name, drop) {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "&")
}

// importParamDropped matches one parameter name against the --drop-param list.
func importParamDropped(name string, drop []string) bool {
	for _, d := range drop {
		if prefix, ok := strings.CutSuffix(d, "*"); ok && len(name) >= len(prefix) && strings.EqualFold(name[:len(prefix)], prefix) {
			return true
		}
		if d != "" && strings.EqualFold(name, d) {
			return true
		}
	}
	return false
}

// importLineSafe makes u a line that Parse reads back as exactly this GET request, since
// the result is written into a URL file. '$' is %-escaped because the URL file grammar
// would expand it as a variable, and blanks and other unsafe bytes are escaped so that
// nothing in the URL reads as a method, a body or a comment. ParseLine then has the final
// word, and the result must survive a second pass unchanged.
func importLineSafe(u string) (string, error) {
	line := escapeRequestBytes(strings.ReplaceAll(u, "$", "%24"))
	t, err := ParseLine(line, Options{})
	if err != nil {
		var le *LineError
		if errors.As(err, &le) {
			err = le.Err
		}
		return "", fmt.Errorf("bad URL %q: %w", importClip(u), err)
	}
	again, err := ParseLine(t.URL, Options{})
	if t.Method != "GET" || t.Body != nil || err != nil || again.URL != t.URL || again.Method != "GET" {
		return "", fmt.Errorf("bad URL %q: does not read back as itself", importClip(u))
	}
	return t.URL, nil
}

// importClip shortens text quoted in messages; a whole multi-kilobyte row helps no one.
func importClip(s string) string {
	const limit = 80
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut-- // keep a multi-byte character whole
	}
	return s[:cut] + "..."
}
