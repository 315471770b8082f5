package check

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the units ParseSize reads, longest first so "KiB" is not read as "B". KB and
// KiB are both 1024 bytes, as the reports' MB are 2^20 bytes.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}}

// ParseSize reads a byte count with an optional unit, in any case: B, KB or KiB, MB or MiB, GB
// or GiB, all powers of 1024. It is the one reading of sizes for checks and the command line.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("want a size such as 512KB or 10MB (got %q)", s)
	}
	return n * mult, nil
}
