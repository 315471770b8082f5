package loader

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/webload/webload/check"
	"github.com/webload/webload/content"
	"github.com/webload/webload/urls"
)

// Config describes a run. By default it is a closed model: Users virtual users, each sending
// one request at a time and waiting for its answer before the next, as siege does. With Rate
// set it is an open model: requests start on a fixed schedule whatever the server does.
type Config struct {
	// Users is the number of virtual users (siege's -c), each its own goroutine. Closed model only.
	Users int
	// Reps is the number of iterations per user (siege's -r) in the closed model, and the total
	// number of requests in the open model; 0 means no limit. One iteration is one request.
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
	// Rate, in arrivals per second, switches to the open model; 0 keeps the closed one. An
	// arrival is a request, or with browser-like options (see browser) a URL's visit, whose
	// redirects and page resources follow it unscheduled.
	Rate float64
	// MaxUsers caps the requests in flight at once in the open model. A request due while all
	// are busy waits for the first free one and keeps its intended start time, so the wait
	// counts in its latency.
	MaxUsers int
	// Ramp starts the users evenly over this time (closed model) or grows the rate linearly from
	// zero over it (open model).
	Ramp time.Duration
	// Delay is the upper bound of the uniform random pause a user takes after each request
	// (siege's -d). The pause is not part of any response time.
	Delay time.Duration
	// Timeout bounds a whole request: connect, write, headers and body, decoding included. A
	// request waiting on the network fails at most a hundredth of it later (see deadlines).
	Timeout time.Duration
	// UserAgent is sent with every request.
	UserAgent string
	// Headers are added to every request; a header of the same name replaces the default
	// (unlike siege, which sends both). A value's references $(NAME) to per-user variables
	// (see Data) are filled per request, such as "Bearer $(token)" with a token a login step
	// took; until the value is set the login steps go without the header, and other requests
	// are not sent (ErrExtract). Other $(...) text is sent as written.
	Headers []Header
	// AcceptEncoding is sent as the Accept-Encoding header when set; gzip, deflate and br
	// answers are decoded to count their decoded size.
	AcceptEncoding string
	// ContentType is sent with requests that carry a body, unless the target sets its own.
	ContentType string
	// ConnectionClose sends "Connection: close" so every request opens a new connection
	// (siege's "connection = close"); otherwise connections are kept alive.
	ConnectionClose bool
	// HTTP2 sends every request over HTTP/2 instead of HTTP/1.1, for sites that only speak it:
	// https targets must agree to "h2" in the TLS handshake (ALPN), http targets are spoken to
	// in h2c with prior knowledge. The users of a host then share one multiplexed connection
	// (another opens when the server's stream limit fills it) instead of holding one each.
	// Cookies, redirects, pages, bodies and results are as over HTTP/1.1; HeaderBuffer does not
	// apply (an answer's header list may reach 10 MB), and requests the server refused
	// unprocessed (REFUSED_STREAM, a GOAWAY before their stream) are sent again within Timeout.
	//
	// The HTTP/2 client is webload's own, on golang.org/x/net/http2's framer and HPACK coder:
	// it sends fasthttp's request and fills fasthttp's response directly, with a few
	// allocations per request (BenchmarkSendHTTP2Client).
	// Cannot be combined with ConnectionClose.
	HTTP2 bool
	// Insecure skips TLS certificate verification (curl's --insecure). Verification is on
	// otherwise, against the system's roots plus CACert.
	Insecure bool
	// CACert names a PEM file of extra root certificates to trust, added to the system's
	// (only these when the system's cannot be loaded). Read once, by New.
	CACert string
	// ClientCert and ClientKey name the PEM files of a client certificate and its private key,
	// sent to every server that asks for one. Both or neither.
	ClientCert, ClientKey string
	// Proxy is the URL of an HTTP proxy, http://[user:pass@]host:port. Every connection is
	// then a CONNECT tunnel through it, for http:// targets too, and the proxy resolves the
	// targets' host names.
	Proxy string
	// Resolve points host names at addresses, as curl's --resolve does: each entry is
	// "HOST:PORT:ADDR[,ADDR...]" (HOST "*" for any host; ADDR an IP address, IPv6 in brackets or
	// not), and the connections for HOST:PORT go to ADDR:PORT, each ADDR tried in turn until one
	// answers. The Host header, TLS server name and certificate check, cookies, redirects and
	// resources keep the URL's host: this is how one URL list runs against another stack by name.
	// The last entry for a HOST:PORT wins, and one for the host beats "*". Through Proxy, the
	// proxy resolves the URLs' names, so only an entry for the proxy's own host and port applies.
	Resolve []string `json:",omitempty"`
	// ConnectTo sends the connections for one host and port to another, as curl's
	// --connect-to does: each entry is "HOST1:PORT1:HOST2:PORT2", an empty HOST1 or PORT1
	// matching any, an empty HOST2 or PORT2 keeping the original, IPv6 addresses in brackets.
	// The first entry that matches is used, then Resolve applies to HOST2:PORT2. Like Resolve it
	// changes no name a request carries; through Proxy it changes the tunnel's CONNECT target.
	ConnectTo []string `json:",omitempty"`
	// MaxBody caps the bytes of a response body that are read, as received and once decoded
	// (a few KB of gzip or br can decode to gigabytes); a longer body is a failure of kind
	// ErrTooLarge and its connection is dropped. 0 means no cap. Bodies are read and counted,
	// never kept, so memory does not grow with their size either way.
	MaxBody int64
	// Checks are response checks that the answers to every URL of the list must pass, besides
	// a target's own (urls.Target.Checks). A response that fails one is a failure of kind
	// ErrCheck: its status is kept and its body counts as received. What a URL answered is
	// checked: its response, or the last of its redirects when they are followed; the
	// redirects on the way, page resources and login steps are not.
	Checks []check.Expr `json:",omitempty"`
	// CheckBody is how many bytes of a decoded body the body checks read. They judge an answer
	// after its last byte, off its time, so each user holds its answer's decoded body, up to
	// this, from its first byte to the end of the checks, in a buffer the users share between
	// answers. Of a longer body they read the start: a condition it does not decide fails,
	// saying so. 0 (or less) picks DefaultCheckBody.
	CheckBody int `json:",omitempty"`
	// HeaderBuffer is the bytes each request in flight may use for the response's status line
	// and headers; a longer header block is a bad-response failure. 0 picks 16 KiB, or less
	// (down to 4 KiB) when there are so many users that the buffers would pass 40 MiB.
	HeaderBuffer int
	// Parser fetches the resources of every HTML page like a browser (siege's "parser"):
	// images, scripts, stylesheets and icons on the page's host or ResourceHosts, each once per
	// user unless NoCache (the open model's users share one cache: its arrivals are returning
	// visitors), over up to ParallelResources connections of the user. It also follows the
	// <meta http-equiv=refresh> of 2xx HTML pages at once, whatever their delay, as siege does
	// with its parser on, even without FollowRedirects (see Result.Refresh); without Parser,
	// FollowRedirects follows them as redirects.
	Parser bool
	// ResourceHosts are more hosts (host or host:port) whose resources are fetched, such as a
	// CDN, matched by the rule of urls.HostPattern; an entry that is no host pattern matches
	// nothing.
	ResourceHosts []string
	// NoCache fetches a page's resources on every visit instead of once per user (or once per
	// open-model run).
	NoCache bool
	// NameRequests makes every redirect hop and resource say what it requested (Result.Req,
	// read with Loader.Request), for a log of each request such as siege's -v. It costs a lock
	// and a map lookup per such request and keeps each distinct URL (up to 2^20) for the run.
	NameRequests bool
	// LazyImages also fetches the images a page marks loading="lazy", which browsers leave
	// until the visitor scrolls near them (see page.Options).
	LazyImages bool
	// ParallelResources is how many resources a user fetches at once; 0 means 6, as browsers do.
	ParallelResources int
	// Cookies gives every user a cookie jar (RFC 6265 rules): cookies set by responses are sent
	// back by that user's later requests.
	Cookies bool
	// FollowRedirects follows 301, 302, 303, 307 and 308 answers, up to MaxRedirects hops,
	// each hop a transaction (siege's "follow-location"). Hops are only followed to hosts of
	// the URL list (by the rule of urls.HostPattern), unless FollowAnyHost.
	FollowRedirects bool
	// MaxRedirects bounds the hops of one URL, redirects and meta refreshes together; 0 means
	// 10. A redirect answer or refresh past them (a loop, or a longer chain) is a failure of
	// kind ErrTooManyHops, and so is its page.
	MaxRedirects int
	// FollowAnyHost follows redirects to any host. Off by default, so a load test is never
	// steered onto a third party's site.
	FollowAnyHost bool
	// AuthAnyHost sends the secret headers of Headers (Authorization, as -u sets it, Cookie,
	// X-Api-Key... see SecretHeader) to every host. By default they go only to the host and
	// port of the URL they are sent for, as curl does: a redirect (FollowAnyHost) or a
	// resource (ResourceHosts) on another host or port gets the request without them.
	AuthAnyHost bool
	// Secrets are credentials of the run that its headers and URLs do not show (the --db
	// passwords): a page that prints one, in any form (see package mask), has it hidden in
	// fingerprints and error messages, as the secret headers' values and URL passwords are.
	Secrets []string
	// Login lists requests every user makes once, in order, before its first URL (siege's
	// login-url), such as a form POST that sets a session cookie.
	Login []urls.Target
	// Data gives each user its own variables (--data): the columns of its row. A target's
	// URLVars and BodyVars, and the values of Headers, refer to them as $(NAME), alongside the
	// values the targets' Extracts take from responses. nil: no data file.
	Data UserData
	// ReloginEvery makes a user log in again after this many of its URL visits: the Login
	// steps again, with an empty cookie jar and no extracted values (its data row stays).
	// 0: once, before the user's first URL.
	ReloginEvery int
	// Volatile are regular expressions for what varies from answer to answer beyond what the
	// content fingerprints learn by themselves (see package content): a match within a tag's
	// attribute or a line of text is left out of the URL's fingerprint.
	Volatile []string `json:",omitempty"`
	// Shard and Shards make this run one of Shards parts of the run the rest of the Config
	// describes (0-based Shard): the closed model's users are split as evenly as possible, each
	// keeping the URL plan it has in the whole run; the open model's schedule is dealt out
	// request by request, so shard s sends requests s, s+Shards, s+2·Shards... Together the
	// shards send exactly the whole run's requests. Shards 0 or 1 is the whole run.
	Shard, Shards int
	// MaxFailures stops the run once this many requests got no response (siege's "failures"
	// setting); 0 means never.
	MaxFailures int64
	// BatchSize is how many results a user collects before handing them to the sink; 1 hands
	// over each result at once (needed for live per-request output). 0 means 256, fewer
	// when there are more than 256 users.
	BatchSize int
	// FlushInterval bounds how long a result may wait in a partly filled batch; 0 means 100 ms.
	FlushInterval time.Duration
	// SettingName, if set, is how the loader's messages (errors, and the error samples of
	// Outcome) name a Config field such as "HeaderBuffer": a command line passes the names of
	// its flags, so that users read the words they typed. nil, or "", names the field itself.
	// It changes no request, so it is no part of a run's fingerprint (no JSON).
	SettingName func(field string) string `json:"-"`

	// probe keeps the head of each answer as it came on the wire, for ProbeOnce.
	probe bool
	// noLoop keeps the run off the event loop (see loopable), for tests that compare the
	// engines.
	noLoop bool
	// noPwait2 makes the event loop wait in milliseconds, as where epoll_pwait2 is missing,
	// for tests of that way.
	noPwait2 bool
	// awaitFrom is how many connections a run may hold before its users wait for their
	// answers before taking read buffers (awaitsAnswers); 0 is awaitFromDefault.
	awaitFrom int
}

