package page

import "bytes"

// tagKind names the elements whose attributes or nesting matter; every other element can only
// contribute an inline style attribute.
type tagKind uint8

const (
	tagOther tagKind = iota
	tagAudio
	tagBase
	tagBody
	tagEmbed
	tagImg
	tagInput
	tagLink
	tagMeta
	tagObject
	tagPicture
	tagScript
	tagSource
	tagStyle
	tagTemplate
	tagVideo
)

// maxKnownTag is the length of the longest name kindOf knows ("template").
const maxKnownTag = 8

// kindOf maps a lower-case tag name to its kind.
func kindOf(name []byte) tagKind {
	switch string(name) { // no allocation: the compiler compares the bytes in place
	case "audio":
		return tagAudio
	case "base":
		return tagBase
	case "body":
		return tagBody
	case "embed":
		return tagEmbed
	case "img":
		return tagImg
	case "input":
		return tagInput
	case "link":
		return tagLink
	case "meta":
		return tagMeta
	case "object":
		return tagObject
	case "picture":
		return tagPicture
	case "script":
		return tagScript
	case "source":
		return tagSource
	case "style":
		return tagStyle
	case "template":
		return tagTemplate
	case "video":
		return tagVideo
	}
	return tagOther
}

// attrs holds the attribute values of one start tag that may name a resource. The slices are
// valid while the page (or the tokenizer that unescaped them) is. The first of repeated
// attributes wins, as in browsers.
type attrs struct {
	src, srcset, href, rel, as, typ, poster, data, imageSrcset, style, loading, media []byte
	background, httpEquiv, content                                                    []byte
	hasHref                                                                           bool // <base href=""> counts though empty

	seen uint16 // the attributes set so far, by attrBit
}

// The bits of attrs.seen.
const (
	attrSrc uint16 = 1 << iota
	attrSrcset
	attrHref
	attrRel
	attrAs
	attrType
	attrPoster
	attrData
	attrImageSrcset
	attrStyle
	attrLoading
	attrMedia
	attrBackground
	attrHTTPEquiv
	attrContent
)

// maxAttrName is the length of the longest name attrs keeps ("imagesrcset").
const maxAttrName = 11

// setRaw records one attribute as it stands in the page: its name in any case, its value
// without entities, CR or NUL to decode (Resources sends such tags through the tokenizer).
func (a *attrs) setRaw(key, val []byte) {
	if len(key) > maxAttrName {
		return
	}
	var buf [maxAttrName]byte
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	a.set(buf[:len(key)], val)
}

// set records one attribute, given its lower-case name, unless an attribute of that name
// came before.
func (a *attrs) set(key, val []byte) {
	var field *[]byte
	var bit uint16
	switch string(key) {
	case "src":
		field, bit = &a.src, attrSrc
	case "srcset":
		field, bit = &a.srcset, attrSrcset
	case "href":
		field, bit = &a.href, attrHref
	case "rel":
		field, bit = &a.rel, attrRel
	case "as":
		field, bit = &a.as, attrAs
	case "type":
		field, bit = &a.typ, attrType
	case "poster":
		field, bit = &a.poster, attrPoster
	case "data":
		field, bit = &a.data, attrData
	case "imagesrcset":
		field, bit = &a.imageSrcset, attrImageSrcset
	case "style":
		field, bit = &a.style, attrStyle
	case "loading":
		field, bit = &a.loading, attrLoading
	case "media":
		field, bit = &a.media, attrMedia
	case "background":
		field, bit = &a.background, attrBackground
	case "http-equiv":
		field, bit = &a.httpEquiv, attrHTTPEquiv
	case "content":
		field, bit = &a.content, attrContent
	default:
		return
	}
	if a.seen&bit != 0 {
		return
	}
	a.seen |= bit
	*field = val
	if bit == attrHref {
		a.hasHref = true
	}
}

