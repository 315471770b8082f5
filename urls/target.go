package urls

import (
	"errors"
	"fmt"

	"github.com/webload/webload/check"
	"github.com/webload/webload/extract"
)

// Target is one request a user can send. Bodies are read when the file is
// parsed so that a missing body file is reported before the load test starts
// rather than once per request.
type Target struct {
	// Method is upper case because siege only recognises upper-case keywords.
	Method string
	// URL is absolute, has no fragment and has unsafe bytes %-escaped, but is
	// otherwise kept byte for byte so that servers see what the file says.
	URL string
	// Body is nil when the line has none, which lets callers tell "no body"
	// from "empty body file".
	Body []byte
	// ContentType comes from a per-line "-T type;" directive; "" leaves the
	// choice to the run-wide default.
	ContentType string
	// Source is "FILE:LINE" (or "command line") so that reports about a
	// target can point back at the line that produced it.
	Source string
	// Weight is the URL's share of the traffic, from a "#@weight N" line before it (what
	// `webload urls import` writes: the page's visits). 0 means no weight was given; a list
	// with no weights at all is walked evenly.
	Weight float64
	// Checks are the URL's own response checks, from "#@check EXPR" lines before it; the
	// run's checks apply as well. Saved and fingerprinted only when there are some.
	Checks []check.Expr `json:",omitempty"`
	// Extracts take values out of the URL's response, from "#@extract NAME SOURCE" lines
	// before it, in their order. Saved and fingerprinted only when there are some.
	Extracts []extract.Rule `json:",omitempty"`
	// URLVars and BodyVars are URL and an inline Body when they refer to per-user variables
	// (see Options.PerUser): each user's request fills them in. URL and Body keep the
	// references as $(NAME), so a report has one row per line, whatever the users' values.
	// nil when the line has none, which is what keeps such lines' requests as cheap as ever.
	URLVars, BodyVars *Template `json:"-"`
}

// Options controls expansion. The zero value consults no environment, which
// keeps parsing reproducible in tests.
type Options struct {
	// Getenv looks up variables the file does not define (siege falls back to
	// the process environment); nil means none. cmd passes os.LookupEnv.
	Getenv func(name string) (string, bool)
	// AllowAbsoluteBodies lets a URL file's "<file" bodies name absolute paths. Without it only
	// paths inside the URL file's folder are read, so a URL file from elsewhere cannot send
	// any file the user can read. ParseLine always allows them: the user typed the path.
	AllowAbsoluteBodies bool
	// PerUser tells the names each user has its own value of at request time: the columns of
	// a --data file and the names a login file's #@extract lines set. A line's references to
	// them, and to the names of the input's own earlier #@extract lines, are left in the text
	// as $(NAME) and compiled into Target.URLVars and Target.BodyVars. nil: none.
	PerUser func(name string) bool
}

// LineError ties a problem to the line that caused it so users can fix the
// file without guessing. A Line of 0 means the problem concerns the whole
// input (for example an empty file).
type LineError struct {
	// File is the name given to Parse, so messages match what the user typed.
	File string
	// Line counts from 1; 0 means the error is not tied to one line.
	Line int
	// Err is the problem itself, kept so errors.Is can see sentinels.
	Err error
}

// Error formats the problem the way compilers do ("FILE:LINE: problem") so
// editors and terminals can jump to it.
func (e *LineError) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

// Unwrap exposes the underlying problem so callers can test for the sentinel
// errors with errors.Is.
func (e *LineError) Unwrap() error { return e.Err }

// Sentinel errors let callers react to a kind of problem without matching
// message text. They are always returned wrapped in a *LineError.
var (
	// ErrEmpty reports input without a single URL line: running a load test
	// with nothing to request is always a mistake.
	ErrEmpty = errors.New("no URLs")
	// ErrUndefinedVariable reports a reference to a variable that neither the
	// file nor Options.Getenv defines; siege would silently use "".
	ErrUndefinedVariable = errors.New("undefined variable")
	// ErrUnsupportedScheme reports a URL whose scheme is not http or https,
	// since nothing else can be load tested.
	ErrUnsupportedScheme = errors.New("unsupported scheme")
	// ErrLineTooLong reports a line over 16 MiB; siege drops such lines
	// silently, which hides broken files.
	ErrLineTooLong = errors.New("line longer than 16 MiB")
)
