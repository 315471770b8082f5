// Package pagesite serves any number of distinct HTML pages of about 30 KB on loopback, for
// measuring what a run holds per URL over a long list (scripts/memory-bounds.sh): page N is
// /p/N, its text and structure its own, with a token that changes on every answer as a form's
// does. Pages are made on each request, so the site holds nothing per page however many
// there are; CompressedHandler compresses each answer anew, for measuring what a run holds
// per user on a site that compresses (scripts/page-users.sh).
package pagesite

import (
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"

	brrr "github.com/molecule-man/go-brrr"
)

// PageSize is about the size of a page, in bytes.
const PageSize = 30 << 10

// words make up the pages' text; each page picks its own from its number.
var words = strings.Fields(`kettle boils litre water minutes handle stays cool lid opens wide
	steel glass copper enamel spout filter base cord switch light blue green red black white
	order price delivery stock review warranty return gift wrap size weight colour model year`)

// Page appends page n's HTML to b, with token as the part that changes with every answer.
func Page(b []byte, n int, token string) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 0x9e3779b97f4a7c15))
	num := strconv.Itoa(n)
	b = append(b, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Page `...)
	b = append(b, num...)
	b = append(b, `</title>
<meta name="csrf-token" content="`...)
	b = append(b, token...)
	b = append(b, "\">\n</head>\n<body>\n<h1>Page "...)
	b = append(b, num...)
	b = append(b, "</h1>\n"...)
	for p := 0; len(b) < PageSize; p++ {
		b = append(b, `<div class="item-`...)
		b = strconv.AppendInt(b, int64(r.IntN(1000)), 10)
		b = append(b, `"><a href="/p/`...)
		b = strconv.AppendInt(b, int64(r.IntN(1_000_000)), 10)
		b = append(b, `">`...)
		b = append(b, words[r.IntN(len(words))]...)
		b = append(b, "</a></div>\n<p>"...)
		for range 6 + r.IntN(8) {
			b = append(b, words[r.IntN(len(words))]...)
			b = append(b, ' ')
		}
		b = append(b, "page "...)
		b = append(b, num...)
		b = append(b, ", part "...)
		b = strconv.AppendInt(b, int64(p), 10)
		b = append(b, ".</p>\n"...)
	}
	return append(b, "</body></html>\n"...)
}

// Handler answers /p/N with page N (N from 0 to 2^31) and anything else with 404.
func Handler() http.Handler { return handler("") }

// Encodings are the content codings CompressedHandler answers in.
var Encodings = []string{"gzip", "br"}

// CompressedHandler answers as Handler does, each page compressed in encoding (one of
// Encodings) when the request accepts it, as a site behind a compressing server does: every
// answer compressed anew, its token being its own.
func CompressedHandler(encoding string) (http.Handler, error) {
	if !slices.Contains(Encodings, encoding) {
		return nil, fmt.Errorf("pagesite: encoding %q: give one of %s", encoding, strings.Join(Encodings, ", "))
	}
	return handler(encoding), nil
}

func handler(encoding string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, ok := strings.CutPrefix(r.URL.Path, "/p/")
		n, err := strconv.Atoi(s)
		if !ok || err != nil || n < 0 || n > 1<<31 {
			http.NotFound(w, r)
			return
		}
		var token [16]byte
		for i := range token {
			token[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[rand.IntN(36)]
		}
		page := Page(make([]byte, 0, PageSize+1024), n, string(token[:]))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Add("Vary", "Accept-Encoding")
		if encoding == "" || !accepts(r.Header.Get("Accept-Encoding"), encoding) {
			_, _ = w.Write(page)
			return
		}
		w.Header().Set("Content-Encoding", encoding)
		var z io.WriteCloser
		if encoding == "br" {
			z, _ = brrr.NewWriter(w, 5) // a level that exists
		} else {
			z = gzip.NewWriter(w)
		}
		_, _ = z.Write(page)
		_ = z.Close()
	})
}

// accepts tells whether an Accept-Encoding header names coding (q-values aside).
func accepts(header, coding string) bool {
	for part := range strings.SplitSeq(header, ",") {
		name, _, _ := strings.Cut(part, ";")
		if strings.EqualFold(strings.TrimSpace(name), coding) {
			return true
		}
	}
	return false
}
