package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestFailedChecksKeepTheirStatus: an answer that fails a check keeps its status in
// status_codes, overall and per URL, as every response does; check_status_codes says which of
// them failed a check, so that the text's failures by cause count a failed 500 once.
func TestFailedChecksKeepTheirStatus(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gone":
			w.WriteHeader(http.StatusNotFound)
		case "/broken":
			w.WriteHeader(http.StatusInternalServerError)
		}
		_, _ = w.Write([]byte("hello"))
	}))
	t.Cleanup(srv.Close)
	list := filepath.Join(t.TempDir(), "urls.txt")
	content := srv.URL + "/ok\n" + srv.URL + "/gone\n#@check body~\"nothing like this\"\n" + srv.URL + "/broken\n"
	if err := os.WriteFile(list, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r.json")
	stdout, stderr, code := webload(t, nil, "-o", out, "-f", list, "--no-parser", "-c", "1", "-r", "6",
		"--check", "status!=404")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var rep struct {
		StatusCodes      map[string]int64 `json:"status_codes"`
		CheckStatusCodes map[string]int64 `json:"check_status_codes"`
		Errors           map[string]int64 `json:"errors"`
		Failed           int64            `json:"failed_transactions"`
		URLs             []struct {
			StatusCodes      map[string]int64 `json:"status_codes"`
			CheckStatusCodes map[string]int64 `json:"check_status_codes"`
		} `json:"urls"`
	}
	saved, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(saved, &rep); err != nil {
		t.Fatal(err)
	}
	if want := map[string]int64{"200": 2, "404": 2, "500": 2}; !reflect.DeepEqual(rep.StatusCodes, want) {
		t.Errorf("status_codes %v, want %v", rep.StatusCodes, want)
	}
	if want := map[string]int64{"404": 2, "500": 2}; !reflect.DeepEqual(rep.CheckStatusCodes, want) {
		t.Errorf("check_status_codes %v, want %v", rep.CheckStatusCodes, want)
	}
	if rep.Errors["check"] != 4 || rep.Failed != 4 {
		t.Errorf("errors %v, failed %d; want 4 failed checks and 4 failures", rep.Errors, rep.Failed)
	}
	wantURLs := []map[string]int64{{"200": 2}, {"404": 2}, {"500": 2}}
	for i, u := range rep.URLs {
		if !reflect.DeepEqual(u.StatusCodes, wantURLs[i]) {
			t.Errorf("URL %d status_codes %v, want %v", i, u.StatusCodes, wantURLs[i])
		}
	}
	for _, want := range []string{"Status codes:\t\t200: 2, 404: 2, 500: 2\n", "Failed requests:\tcheck: 4\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the text lacks %q:\n%s", want, stdout)
		}
	}
}
