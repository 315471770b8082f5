package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// With -j a broken gate's verdict goes to stderr: stdout stays the one JSON document that
// `webload -j ... | jq` reads, whatever the gates say.
func TestJSONOutputStaysJSONWhenAGateBreaks(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	t.Cleanup(srv.Close)
	stdout, stderr, code := webload(t, nil, "-j", "-c", "1", "-r", "2", "--assert", "failed>=1", srv.URL+"/")
	var rep map[string]any
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Errorf("stdout is not one JSON document (%v):\n%s", err, stdout)
	}
	if code != 1 || !strings.Contains(stderr, "Gate failed") {
		t.Errorf("exit %d, stderr %q; want 1 and the broken gate", code, stderr)
	}
}
