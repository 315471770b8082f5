// Package mask hides a run's credentials in what it prints: the passwords of -u, of URLs and of
// --db, the values of secret headers, the users' --data values and the cookies they received.
// A page that shows one (a debugging endpoint, a form filled back, a JSON echo) may print it as
// written, HTML-escaped, %-escaped (as a query or as a path), JSON-escaped, or as the base64 of
// a basic-auth pair; a Set knows each credential in all those forms and replaces any of them.
//
// Masking runs on what is kept or printed (a fingerprint's segments, an excerpt, an error
// message), never on every body byte: its cost is a substring search per form.
package mask

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html"
	"net/url"
	"slices"
	"strings"
)

// Token replaces a credential.
const Token = "#secret"

// MinLen is the shortest credential masked: a shorter one would match everywhere.
const MinLen = 4

// Set is credentials in every form a page may print them. The zero Set masks nothing. Adding
// is not safe for concurrent use; once built, a Set is only read and is safe to share.
type Set struct {
	forms [][]byte // longest first, so that an encoded form is replaced before a part of it
	strs  []string // forms as strings, for String
	seen  map[string]bool
}

// Add adds credential v in each of its forms (see Forms); one shorter than MinLen is left out.
func (s *Set) Add(v string) {
	for _, f := range Forms(v) {
		s.addForm(f)
	}
}

// AddBasic adds the password of a basic-auth pair, in its forms, and the pair's base64 as an
// Authorization header carries it.
func (s *Set) AddBasic(user, pass string) {
	s.Add(pass)
	if pass != "" {
		s.addForm(Basic(user, pass))
	}
}

func (s *Set) addForm(f string) {
	if len(f) < MinLen || s.seen[f] {
		return
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[f] = true
	i, _ := slices.BinarySearchFunc(s.forms, len(f), func(e []byte, n int) int { return n - len(e) })
	s.forms = slices.Insert(s.forms, i, []byte(f))
	s.strs = slices.Insert(s.strs, i, f)
}

// Empty tells whether the Set masks nothing.
func (s *Set) Empty() bool { return s == nil || len(s.forms) == 0 }

// Reset empties the Set, keeping its memory for the next credentials.
func (s *Set) Reset() {
	s.forms, s.strs = s.forms[:0], s.strs[:0]
	clear(s.seen)
}

// Append appends b to dst with every form of every credential replaced by Token.
func (s *Set) Append(dst, b []byte) []byte {
	off := len(dst)
	dst = append(dst, b...)
	if len(b) == 0 {
		return dst
	}
	if masked := s.Bytes(dst[off:]); &masked[0] != &dst[off] {
		dst = append(dst[:off], masked...)
	}
	return dst
}

// Bytes returns b with every form of every credential replaced by Token: b itself when it
// shows none, else a new slice.
func (s *Set) Bytes(b []byte) []byte {
	if s.Empty() || len(b) == 0 {
		return b
	}
	for _, f := range s.forms {
		if bytes.Contains(b, f) {
			b = bytes.ReplaceAll(b, f, []byte(Token))
		}
	}
	return b
}

// String returns text with every form of every credential replaced by Token.
func (s *Set) String(text string) string {
	if s.Empty() {
		return text
	}
	for _, f := range s.strs {
		if strings.Contains(text, f) {
			text = strings.ReplaceAll(text, f, Token)
		}
	}
	return text
}

// Forms lists v as a page may print it: as written; HTML-escaped with each common spelling of
// the quotes (Go's &#34; and &#39;, PHP's &quot; and &#039;, Python's &#x27;); %-escaped as a
// query value (space as '+') and as a path segment; JSON-escaped, with and without Go's
// escaping of <, > and &, and with PHP's "\/". Duplicates are left out.
func Forms(v string) []string {
	if v == "" {
		return nil
	}
	out := []string{v}
	add := func(f string) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	goHTML := html.EscapeString(v) // &#34; and &#39;
	add(goHTML)
	add(strings.NewReplacer("&#34;", "&quot;", "&#39;", "&#039;").Replace(goHTML))
	add(strings.NewReplacer("&#34;", "&quot;", "&#39;", "&#x27;").Replace(goHTML))
	add(url.QueryEscape(v))
	add(url.PathEscape(v))
	for _, escapeHTML := range []bool{true, false} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(escapeHTML)
		if enc.Encode(v) == nil {
			j := strings.TrimSuffix(b.String(), "\n")
			j = j[1 : len(j)-1]
			add(j)
			add(strings.ReplaceAll(j, "/", `\/`))
		}
	}
	return out
}

// Basic is the base64 of the basic-auth pair user:pass, as an Authorization header carries it.
func Basic(user, pass string) string {
	return base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
}
