package stats

import (
	"encoding/json"
	"strings"
	"testing"
)

// A figure that grew from zero, such as failures on a stack that had none, is a change JSON cannot
// hold (+Inf): the comparison is still written, with the two values and no change figure.
func TestCompareJSONOfAChangeFromZero(t *testing.T) {
	t.Parallel()
	paths := []string{"/a", "/b"}
	base := siteRun("old.example", "old", 20, paths, map[string]answer{"/a": {200, 2000}, "/b": {200, 3000}})
	cand := siteRun("new.example", "new", 20, paths, map[string]answer{"/a": {200, 2000}, "/b": {500, 300}})
	cmp, err := Compare([]Report{base, cand}, true)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(cmp)
	if err != nil {
		t.Fatalf("a comparison whose failures grew from zero is not written: %v", err)
	}
	var back struct {
		Rows []struct {
			Cells []struct {
				Value  float64  `json:"value"`
				Change *float64 `json:"change"`
			} `json:"cells"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	failed := -1
	for i, c := range cmp.Columns {
		if c.Key == "failed" {
			failed = i
		}
	}
	if failed < 0 || len(back.Rows) != 2 {
		t.Fatalf("no failed column or rows in %s", out)
	}
	if c := back.Rows[1].Cells[failed]; c.Value != 20 || c.Change != nil {
		t.Errorf("failed cell %+v, want 20 failures and no change figure", c)
	}
	var text strings.Builder
	if err := cmp.WriteText(&text); err != nil || !strings.Contains(text.String(), "+Inf") {
		t.Errorf("the text still says the failures grew from zero: %v\n%s", err, text.String())
	}
}