// Header is one request header, kept in the order given.
type Header struct {
	Name, Value string
}

// Errors returned by Validate and New.
var (
	ErrNoUsers       = errors.New("the number of users must be at least 1")
	ErrNegativeReps  = errors.New("the number of repetitions must not be negative")
	ErrOnceWithReps  = errors.New("the Once setting cannot be combined with a repetition count")
	ErrBadTimeout    = errors.New("the timeout must be positive")
	ErrNegativeDelay = errors.New("the delay must not be negative")
	// ErrNegativeRelogin reports a negative Config.ReloginEvery.
	ErrNegativeRelogin = errors.New("the relogin interval must not be negative")
	ErrNegativeTime    = errors.New("the run time must not be negative")
	ErrNoTargets       = errors.New("no URLs to load")
	ErrBadRate         = errors.New("the rate must be a finite, non-negative number of requests per second")
	ErrNoMaxUsers      = errors.New("the open model needs at least 1 user")
	ErrNegativeRamp    = errors.New("the ramp must not be negative")
	ErrBadShard        = errors.New("the shard must be from 0 to the number of shards - 1")
	ErrCertNoKey       = errors.New("the ClientCert and ClientKey settings must be given together")
	ErrBadProxy        = errors.New("bad Proxy setting")
	ErrHTTP2Close      = errors.New("the HTTP2 setting cannot be combined with ConnectionClose")
	ErrBadVolatile     = errors.New("bad Volatile pattern")
)

