package page

import "bytes"

// scriptEnd returns where the text of a <script> that starts at i ends: at the '<' of the
// "</script" that closes it, or len(b). It follows the tokenizer's readScript, which follows
// HTML's script data states: inside "<!--", a "<script" hides the next "</script" from ending
// the element, until "-->".
func scriptEnd(b []byte, i int) int {
	n := len(b)
	var c byte
	// read returns the next byte; the caller returns n when the page has ended.
	read := func() bool {
		if i >= n {
			return false
		}
		c = b[i]
		i++
		return true
	}

data:
	// Only '<' matters here, so the text before it is skipped at memory speed.
	if j := bytes.IndexByte(b[i:], '<'); j >= 0 {
		i += j + 1
	} else {
		return n
	}
	if !read() {
		return n
	}
	switch c {
	case '/':
		if p, ok := scriptEndTag(b, &i); ok {
			return p
		} else if i >= n {
			return n
		}
		goto data
	case '!':
		if !read() {
			return n
		}
		if c != '-' {
			i--
			goto data
		}
		if !read() {
			return n
		}
		if c != '-' {
			i--
			goto data
		}
		goto escapedDashDash
	}
	i--
	goto data

escaped:
	if !read() {
		return n
	}
	switch c {
	case '-':
		goto escapedDash
	case '<':
		goto escapedLessThan
	}
	goto escaped

escapedDash:
	if !read() {
		return n
	}
	switch c {
	case '-':
		goto escapedDashDash
	case '<':
		goto escapedLessThan
	}
	goto escaped

escapedDashDash:
	if !read() {
		return n
	}
	switch c {
	case '-':
		goto escapedDashDash
	case '<':
		goto escapedLessThan
	case '>':
		goto data
	}
	goto escaped

escapedLessThan:
	if !read() {
		return n
	}
	if c == '/' {
		if p, ok := scriptEndTag(b, &i); ok {
			return p
		} else if i >= n {
			return n
		}
		goto escaped
	}
	if isAlpha(c) {
		i--
		for k := 0; k < len("script"); k++ {
			if !read() {
				return n
			}
			if c != "script"[k] && c != "SCRIPT"[k] {
				i--
				goto escaped
			}
		}
		if !read() {
			return n
		}
		if isSpace(c) || c == '/' || c == '>' {
			goto doubleEscaped
		}
		i--
		goto escaped
	}
	i--
	goto data

doubleEscaped:
	if !read() {
		return n
	}
	switch c {
	case '-':
		goto doubleEscapedDash
	case '<':
		goto doubleEscapedLessThan
	}
	goto doubleEscaped

doubleEscapedDash:
	if !read() {
		return n
	}
	switch c {
	case '-':
		goto doubleEscapedDashDash
	case '<':
		goto doubleEscapedLessThan
	}
	goto doubleEscaped

doubleEscapedDashDash:
	if !read() {
		return n
	}
	switch c {
	case '-':
		goto doubleEscapedDashDash
	case '<':
		goto doubleEscapedLessThan
	case '>':
		goto data
	}
	goto doubleEscaped

doubleEscapedLessThan:
	if !read() {
		return n
	}
	if c != '/' {
		i--
		goto doubleEscaped
	}
	if _, ok := scriptEndTag(b, &i); ok {
		// "</script>" ends the double escape, not the element.
		i += len("script>")
		goto escaped
	} else if i >= n {
		return n
	}
	goto doubleEscaped
}

// scriptEndTag reads "script" and the byte after it at *i, just past "</". ok: it is the end
// tag, which starts at p. Otherwise *i is the byte that did not match, or len(b).
func scriptEndTag(b []byte, i *int) (p int, ok bool) {
	next, ok := endTagAt(b, *i, "script")
	if ok {
		return *i - len("</"), true
	}
	*i = next
	return 0, false
}
