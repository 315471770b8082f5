package stats

import "strconv"

// Label names result i of a list, as the compare table, the HTML report and the JUnit suite
// show it: its --label, else its place, "run 1" for the first, so that unlabelled results still
// tell apart.
func Label(r *Report, i int) string {
	if r.Label != "" {
		return r.Label
	}
	return "run " + strconv.Itoa(i+1)
}
