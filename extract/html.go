package extract

import (
	"bytes"
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// cssValue parses the body as HTML, as a browser would (so entities are decoded), and reads
// the first element the selector matches.
func (r Rule) cssValue(body []byte) (string, string) {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return "", "the body is not HTML"
	}
	n := cascadia.Query(doc, r.sel)
	if n == nil {
		return "", "no match"
	}
	if r.attr == "" {
		var b strings.Builder
		appendText(&b, n)
		return strings.TrimSpace(b.String()), ""
	}
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == r.attr {
			return a.Val, ""
		}
	}
	return "", "the element has no " + r.attr + " attribute"
}

// appendText writes the text inside n, as textContent does.
func appendText(b *strings.Builder, n *html.Node) {
	if n.Type == html.TextNode {
		b.WriteString(n.Data)
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		appendText(b, c)
	}
}

// compound tells a selector that looks at one element alone (tag, #id, .class, [attr]) from
// one that needs the tree: combinators (blank, >, +, ~), groups (,) and pseudo-classes (:).
// Brackets and quotes are skipped, so input[value="a b"] stays compound.
func compound(sel string) bool {
	depth, quote := 0, byte(0)
	for i := 0; i < len(sel); i++ {
		c := sel[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '\\':
			i++
		case depth == 0 && strings.IndexByte(" \t\r\n\f>+~,:", c) >= 0:
			return false
		}
	}
	return true
}

// scanAttr finds the attribute of the first element that a compound selector matches by
// tokenizing, without building the tree: for a login form's hidden field it is many times
// cheaper than cssValue, and the order of start tags is document order.
func (r Rule) scanAttr(body []byte) (string, string) {
	z := html.NewTokenizer(bytes.NewReader(body))
	n := html.Node{Type: html.ElementNode}
	for {
		switch z.Next() {
		case html.ErrorToken:
			return "", "no match"
		case html.StartTagToken, html.SelfClosingTagToken:
		default:
			continue
		}
		name, more := z.TagName()
		if r.tag != "" && string(name) != r.tag {
			continue
		}
		n.Data, n.Attr = string(name), n.Attr[:0]
		for more {
			var k, v []byte
			k, v, more = z.TagAttr()
			n.Attr = append(n.Attr, html.Attribute{Key: string(k), Val: string(v)})
		}
		if !r.sel.Match(&n) {
			continue
		}
		for _, a := range n.Attr {
			if a.Key == r.attr {
				return a.Val, ""
			}
		}
		return "", "the element has no " + r.attr + " attribute"
	}
}

// leadingTag is the element name a compound selector starts with, lower case as the tokenizer
// gives names, so other elements are skipped before their attributes are read.
func leadingTag(sel string) string {
	n := 0
	for n < len(sel) && ('a' <= sel[n] && sel[n] <= 'z' || 'A' <= sel[n] && sel[n] <= 'Z' || n > 0 && ('0' <= sel[n] && sel[n] <= '9' || sel[n] == '-')) {
		n++
	}
	if n < len(sel) && sel[n] == '|' {
		return "" // a namespace prefix: leave it to the selector
	}
	return strings.ToLower(sel[:n])
}
