package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webload/webload/internal/browsertest"
	"github.com/webload/webload/stats"
)

// stepsPage is one page of results whose section of step charts (a ladder's, a capacity
// search's) is checked in the browser.
type stepsPage struct {
	name    string
	results []stats.Report
	charts  int      // charts the section draws
	rows    int      // rows of its tables of steps
	legend  []string // what the charts' legend names, when there are charts
}

// checkStepsPage renders p's results into dir, opens the page in the browser of ctx and checks
// the section with id section: its charts, the rows of its table.tableClass tables, its
// legend, and that the page reported no problem.
func checkStepsPage(t *testing.T, ctx context.Context, dir, section, tableClass string, p stepsPage) {
	t.Helper()
	path := filepath.Join(dir, p.name+".html")
	if err := os.WriteFile(path, render(t, p.results, Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	page := browsertest.Open(t, ctx, path, `document.documentElement.dataset.ready === "yes"`)
	query := fmt.Sprintf(`document.querySelectorAll("#%s .chart").length`, section)
	if n := browsertest.Eval[int](page, query); n != p.charts {
		t.Errorf("%s: %d %s charts, want %d", p.name, n, section, p.charts)
	}
	query = fmt.Sprintf(`document.querySelectorAll("#%s table.%s tbody tr").length`, section, tableClass)
	if n := browsertest.Eval[int](page, query); n != p.rows {
		t.Errorf("%s: %d step rows, want %d", p.name, n, p.rows)
	}
	if p.charts > 0 {
		query = fmt.Sprintf(`[...document.querySelectorAll("#%s .u-legend th")].map((th) => th.textContent.trim()).join("|")`, section)
		legend := browsertest.Eval[string](page, query)
		for _, want := range p.legend {
			if !strings.Contains(legend, want) {
				t.Errorf("%s: legend %q lacks %q", p.name, legend, want)
			}
		}
	}
	if problems := page.Problems(); len(problems) > 0 {
		t.Errorf("%s: the page reported problems:\n%s", p.name, strings.Join(problems, "\n"))
	}
}