// The errors above that name Config fields are returned wrapped, in words that name the
// fields through Config.SettingName; errors.Is still finds them.

// name is what messages call the Config field: its SettingName, or the field's own name.
func (c *Config) name(field string) string {
	if c.SettingName != nil {
		if n := c.SettingName(field); n != "" {
			return n
		}
	}
	return field
}

// settingError is sentinel err in the words of format, whose verbs are the names of fields.
func (c *Config) settingError(err error, format string, fields ...string) error {
	names := make([]any, len(fields))
	for i, f := range fields {
		names[i] = c.name(f)
	}
	return describedError{msg: fmt.Sprintf(format, names...), err: err}
}

// Validate reports the first setting that cannot work.
func (c *Config) Validate() error {
	switch {
	case !(c.Rate >= 0 && c.Rate <= math.MaxFloat64): // NaN fails both comparisons
		return ErrBadRate
	case c.Rate > 0 && c.MaxUsers < 1:
		return fmt.Errorf("%w (got %d)", ErrNoMaxUsers, c.MaxUsers)
	case c.Rate == 0 && c.Users < 1:
		return fmt.Errorf("%w (got %d)", ErrNoUsers, c.Users)
	case c.Ramp < 0:
		return ErrNegativeRamp
	case c.Reps < 0:
		return ErrNegativeReps
	case c.Once && c.Reps != 0:
		return c.settingError(ErrOnceWithReps, "%s cannot be combined with a repetition count", "Once")
	case c.Timeout <= 0:
		return ErrBadTimeout
	case c.Delay < 0:
		return ErrNegativeDelay
	case c.ReloginEvery < 0:
		return c.settingError(ErrNegativeRelogin, "%s cannot be negative", "ReloginEvery")
	case c.Duration < 0:
		return ErrNegativeTime
	case (c.ClientCert == "") != (c.ClientKey == ""):
		return c.certNoKey()
	case c.Shards < 0 || c.Shard < 0 || (c.Shards > 0 && c.Shard >= c.Shards):
		return fmt.Errorf("%w (shard %d of %d)", ErrBadShard, c.Shard, c.Shards)
	case c.HTTP2 && c.ConnectionClose:
		return c.settingError(ErrHTTP2Close, "%s cannot be combined with %s", "HTTP2", "ConnectionClose")
	}
	if c.Proxy != "" {
		if _, err := parseProxy(c.Proxy, c.name("Proxy")); err != nil {
			return err
		}
	}
	if _, err := content.CompileVolatile(c.Volatile); err != nil {
		return describedError{msg: fmt.Sprintf("%s: %v", c.name("Volatile"), err), err: ErrBadVolatile}
	}
	_, err := parseRoutes(c)
	return err
}

