package judge

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/webload/webload/stats"
)

// runKind names the load a result measured: a capacity search's best step, a ladder's steps, a
// replayed log or a run (of one or several repeats).
func runKind(r *stats.Report) string {
	switch {
	case r.Capacity != nil:
		return "capacity search"
	case len(r.Steps) > 0:
		return "ladder"
	case r.Replay != nil:
		return "replay"
	}
	return "run"
}

// kindNote says which earlier results are another kind of run than the newest, "" when all are
// alike. Their figures measure another load: a history that switches kinds shows a step that
// is no change of the stack.
func kindNote(runs []stats.Report) string {
	if len(runs) < 2 {
		return ""
	}
	newest := runKind(&runs[len(runs)-1])
	others := map[string]int{}
	n := 0
	for i := range runs[:len(runs)-1] {
		if k := runKind(&runs[i]); k != newest {
			others[k]++
			n++
		}
	}
	if n == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(others)) {
		c := others[k]
		if c > 1 {
			k += "s"
			if strings.HasSuffix(k, "hs") {
				k = strings.TrimSuffix(k, "s") + "es" // searches
			}
		}
		parts = append(parts, fmt.Sprintf("%d %s", c, k))
	}
	return fmt.Sprintf("%d of the %d earlier results are not a %s like the newest (%s): their figures measure another load",
		n, len(runs)-1, newest, strings.Join(parts, ", "))
}
