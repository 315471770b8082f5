// Package extract takes values out of responses: a session token from a login form's hidden
// field, an id from a JSON answer, a header or a cookie the server sets. A Rule is parsed once
// from the text of a "#@extract NAME SOURCE" line and then applied to many responses, from
// many goroutines: it holds no state that changes.
//
// It knows nothing of HTTP clients: the caller hands it the decoded body and a header lookup
// (Response), so the engine can apply rules to the buffers it already has without copying.
package extract

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/andybalholm/cascadia"
)

// kind is where a rule looks.
type kind uint8

const (
	kindNone   kind = iota // the zero Rule
	kindRegex              // the body, by a regular expression
	kindCSS                // the body parsed as HTML, by a CSS selector
	kindJSON               // the body parsed as JSON, by a path
	kindHeader             // a response header's first value
	kindCookie             // the value of a cookie the response sets
)

// sources names the source kinds as written before the ':'.
var sources = map[string]kind{"regex": kindRegex, "css": kindCSS, "json": kindJSON, "header": kindHeader, "cookie": kindCookie}

// wantSource lists the sources in messages.
const wantSource = "want regex:, css:, json:, header: or cookie:"

// textAttr is the css "attribute" that asks for an element's text instead.
const textAttr = "text"

// Rule is one parsed extraction: the variable it sets and where its value is found. The zero
// Rule extracts nothing (every Extract is a miss). A Rule is immutable and safe for
// concurrent use.
type Rule struct {
	name     string
	src      string // "NAME SOURCE" as written, blanks around it trimmed, for messages
	source   string // SOURCE as written
	kind     kind
	arg      string // the regex, JSON path, header name or cookie name
	selector string // the css selector as written
	attr     string // the css attribute, lower case; "" for the element's text
	scan     bool   // css: the selector and attribute can be found by tokens, without a tree
	tag      string // css with scan: the element name the selector starts with, "" for any
	re       *regexp.Regexp
	sel      cascadia.SelectorGroup
}

// Error is a problem in a rule's text, at a 1-based column (in bytes) of it.
type Error struct {
	Col int
	Msg string
}

// Error returns "col N: problem".
func (e *Error) Error() string { return fmt.Sprintf("col %d: %s", e.Col, e.Msg) }

// Parse reads the text after "#@extract": a variable name and a source, one of
//
//	regex:PATTERN         Go (RE2) syntax; the first group's text, or the whole match without one
//	css:SELECTOR ATTR     the attribute ATTR of the first element SELECTOR matches
//	css:SELECTOR text     the text inside that element, blanks around it trimmed
//	json:PATH             a gjson path such as data.token or items.0.id
//	header:NAME           the header's first value
//	cookie:NAME           the value of the cookie NAME that the response sets (Set-Cookie)
//
// A regex reads the body's bytes as they are (an HTML entity such as &amp; stays); css reads the
// page as a browser does, entities decoded. NAME is a variable name as a URL file's $(NAME)
// accepts: letters, digits and '_'. A problem is an *Error naming its column in s, so a caller
// can point into its own line.
func Parse(s string) (Rule, error) {
	p := scanner{s: s}
	p.blanks()
	start := p.pos
	name := p.word()
	if name == "" {
		return Rule{}, p.fail("want NAME SOURCE: a variable name and regex:, css:, json:, header: or cookie:")
	}
	if !IsName(name) {
		p.pos = start
		return Rule{}, p.fail("bad variable name %q: use letters, digits and _", name)
	}
	p.blanks()
	if p.end() {
		return Rule{}, p.fail("want a source after the name: regex:, css:, json:, header: or cookie:")
	}
	srcStart := p.pos
	label, _, found := strings.Cut(p.s[p.pos:], ":")
	k, known := sources[label]
	if !found || !known {
		w, _, _ := strings.Cut(label, " ")
		return Rule{}, p.fail("unknown source %q: %s", w, wantSource)
	}
	p.pos += len(label) + 1
	r := Rule{name: name, kind: k}
	end := len(strings.TrimRight(p.s, blanks))
	if end < p.pos {
		end = p.pos
	}
	arg := p.s[p.pos:end]
	var err error
	switch k {
	case kindRegex:
		err = p.regex(&r, arg)
	case kindCSS:
		err = p.css(&r, arg)
	case kindJSON:
		if arg == "" {
			err = p.fail("want a JSON path after json:")
		}
		r.arg = arg
	case kindHeader, kindCookie:
		err = p.token(&r, label, arg)
	}
	if err != nil {
		return Rule{}, err
	}
	r.source = p.s[srcStart:end]
	r.src = name + " " + r.source
	return r, nil
}

// Name is the variable the rule sets.
func (r Rule) Name() string { return r.name }

// String returns the rule as written: "NAME SOURCE".
func (r Rule) String() string { return r.src }

// MarshalText implements encoding.TextMarshaler: a rule is saved, and fingerprinted, as written.
func (r Rule) MarshalText() ([]byte, error) { return []byte(r.src), nil }

// NeedsBody tells whether the rule reads the body, so a caller that can skip keeping bodies
// (header and cookie rules read only the header) does.
func (r Rule) NeedsBody() bool { return r.kind == kindRegex || r.kind == kindCSS || r.kind == kindJSON }

// regex compiles a regex: source.
func (p *scanner) regex(r *Rule, arg string) error {
	if arg == "" {
		return p.fail("want a regular expression after regex:")
	}
	re, err := regexp.Compile(arg)
	if err != nil {
		return p.fail("bad regular expression: %v", err)
	}
	r.arg, r.re = arg, re
	return nil
}

// css reads "SELECTOR ATTR". The attribute is the last word, because a selector has blanks of
// its own ("form#login input[name=token]") and an attribute name has none.
func (p *scanner) css(r *Rule, arg string) error {
	cut := strings.LastIndexAny(arg, blanks)
	if arg == "" {
		return p.fail("want css:SELECTOR ATTR or css:SELECTOR text")
	}
	if cut < 0 {
		p.pos += len(arg)
		return p.fail("want an attribute name or text after the selector")
	}
	selector, attr := strings.TrimRight(arg[:cut], blanks), arg[cut+1:]
	if !isAttrName(attr) {
		p.pos += cut + 1
		return p.fail("bad attribute name %q: want a name such as value or href, or text", attr)
	}
	sel, err := cascadia.ParseGroup(selector)
	if err != nil {
		return p.fail("bad selector: %v", err)
	}
	r.selector, r.sel, r.attr = selector, sel, strings.ToLower(attr)
	if r.attr == textAttr {
		r.attr = ""
	}
	r.scan = r.attr != "" && compound(selector)
	if r.scan {
		r.tag = leadingTag(selector)
	}
	return nil
}

// token reads the name of a header: or cookie: source.
func (p *scanner) token(r *Rule, label, arg string) error {
	n := 0
	for n < len(arg) && isTokenByte(arg[n]) {
		n++
	}
	if n == 0 {
		return p.fail("want a %s name after %s:", label, label)
	}
	if n < len(arg) {
		rest := strings.TrimLeft(arg[n:], blanks)
		p.pos += len(arg) - len(rest)
		return p.fail("unexpected %q after the %s name", rest, label)
	}
	r.arg = arg
	return nil
}
