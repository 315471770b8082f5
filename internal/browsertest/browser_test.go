package browsertest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRecordsWhatThePageDid checks the checker: a page that throws, logs an error and asks the
// network for an image must show all three.
func TestRecordsWhatThePageDid(t *testing.T) {
	t.Parallel()
	if _, err := Find(); err != nil {
		t.Skipf("browser test skipped: %v", err)
	}
	ctx := Context(t)
	path := filepath.Join(t.TempDir(), "bad.html")
	bad := `<!DOCTYPE html><title>bad</title><body>
<img src="http://example.invalid/pixel.png">
<script>
console.error("drawn badly");
setTimeout(() => { document.body.dataset.ready = "yes"; }, 0);
undefinedFunction();
</script>`
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	page := Open(t, ctx, path, `document.body.dataset.ready === "yes"`)
	problems := strings.Join(page.Problems(), "\n")
	for _, want := range []string{"undefinedFunction", "drawn badly"} {
		if !strings.Contains(problems, want) {
			t.Errorf("problems lack %q:\n%s", want, problems)
		}
	}
	requests := page.Requests()
	if len(requests) == 0 || !strings.HasPrefix(requests[0], "file://") {
		t.Errorf("requests %q, want the page's own first", requests)
	}
	if !slices.Contains(requests, "http://example.invalid/pixel.png") {
		t.Errorf("requests %q lack the image's", requests)
	}
	if n := Eval[int](page, `1 + 2`); n != 3 {
		t.Errorf("1 + 2 = %d", n)
	}
}
