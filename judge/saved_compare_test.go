package judge

import (
	"bytes"
	"testing"

	"github.com/webload/webload/stats"
)

func TestSavedResultsCompare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, base, other string }{
		{"closed-repeat", "closed", "repeat"},
		{"repeat-closed", "repeat", "closed"},
		{"open-closed", "open", "closed"},
		{"shard0-shard1", "shard0", "shard1"},
		{"closed-db-mysql", "closed", "db-mysql"},
		{"db-mysql-db-two", "db-mysql", "db-two"},
		{"login-extract-broken", "login-extract", "login-extract-broken"},
		{"ladder-ladder-b", "ladder", "ladder-b"},
		{"closed-ladder", "closed", "ladder"},
		{"capacity-capacity-b", "capacity", "capacity-b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmp, err := Compare([]stats.Report{loadSaved(t, tc.base), loadSaved(t, tc.other)}, true)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := cmp.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			savedGolden(t, "compare-"+tc.name+".txt", b.Bytes())
			savedGolden(t, "compare-"+tc.name+".json", jsonOf(t, cmp))
		})
	}
}
