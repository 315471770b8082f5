package pagesite

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	brrr "github.com/molecule-man/go-brrr"
)

// Pages are about PageSize, each its own, and the same page differs between two answers only
// in its token.
func TestPagesAreDistinct(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(Handler())
	t.Cleanup(srv.Close)
	get := func(path string) (int, []byte) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	_, a := get("/p/1")
	_, b := get("/p/2")
	_, a2 := get("/p/1")
	if len(a) < PageSize || len(a) > PageSize+1024 {
		t.Errorf("page 1 is %d bytes, want about %d", len(a), PageSize)
	}
	if bytes.Equal(a[200:], b[200:]) {
		t.Error("pages 1 and 2 have the same text")
	}
	if bytes.Equal(a, a2) || !bytes.Equal(a[200:], a2[200:]) {
		t.Error("two answers of page 1 should differ only in their token, near the start")
	}
	for _, p := range []string{"/", "/p/x", "/p/-1", "/q/1"} {
		if code, _ := get(p); code != http.StatusNotFound {
			t.Errorf("%s answered %d, want 404", p, code)
		}
	}
}

// A compressed site answers in its encoding only the requests that accept it, each answer
// decoding to a page whose token is its own; an encoding it does not know is an error.
func TestCompressedPages(t *testing.T) {
	t.Parallel()
	decoders := map[string]func(io.Reader) (io.Reader, error){
		"gzip": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		"br":   func(r io.Reader) (io.Reader, error) { return brrr.NewReader(r), nil },
	}
	for _, enc := range Encodings {
		h, err := CompressedHandler(enc)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		cases := []struct {
			accept string
			want   string // Content-Encoding
		}{
			{"", ""},
			{"identity", ""},
			{"gzip, deflate, br", enc},
			{" " + strings.ToUpper(enc) + ";q=0.8", enc},
			{"zstd", ""},
		}
		var pages [][]byte
		for _, tc := range cases {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/p/7", nil)
			req.Header.Set("Accept-Encoding", tc.accept)
			resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			var body io.Reader = resp.Body
			if got := resp.Header.Get("Content-Encoding"); got != tc.want {
				t.Errorf("%s site, Accept-Encoding %q: Content-Encoding %q, want %q", enc, tc.accept, got, tc.want)
			} else if got != "" {
				if body, err = decoders[got](resp.Body); err != nil {
					t.Fatal(err)
				}
			}
			page, err := io.ReadAll(body)
			resp.Body.Close()
			if err != nil {
				t.Fatalf("%s site, Accept-Encoding %q: %v", enc, tc.accept, err)
			}
			pages = append(pages, page)
		}
		for i, p := range pages[1:] {
			if len(p) != len(pages[0]) || bytes.Equal(p, pages[0]) || !bytes.Equal(p[200:], pages[0][200:]) {
				t.Errorf("%s site: answer %d is not page 7 with a token of its own", enc, i+1)
			}
		}
	}
	if _, err := CompressedHandler("zstd"); err == nil {
		t.Error("an unknown encoding was taken")
	}
}
