package pagesite

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
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
