package judge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/stats"
)

// A figure that grew from zero, such as failures on a stack that had none, is a change JSON cannot
// hold (+Inf): the comparison is still written, with the two values and no change figure.
func TestCompareJSONOfAChangeFromZero(t *testing.T) {
	t.Parallel()
	paths := []string{"/a", "/b"}
	base := siteRun("old.example", "old", 20, paths, map[string]answer{"/a": {200, 2000}, "/b": {200, 3000}})
	cand := siteRun("new.example", "new", 20, paths, map[string]answer{"/a": {200, 2000}, "/b": {500, 300}})
	cmp, err := Compare([]stats.Report{base, cand}, true)
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

// Runs of a few requests give percentiles whose 95 % intervals are unbounded on one side or
// both (one request cannot bound its median at all): such an interval is left out of the JSON,
// as are both of a cell's when one is, and every output of the comparison is written.
func TestCompareOfFewRequests(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	for _, n := range []int{1, 5, 19} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			base := fakeRun("old", 1, n, 10*ms, 5*ms, time.Second)
			cand := fakeRun("new", 2, n, 20*ms, 5*ms, time.Second)
			cmp, err := Compare([]stats.Report{base, cand}, true)
			if err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(cmp)
			if err != nil {
				t.Fatalf("the comparison of runs of %d requests is not written: %v", n, err)
			}
			var back struct {
				Rows []struct {
					Cells []struct {
						CI     []float64 `json:"ci"`
						BaseCI []float64 `json:"base_ci"`
					} `json:"cells"`
				} `json:"rows"`
			}
			if err := json.Unmarshal(out, &back); err != nil {
				t.Fatal(err)
			}
			for i, c := range back.Rows[1].Cells {
				if (c.CI == nil) != (c.BaseCI == nil) || c.CI != nil && (len(c.CI) != 2 || len(c.BaseCI) != 2) {
					t.Errorf("%s: intervals %v and %v, want both or neither, of two bounds", cmp.Columns[i].Key, c.BaseCI, c.CI)
				}
			}
			var text, md strings.Builder
			if err := cmp.WriteText(&text); err != nil || strings.Contains(text.String(), "NaN") {
				t.Errorf("text: %v\n%s", err, text.String())
			}
			if err := cmp.WriteMarkdown(&md); err != nil || strings.Contains(md.String(), "NaN") {
				t.Errorf("markdown: %v\n%s", err, md.String())
			}
		})
	}
}