// open tells whether the run uses the open model.
func (c *Config) open() bool { return c.Rate > 0 }

// concurrency is the most requests the run can have in flight.
func (c *Config) concurrency() int {
	if c.open() {
		return c.MaxUsers
	}
	return c.Users
}

func (c *Config) batchSize() int {
	if c.BatchSize <= 0 {
		// Every user holds a batch: 256 results (12 KiB) each would take 120 MB at 10 000
		// users, so the batches together hold at most about 64 Ki results.
		return min(256, max(4, 1<<16/c.concurrency()))
	}
	return c.BatchSize
}

// shardUsers is the range of the closed model's user ids this shard runs.
func (c *Config) shardUsers() (lo, hi int) {
	if c.Shards <= 1 {
		return 0, c.Users
	}
	return c.Shard * c.Users / c.Shards, (c.Shard + 1) * c.Users / c.Shards
}

// ShardEmpty tells whether this shard has none of the run's load: in the closed model no user
// (more shards than users), in the open model none of a run of Reps requests (more shards than
// requests). Such a shard sends nothing, and its empty result still merges with the others'.
func (c *Config) ShardEmpty() bool {
	if c.Shards <= 1 {
		return false
	}
	if c.open() {
		return c.Reps > 0 && ownedBefore(c, int64(c.Reps)) == 0
	}
	lo, hi := c.shardUsers()
	return lo == hi
}

