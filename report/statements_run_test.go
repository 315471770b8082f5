package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/internal/browsertest"
	"github.com/webload/webload/stats"
)

// withStatements is a small result whose database listed a fast statement and a slow one
// (6 slow calls of 6, its slowest 201 ms), and summed 3 others.
func withStatements(label string, seed uint64) stats.Report {
	r := small(label, seed)
	r.Run.StartedAt = dbStart
	q := int64(1000)
	ms := time.Millisecond
	fastMax, slowMax := 2*ms, 201*ms
	st := &dbload.Statements{Source: dbload.StatementsMySQL, Top: 2, Digests: 5, Calls: 1000, Total: 2 * time.Second,
		SlowThreshold: 100 * ms, SlowStatements: 1, SlowCalls: 6, OtherDigests: 3,
		List: []dbload.Statement{
			{ID: "a", Text: "SELECT name FROM items WHERE id = ?", Calls: 900, Total: 700 * ms, Mean: 700 * ms / 900, Max: &fastMax, SlowExact: true},
			{ID: "b", Text: "SELECT SLEEP(?)", Calls: 6, Total: 1206 * ms, Mean: 201 * ms, Max: &slowMax, SlowCalls: 6, SlowExact: true},
		},
		Other: dbload.Statement{Calls: 94, Total: 94 * ms, Mean: ms}}
	r.SetDatabases([]dbload.Summary{{Kind: dbload.KindMySQL, Samples: 2, Seconds: 20, Queries: &q, QueriesPerSec: 50, Statements: st}})
	return r
}

// runStatementsData is the statements of each run in the page's data.
func runStatementsData(t *testing.T, page []byte) []struct {
	Statements *decodedTable `json:"statements"`
	Note       string        `json:"statements_note"`
} {
	t.Helper()
	var d struct {
		Runs []struct {
			Statements *decodedTable `json:"statements"`
			Note       string        `json:"statements_note"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(dataBlob(t, page), &d); err != nil {
		t.Fatal(err)
	}
	return d.Runs
}

// A single run's page lists its statements, the slow one with its slow calls and slowest call,
// the others summed; a run without statements has no table.
func TestRunStatementsTable(t *testing.T) {
	t.Parallel()
	runs := runStatementsData(t, render(t, []stats.Report{withStatements("mariadb", 1)}, Options{}))
	st := runs[0].Statements
	if st == nil || len(st.Rows) != 3 || !strings.Contains(runs[0].Note, "1 had a call over 100ms, 6 slow calls") {
		t.Fatalf("statements %+v, note %q", st, runs[0].Note)
	}
	col := map[string]int{}
	for i, c := range st.Columns {
		col[c.Title] = i
	}
	text := func(row int, title string) string {
		i, ok := col[title]
		if !ok {
			t.Fatalf("no column %q in %+v", title, st.Columns)
		}
		c := st.Rows[row][i]
		if a, ok := c.([]any); ok {
			return fmt.Sprint(a[0])
		}
		return fmt.Sprint(c)
	}
	if got := text(1, "Statement (the database's normalised text)") + " | " + text(1, "slow calls") + " | " + text(1, "max ms") + " | " + text(1, "calls"); got != "SELECT SLEEP(?) | 6 | 201.0 | 6" {
		t.Errorf("the slow statement's row: %s", got)
	}
	if got := text(0, "slow calls"); got != "0" {
		t.Errorf("the fast statement has %s slow calls", got)
	}
	if got := text(2, "Statement (the database's normalised text)"); got != "(the other 3 statements)" {
		t.Errorf("last row %q", got)
	}
	if _, ok := col["blocks hit"]; ok {
		t.Error("a MySQL database's statements have PostgreSQL's blocks columns")
	}
	if plain := runStatementsData(t, render(t, []stats.Report{small("plain", 1)}, Options{})); plain[0].Statements != nil || plain[0].Note != "" {
		t.Errorf("a run without --db has statements %+v", plain[0])
	}
}

// In Chromium, the page of a run with statements shows them in a sortable table of their own
// section, under the run's label when there are several; a page without any keeps the section
// hidden.
func TestRunStatementsInBrowser(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	ctx := browsertest.Context(t)
	dir := t.TempDir()
	with := filepath.Join(dir, "with.html")
	if err := os.WriteFile(with, render(t, []stats.Report{withStatements("mariadb", 1), small("plain", 2)}, Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	page := browsertest.Open(t, ctx, with, `document.documentElement.dataset.ready === "yes"`)
	got := browsertest.Eval[[]string](page, `(() => {
		const sec = document.getElementById("statements");
		return [String(sec.hidden), [...sec.querySelectorAll("h3")].map((h) => h.textContent).join("|"),
			String(sec.querySelectorAll("table.statements tbody tr").length),
			[...sec.querySelectorAll("table.statements tbody tr")].map((tr) => tr.cells[0].textContent + "=" + tr.cells[7].textContent).join("|"),
			String(document.querySelector('#toc a[href="#statements"]') !== null)];
	})()`)
	want := []string{"false", "mariadb", "3", "SELECT name FROM items WHERE id = ?=0|SELECT SLEEP(?)=6|(the other 3 statements)=-", "true"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("statements section %q, want %q", got, want)
	}
	page.Click("#statements table.statements th:nth-child(8)") // slow calls, ascending
	page.Click("#statements table.statements th:nth-child(8)") // descending: the slow one first
	if first := browsertest.Eval[string](page, `document.querySelector("#statements table.statements tbody tr").cells[0].textContent`); first != "SELECT SLEEP(?)" {
		t.Errorf("sorted by slow calls, the first row is %q", first)
	}
	if p := page.Problems(); len(p) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(p, "\n"))
	}

	without := filepath.Join(dir, "without.html")
	if err := os.WriteFile(without, render(t, []stats.Report{small("plain", 2)}, Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	page = browsertest.Open(t, ctx, without, `document.documentElement.dataset.ready === "yes"`)
	if hidden := browsertest.Eval[bool](page, `document.getElementById("statements").hidden`); !hidden {
		t.Error("a page without statements shows their section")
	}
}
