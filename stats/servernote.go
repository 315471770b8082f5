package stats

import (
	"strings"

	"github.com/webload/webload/sysload"
)

// ServerNotes says, when any of runs read the server's load with --server-metrics local, that
// their LA and MEM describe the load machine, not the server: the figures would otherwise
// pass for the site's. labels name the runs as the table does.
func ServerNotes(runs []Report, labels []string) []string {
	var local []string
	for i := range runs {
		if localServer(&runs[i]) {
			local = append(local, labels[i])
		}
	}
	if len(local) == 0 {
		return nil
	}
	who := "in " + strings.Join(local, ", ")
	if len(local) == len(runs) {
		who = "in every run"
	}
	return []string{localServerMark + " LA and MEM were read on the load machine itself (--server-metrics local) " + who +
		": they show the load generator's load, not the server's"}
}

// localServerMark flags the LA and MEM columns when ServerNotes has a note for them.
const localServerMark = "†"

// localServer tells whether a run, or a run of its series, read the load of the load machine.
func localServer(r *Report) bool {
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
