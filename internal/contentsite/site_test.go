package contentsite

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestVariants(t *testing.T) {
	t.Parallel()
	tests := []struct {
		variant Variant
		path    string
		status  int
		has     string
	}{
		{Baseline, "/product/3", 200, "Price: 15.65 EUR"},
		{Baseline, "/about", 200, "<h1>About</h1>"},
		{Baseline, "/nope", 404, "not found"},
		{Broken, "/product/3", 200, "Price: 18.65 EUR"},
		{Broken, "/product/2", 200, "A database query error has occurred"},
		{Broken, "/product/5", 200, "A database query error has occurred"},
		{Broken, "/about", 404, "not found"},
		{Broken, "/product/1", 200, "Price: 24.90 EUR"},
	}
	sites := map[Variant]*Site{}
	for _, v := range []Variant{Baseline, Broken} {
		s, err := Start(v)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		sites[v] = s
	}
	for _, tt := range tests {
		resp, err := http.Get(sites[tt.variant].base + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.has) {
			t.Errorf("variant %d %s: %d %q, want %d with %q", tt.variant, tt.path, resp.StatusCode, body, tt.status, tt.has)
		}
	}
}

// Two answers of a page differ in their token, time, ad slot and request number.
func TestAnswersVary(t *testing.T) {
	t.Parallel()
	s, err := Start(Baseline)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	var bodies [2]string
	for i := range bodies {
		resp, err := http.Get(s.URLs()[1])
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		bodies[i] = string(b)
	}
	if bodies[0] == bodies[1] || s.Requests() != 2 {
		t.Errorf("two answers equal, or %d requests counted", s.Requests())
	}
}