// ownsRequest tells whether request i of the open model's schedule is this shard's.
func (c *Config) ownsRequest(i int64) bool {
	return c.Shards <= 1 || i%int64(c.Shards) == int64(c.Shard)
}

// browser tells whether users visit pages (resources, cookies, redirects, logins) rather than
// send one request per URL.
func (c *Config) browser() bool {
	return c.Parser || c.Cookies || c.FollowRedirects || len(c.Login) > 0
}

// readsPages tells whether visits read HTML pages: for their resources with the parser, else
// for their meta refresh, which is followed wherever redirects are.
func (c *Config) readsPages() bool { return c.Parser || c.FollowRedirects }

func (c *Config) maxRedirects() int {
	if c.MaxRedirects <= 0 {
		return 10
	}
	return c.MaxRedirects
}

func (c *Config) parallelResources() int {
	if c.ParallelResources <= 0 {
		return 6
	}
	return c.ParallelResources
}

// awaitFromDefault is where the read buffers waiting users would hold (ReadBufferSize, 4 to
// 16 KiB each) reach megabytes: from there the look at the socket that spares them is worth
// its system call.
const awaitFromDefault = 1024

// awaitsAnswers tells whether users wait for their answers before taking read buffers (see
// wireConn.SetReadDeadline): when the run may hold awaitFrom connections or more.
func (c *Config) awaitsAnswers() bool {
	from := c.awaitFrom
	if from <= 0 {
		from = awaitFromDefault
	}
	return c.concurrency()*c.connsPerUser() >= from
}

// connsPerUser is the most connections to one host a user may hold at once.
func (c *Config) connsPerUser() int {
	if c.Parser {
		return c.parallelResources()
	}
	return 1
}

// idleConn is how long an unused kept-alive connection stays open: longer than the longest
// pause between a user's requests, so the pause does not cost a new connection.
func (c *Config) idleConn() time.Duration {
	return max(10*time.Second, 2*c.Delay)
}

// MaxHeaderBuffer is the largest Config.HeaderBuffer that makes sense: response headers are
// rarely longer than a few kilobytes, and every request in flight holds its buffer.
const MaxHeaderBuffer = 1 << 20

// DefaultCheckBody is Config.CheckBody's default, 4 MiB: twice the HTML that pages are parsed
// for, so the bodies of pages and of most API answers are checked whole.
const DefaultCheckBody = 4 << 20

func (c *Config) checkBody() int {
	if c.CheckBody > 0 {
		return c.CheckBody
	}
	return DefaultCheckBody
}

func (c *Config) headerBuffer() int {
	if c.HeaderBuffer > 0 {
		return c.HeaderBuffer
	}
	size := 16 << 10
	for size > 4<<10 && size*c.concurrency() > 40<<20 {
		size /= 2
	}
	return size
}

func (c *Config) flushInterval() time.Duration {
	if c.FlushInterval <= 0 {
		return 100 * time.Millisecond
	}
	return c.FlushInterval
}
