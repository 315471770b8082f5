package judge

import (
	"strings"

	"github.com/webload/webload/stats"
	"github.com/webload/webload/sysload"
)

// ServerNotes says, when any of runs read the server's load with --server-metrics local, that
// their LA and MEM describe the load machine, not the server: the figures would otherwise
// pass for the site's. labels name the runs as the table does.
func ServerNotes(runs []stats.Report, labels []string) []string {
	who := localRuns(runs, labels)
	if who == "" {
		return nil
	}
	return []string{serverNote(who)}
}

// serverNote is the note for the runs who ("in every run", "in A, B") read the load machine.
func serverNote(who string) string {
	return localServerMark + " LA and MEM were read on the load machine itself (--server-metrics local) " + who +
		": they show the load generator's load, not the server's"
}

// localRuns names the runs that read the load machine: "in every run", "in A, B" or "".
func localRuns(runs []stats.Report, labels []string) string {
	var local []string
	for i := range runs {
		if localServer(&runs[i]) {
			local = append(local, labels[i])
		}
	}
	switch len(local) {
	case 0:
		return ""
	case len(runs):
		return "in every run"
	}
	return "in " + strings.Join(local, ", ")
}

// localServerMark flags the LA and MEM columns when ServerNotes has a note for them.
const localServerMark = "†"

// localServer tells whether a run, or a run of its series, read the load of the load machine.
func localServer(r *stats.Report) bool {
	if r.Server != nil && r.Server.Source == sysload.LocalSpec {
		return true
	}
	for i := range r.Repeats {
		if localServer(&r.Repeats[i]) {
			return true
		}
	}
	return false
}

// serverColumn tells the columns that read the server's load.
func serverColumn(key string) bool { return key == "la" || key == "mem" }

// columnMark flags a column header whose column has a note.
func columnMark(col ColumnInfo) string {
	if col.Note != "" {
		return localServerMark
	}
	return ""
}

// noteLocalServer marks the LA and MEM columns and adds ServerNotes' note when a run compared
// read the load machine.
func (c *Comparison) noteLocalServer() {
	labels := make([]string, len(c.Rows))
	for i := range c.Rows {
		labels[i] = c.Rows[i].Label
	}
	who := localRuns(c.reports, labels)
	if who == "" {
		return
	}
	c.Notes = append(c.Notes, serverNote(who))
	for i := range c.Columns {
		if serverColumn(c.Columns[i].Key) {
			c.Columns[i].Note = "read on the load machine (--server-metrics local), not the server, " + who
		}
	}
}
