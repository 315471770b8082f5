package loader

import "math/rand/v2"

// Picker chooses the target of a user's next request. Each user owns its picker, so
// implementations need no locking.
type Picker interface {
	Next() int
}

// sequential walks the list in order from a start offset, wrapping around (siege without -i).
type sequential struct {
	pos, n int
}

func (s *sequential) Next() int {
	i := s.pos
	s.pos++
	if s.pos == s.n {
		s.pos = 0
	}
	return i
}

// uniform picks any target with equal probability (siege's -i, without its bias toward the
// last entry).
type uniform struct {
	rng *rand.Rand
	n   int
}

func (u *uniform) Next() int { return u.rng.IntN(u.n) }

// plan is what one user will do: where its walk starts and how many requests it makes
// (-1 for no limit).
type plan struct {
	picker Picker
	reps   int
}

// planFor gives user id of users its picker and request count. Users start at staggered offsets
// id*n/users so that they spread over the list, and with -r equal to the list length every user
// fetches every URL exactly once. siege computes id*(n/users), which puts every user on the first
// URL when there are more users than URLs.
//
// With weights (m non-nil), users walk the weighted walk from offsets spread the same way, so
// with -r the users together cover the walk exactly once and every URL gets its share; -i draws
// in proportion to the weights. -r once ignores weights: it means every URL once.
//
// A list that is a flow (flow set: its lines take values from earlier lines' answers) is
// walked by every user from its first line, since a walk that starts in the middle would
// need values nobody took yet.
func planFor(cfg *Config, id, n int, rng *rand.Rand, m *mix, flow bool) plan {
	lo := id * n / cfg.Users
	reps := repsOrUnlimited(cfg.Reps)
	switch {
	case cfg.Once:
		hi := (id + 1) * n / cfg.Users
		return plan{picker: &sequential{pos: lo, n: n}, reps: hi - lo}
	case cfg.Random && m != nil:
		return plan{picker: &weighted{rng: rng, a: &m.alias}, reps: reps}
	case cfg.Random:
		return plan{picker: &uniform{rng: rng, n: n}, reps: reps}
	case m != nil:
		return plan{picker: &walker{walk: m.walk, pos: id * len(m.walk) / cfg.Users}, reps: reps}
	default:
		if flow {
			lo = 0
		}
		return plan{picker: &sequential{pos: lo % n, n: n}, reps: reps}
	}
}

// openPicker is the open model's single picker, owned by its dispatcher.
func openPicker(cfg *Config, n int, m *mix) Picker {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0))
	switch {
	case cfg.Once:
		return &sequential{n: n}
	case cfg.Random && m != nil:
		return &weighted{rng: rng, a: &m.alias}
	case cfg.Random:
		return &uniform{rng: rng, n: n}
	case m != nil:
		return &walker{walk: m.walk}
	}
	return &sequential{n: n}
}

func repsOrUnlimited(reps int) int {
	if reps == 0 {
		return -1
	}
	return reps
}