// element adds what one start tag makes a browser fetch. media is the innermost open <picture>,
// <video> or <audio> (tagOther outside them), the only places where <source> loads anything.
// Iframes and frames are left out on purpose: they are pages of their own, not resources of
// this one.
func (c *collector) element(k tagKind, a *attrs, media tagKind) {
	switch k {
	case tagImg:
		c.img(a, media == tagPicture)
	case tagSource:
		switch media {
		case tagPicture:
			// A browser takes the first source whose type it decodes and whose media query
			// matches; a source's src means nothing in a picture.
			if !c.pic.chosen && !c.pic.done && acceptedImageType(a.typ) && mediaMatches(a.media) {
				if u := pickImage(nil, a.srcset); u != nil {
					c.pic.source, c.pic.chosen = append(c.pic.source[:0], u...), true
				}
			}
		case tagVideo, tagAudio:
			c.add(a.src)
		}
	case tagScript, tagEmbed, tagAudio:
		c.add(a.src)
	case tagVideo:
		c.add(a.poster)
		c.add(a.src)
	case tagInput:
		if bytes.EqualFold(a.typ, []byte("image")) {
			c.add(a.src)
		}
	case tagObject:
		c.add(a.data)
	case tagLink:
		fetched, image := linkFetched(a.rel, a.as)
		switch {
		case image:
			// A preload of an image fetches the candidate the image will use.
			c.add(pickImage(a.href, a.imageSrcset))
		case fetched:
			c.add(a.href)
		}
	case tagBase:
		if a.hasHref {
			c.setBase(a.href)
		}
	case tagBody:
		// A legacy attribute that browsers still honour, and siege's parser fetches.
		c.add(a.background)
	case tagMeta:
		c.meta(a)
	}
	if len(a.style) > 0 {
		c.addCSS(a.style, false)
	}
}

// img adds the one candidate an <img> makes a browser fetch, or its picture's chosen source
// when it is the first img of an open <picture>. An image marked loading=lazy is fetched only
// when it nears the viewport, which a load test cannot know, so only with Options.LazyImages.
func (c *collector) img(a *attrs, inPicture bool) {
	lazy := !c.opt.LazyImages && bytes.EqualFold(trimSpace(a.loading), []byte("lazy"))
	if inPicture && !c.pic.done {
		c.pic.done = true
		if c.pic.chosen {
			if !lazy {
				c.add(c.pic.source)
			}
			return
		}
	}
	if !lazy {
		c.add(pickImage(a.src, a.srcset))
	}
}

// linkFetched reports whether a <link> with these rel and as values makes a browser fetch its
// href, and whether it preloads an image (so its imagesrcset counts too). rel is a list of
// case-insensitive tokens separated by ASCII whitespace.
//
// Fetched: style sheets except alternate ones (browsers load those only when chosen), icons
// ("icon", "shortcut icon", Apple's touch icons), module preloads, and preloads of the
// kinds a page renders with (style, script, image, font); an image preload fetches one
// candidate of its imagesrcset or its href. Prefetch, preconnect, manifest and
// the rest are hints or loaded later, and would only inflate the load.
func linkFetched(rel, as []byte) (fetched, image bool) {
	var stylesheet, alternate, preload bool
	for len(rel) > 0 {
		var tok []byte
		tok, rel = nextToken(rel)
		switch {
		case bytes.EqualFold(tok, []byte("stylesheet")):
			stylesheet = true
		case bytes.EqualFold(tok, []byte("alternate")):
			alternate = true
		case bytes.EqualFold(tok, []byte("icon")),
			bytes.EqualFold(tok, []byte("apple-touch-icon")),
			bytes.EqualFold(tok, []byte("apple-touch-icon-precomposed")),
			bytes.EqualFold(tok, []byte("modulepreload")):
			fetched = true
		case bytes.EqualFold(tok, []byte("preload")):
			preload = true
		}
	}
	if stylesheet && !alternate {
		fetched = true
	}
	if preload {
		switch {
		case bytes.EqualFold(as, []byte("image")):
			return true, true
		case bytes.EqualFold(as, []byte("style")),
			bytes.EqualFold(as, []byte("script")),
			bytes.EqualFold(as, []byte("font")):
			fetched = true
		}
	}
	return fetched, false
}

// nextToken returns the first whitespace-separated token of s and the rest after it.
func nextToken(s []byte) (tok, rest []byte) {
	s = trimSpace(s)
	i := 0
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	return s[:i], s[i:]
}
