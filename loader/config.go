package loader

import (
	"errors"
	"fmt"
	"time"
)

// Config describes a closed-model run: Users virtual users, each sending one request at a time
// and waiting for its answer before the next, as siege does.
type Config struct {
	// Users is the number of virtual users (siege's -c), each its own goroutine.
	Users int
	// Reps is the number of iterations per user (siege's -r); 0 means no limit. One iteration
	// is one request to one URL.
	Reps int
	// Once splits the URL list into contiguous slices, one per user, so each URL is fetched
	// exactly once in total (siege's -r once). Reps must be 0.
	Once bool
	// Duration stops the run after this long (siege's -t); 0 means no limit. When both Reps
	// and Duration are set the run ends at whichever comes first.
	Duration time.Duration
	// Random picks each URL at random instead of walking the list (siege's -i).
	Random bool
	// Seed makes random choices (URLs and delays) reproducible.
	Seed uint64
	// Delay is the upper bound of the uniform random pause a user takes after each request
	// (siege's -d). The pause is not part of any response time.
	Delay time.Duration
	// Timeout bounds a whole request: connect, write, headers and body.
	Timeout time.Duration
	// UserAgent is sent with every request.
	UserAgent string
	// Headers are added to every request; a header of the same name replaces the default
	// (unlike siege, which sends both).
	Headers []Header
	// ContentType is sent with requests that carry a body, unless the target sets its own.
	ContentType string
	// ConnectionClose sends "Connection: close" so every request opens a new connection
	// (siege's "connection = close"); otherwise connections are kept alive.
	ConnectionClose bool
	// Insecure skips TLS certificate verification.
	Insecure bool
	// BatchSize is how many results a user collects before handing them to the sink; 1 hands
	// over each result at once (needed for live per-request output). 0 means 256.
	BatchSize int
	// FlushInterval bounds how long a result may wait in a partly filled batch; 0 means 100 ms.
	FlushInterval time.Duration
}

// Header is one request header, kept in the order given.
type Header struct {
	Name, Value string
}

// Errors returned by Validate and New.
var (
	ErrNoUsers       = errors.New("the number of users must be at least 1")
	ErrNegativeReps  = errors.New("the number of repetitions must not be negative")
	ErrOnceWithReps  = errors.New("-r once cannot be combined with a repetition count")
	ErrBadTimeout    = errors.New("the timeout must be positive")
	ErrNegativeDelay = errors.New("the delay must not be negative")
	ErrNegativeTime  = errors.New("the run time must not be negative")
	ErrNoTargets     = errors.New("no URLs to load")
)

// Validate reports the first setting that cannot work.
func (c *Config) Validate() error {
	switch {
	case c.Users < 1:
		return fmt.Errorf("%w (got %d)", ErrNoUsers, c.Users)
	case c.Reps < 0:
		return ErrNegativeReps
	case c.Once && c.Reps != 0:
		return ErrOnceWithReps
	case c.Timeout <= 0:
		return ErrBadTimeout
	case c.Delay < 0:
		return ErrNegativeDelay
	case c.Duration < 0:
		return ErrNegativeTime
	}
	return nil
}

func (c *Config) batchSize() int {
	if c.BatchSize <= 0 {
		return 256
	}
	return c.BatchSize
}

func (c *Config) flushInterval() time.Duration {
	if c.FlushInterval <= 0 {
		return 100 * time.Millisecond
	}
	return c.FlushInterval
}
