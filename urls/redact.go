package urls

import "strings"

// Redacted hides the password of a URL's user information ("http://bob:secret@host/" becomes
// "http://bob:xxxxx@host/"), so credentials written in a URL file never reach a report, a log
// or the terminal. Everything else is kept as written. The URL may be the start of a URL-file
// line ("URL POST data"): it ends at the first blank.
func Redacted(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	rest := raw[i+3:]
	end := strings.IndexAny(rest, "/?# \t")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndexByte(rest[:end], '@')
	if at < 0 {
		return raw
	}
	user, _, hasPass := strings.Cut(rest[:at], ":")
	if !hasPass {
		return raw
	}
	return raw[:i+3] + user + ":xxxxx" + rest[at:]
}
