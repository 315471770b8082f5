package userdata

import "fmt"

// Pick is how users take rows of a Table.
type Pick int

// The ways of picking rows. Sequential is the zero value, so a Table read without saying
// otherwise deals its rows out in order.
const (
	// Sequential gives user i row i mod N: with fewer users than rows each has its own
	// account, with more they share them in turn.
	Sequential Pick = iota
	// Random gives each user a row drawn from its own random source, so a run is repeated
	// with its seed.
	Random
	// Unique gives user i row i and refuses more users than rows (see Table.Check): for
	// sites that log an account out when it logs in twice.
	Unique
)

// picks names the picks as users type them, in the order of the constants.
var picks = [...]string{Sequential: "sequential", Random: "random", Unique: "unique"}

// String is the pick's name as ParsePick reads it.
func (p Pick) String() string {
	if p < 0 || int(p) >= len(picks) {
		return fmt.Sprintf("Pick(%d)", int(p))
	}
	return picks[p]
}

// ParsePick reads the name of a pick: sequential, random or unique.
func ParsePick(s string) (Pick, error) {
	for p, name := range picks {
		if s == name {
			return Pick(p), nil
		}
	}
	return 0, fmt.Errorf("want sequential, random or unique (got %q)", s)
}
