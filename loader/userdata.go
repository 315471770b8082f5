package loader

import "math/rand/v2"

// UserData is what a run's users take their own variables from (Config.Data), such as the
// rows of a CSV file (package userdata). It is read by every user at once, so it must not
// change once the run has started.
type UserData interface {
	// Names are the variables, in the order of a row's values.
	Names() []string
	// Row is the values of user's variables, in the order of Names. rng is the user's own
	// random source (for a random pick); the row is the caller's to read, not to modify.
	Row(user int, rng *rand.Rand) []string
}
