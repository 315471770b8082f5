package replay

import (
	"fmt"
	"os"

	"github.com/webload/webload/internal/inputfile"
)

// checkReadTwice refuses a log that cannot be read twice, as a replay does (once to plan, once
// to send): a pipe or a device would give the plan its lines and the run none. A log that
// cannot be found is left to the opening, which says why.
func checkReadTwice(logs []string) error {
	for _, name := range logs {
		fi, err := os.Stat(name)
		if err != nil || fi.Mode().IsRegular() {
			continue
		}
		if fi.IsDir() {
			return fmt.Errorf("%s: a folder, not a log", name)
		}
		return fmt.Errorf("%s: not a regular file (%s): a replay reads its logs twice, to plan and to send; save it to a file first", name, inputfile.Kind(fi.Mode()))
	}
	return nil
}
