package stats

import (
	"encoding/json"
	"math"
	"time"

	"github.com/webload/webload/content"
	"github.com/webload/webload/dbload"
	"github.com/webload/webload/sysload"
)

// Report is a run's result as -j prints it and -o writes it: the JSON view of its figures (see
// figures.report and figures.load), and what the text and HTML reports, gates and comparisons
// read. The first twelve fields are siege's JSON keys with siege's units (seconds, MB of
// 2^20 bytes, per second), so tools that read siege's JSON keep working.
type Report struct {
	Transactions           int64   `json:"transactions"`
	Availability           float64 `json:"availability"`     // percent
	ElapsedTime            float64 `json:"elapsed_time"`     // seconds
	DataTransferred        float64 `json:"data_transferred"` // MB of response bodies
	ResponseTime           float64 `json:"response_time"`    // seconds, mean over transactions
	TransactionRate        float64 `json:"transaction_rate"` // transactions per second
	Throughput             float64 `json:"throughput"`       // MB of bodies per second
	Concurrency            float64 `json:"concurrency"`      // mean requests in flight
	SuccessfulTransactions int64   `json:"successful_transactions"`
	FailedTransactions     int64   `json:"failed_transactions"`
	LongestTransaction     float64 `json:"longest_transaction"`  // seconds
	ShortestTransaction    float64 `json:"shortest_transaction"` // seconds

	// FormatVersion is the version of the saved format (see FormatVersion); absent in results
	// saved before it, which read as 0, and in the runs and steps a result holds.
	FormatVersion int `json:"format_version,omitempty"`

	// Label names the run (--label), e.g. the stack under test.
	Label string `json:"label"`
	// Percentiles of the transactions' response times, in seconds. In the open model they
	// count from each request's intended start, so time queued behind a stalled server counts.
	Percentiles Percentiles `json:"percentiles"`
	// ServiceTime percentiles count from the actual send instead (equal to Percentiles in the
	// closed model, where every request is sent when intended).
	ServiceTime Percentiles `json:"service_time"`
	// StatusCodes counts every response by status, failures (5xx, 408) and answers that
	// failed a check included.
	StatusCodes map[string]int64 `json:"status_codes"`
	// CheckStatusCodes counts the answers that failed a check by status (they are in
	// StatusCodes and under Errors["check"] too); absent when none failed, and in results saved
	// before failed checks kept their status, whose StatusCodes leave them out.
	CheckStatusCodes map[string]int64 `json:"check_status_codes,omitempty"`
	// Errors counts requests that got no response, by kind, those whose response failed a
	// check ("check"), and those that failed for a missing value ("extract": an answer without
	// a value its #@extract rules take, or a request not sent for lack of one).
	Errors map[string]int64 `json:"errors"`
	// ErrorSamples gives the first message seen for each kind in Errors.
	ErrorSamples map[string]string `json:"error_samples,omitempty"`
	// URLs has one entry per target, in the order of the URL list.
	URLs []URLStats `json:"urls"`

	// Requests is every request that ended: Transactions + FailedTransactions.
	Requests int64 `json:"requests"`
	// InFlightAtStop counts requests that were running when the run was stopped; they were
	// allowed to finish and are included in every figure.
	InFlightAtStop int64 `json:"in_flight_at_stop"`
	// Resent counts requests sent a second time, on a new connection, because the server had
	// closed the kept-alive connection they were first given (see loader.Result.Resent). Each
	// is one request in every other figure. Results saved before this count read as 0.
	Resent            int64 `json:"resent"`
	BodyBytes         int64 `json:"body_bytes"`
	WireBytesReceived int64 `json:"wire_bytes_received"`
	WireBytesSent     int64 `json:"wire_bytes_sent"`
	ConnectionsOpened int64 `json:"connections_opened"`
	// HTTP2GoAways and HTTP2Resets count the GOAWAY and RST_STREAM frames HTTP/2 servers sent,
	// and HTTP2Retries the requests sent again after a refused stream or a GOAWAY (each is one
	// request in every other figure): a server shedding load, which the answers alone do not
	// show. Absent from HTTP/1.1 runs and from results saved before they were counted.
	HTTP2GoAways int64 `json:"http2_goaways,omitempty"`
	HTTP2Resets  int64 `json:"http2_resets,omitempty"`
	HTTP2Retries int64 `json:"http2_retries,omitempty"`
	// LatencyOverflow counts latencies beyond the histogram's one hour, recorded as one hour.
	LatencyOverflow int64     `json:"latency_overflow"`
	Users           UserStats `json:"users"`
	// Schedule describes how well the open model kept its schedule; nil in the closed model.
	Schedule *Schedule `json:"schedule,omitempty"`
	// Replay is what a replayed access log planned (webload replay); nil for other runs.
	Replay *Replay `json:"replay,omitempty"`
	// SteadyState has the figures of the run after its ramp; nil without a ramp.
	SteadyState *SteadyState `json:"steady_state,omitempty"`
	// Timeline has one point per TimelineInterval seconds, by the time requests ended.
	Timeline         []TimelinePoint `json:"timeline"`
	TimelineInterval float64         `json:"timeline_interval"`
	Run              RunInfo         `json:"run"`
	// Histogram holds the transactions' latencies in microseconds, HdrHistogram's V2
	// compressed encoding in base64, so runs can be merged and compared exactly.
	Histogram string `json:"histogram"`
	// ServiceHistogram holds the service times the same way.
	ServiceHistogram string `json:"service_histogram"`
	// Server is the server's load during the run (--server-metrics); nil when not measured.
	Server *sysload.Summary `json:"server,omitempty"`
	// Database is what the database did during the run (--db) when one was read, and Databases
	// when several were, in the order given; both are absent without --db, and in results saved
	// before databases were read. SetDatabases sets them and DatabaseList reads either form.
	Database  *dbload.Summary  `json:"database,omitempty"`
	Databases []dbload.Summary `json:"databases,omitempty"`
	// Pages has the page figures when users loaded pages like a browser (resources, redirects,
	// logins); nil otherwise.
	Pages *PageStats `json:"pages,omitempty"`
	// DecodedBytes is the size of the response bodies after undoing their Content-Encoding;
	// BodyBytes counts them as received.
	DecodedBytes int64 `json:"decoded_bytes"`
	// Extractions counts what the URL list's and the login steps' #@extract rules took; nil in a
	// run without rules, and in results saved before them.
	Extractions *ExtractStats `json:"extractions,omitempty"`
	// Checks is what judging the response checks cost the client (answers judged, seconds in
	// all and per answer), off the response times; nil in a run that judged no answer, and in
	// results saved before checks were judged apart.
	Checks *CheckStats `json:"checks,omitempty"`
	// Logins has the login steps' figures; nil in a run without login steps, and in results
	// saved before they were apart.
	Logins *LoginStats `json:"logins,omitempty"`
	// Capacity is the capacity search this report is the best step of (webload capacity); nil
	// for a plain run, and in results saved before searches.
	Capacity *Capacity `json:"capacity,omitempty"`
	// Repeats holds each run of a --repeat series, whose combination this report is.
	Repeats []Report `json:"repeats,omitempty"`
	// Steps holds each step of a concurrency ladder (-c 10,20,40), in the order run; the figures
	// above are the whole ladder's (see Ladder). A step's users are its Run.Users: the key
	// "concurrency" is siege's mean requests in flight. Absent for any other run, and in results
	// saved before ladders.
	Steps []Report `json:"steps,omitempty"`
}

// Percentiles of response time, in seconds.
type Percentiles struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p99.9"`
	Max  float64 `json:"max"`
}

// Quantiles calls f with each percentile (0-100) the struct holds and its field.
func (p *Percentiles) Quantiles(f func(q float64, v *float64)) {
	f(50, &p.P50)
	f(90, &p.P90)
	f(95, &p.P95)
	f(99, &p.P99)
	f(99.9, &p.P999)
}

// URLStats are one target's figures. Times are seconds over its transactions.
type URLStats struct {
	Method      string       `json:"method"`
	URL         string       `json:"url"`
	Hits        int64        `json:"hits"`
	Failures    int64        `json:"failures"`
	Mean        float64      `json:"mean"`
	P50         float64      `json:"p50"`
	P95         float64      `json:"p95"`
	P99         float64      `json:"p99"`
	Max         float64      `json:"max"`
	Bytes       int64        `json:"bytes"`
	StatusCodes StatusCounts `json:"status_codes"`
	// CheckStatusCodes counts the URL's answers that failed a check by status, as
	// Report.CheckStatusCodes does.
	CheckStatusCodes StatusCounts `json:"check_status_codes,omitempty"`
	Histogram        string       `json:"histogram,omitempty"`
	// Size has the moments of the URL's decoded body sizes; nil in results saved before they
	// were recorded, and for a URL that got no response.
	Size *SizeStats `json:"size,omitempty"`
	// Pages has the URL's page figures (its visits and their resources) when users loaded
	// pages like a browser.
	Pages *URLPages `json:"pages,omitempty"`
	// CheckFailure is the message of the first response check the URL's answers failed
	// (their failures of kind "check" are in Failures); "" when none failed.
	CheckFailure string `json:"check_failure,omitempty"`
	// CheckFailures counts the URL's answers that failed a response check (of its Failures).
	CheckFailures int64 `json:"check_failures,omitempty"`
	// Login marks a login step's row: its requests are the users' logins, not a URL of the list.
	Login bool `json:"login,omitempty"`
	// ExtractRules is the number of the line's #@extract rules, and Extractions the values they
	// took from its answers.
	ExtractRules int   `json:"extract_rules,omitempty"`
	Extractions  int64 `json:"extractions,omitempty"`
	// ExtractFailures counts the URL's requests that failed for a missing value (kind "extract",
	// of its Failures): answers that lacked a value its rules take, and ExtractUnsent requests
	// not sent because a value they needed was missing.
	ExtractFailures int64 `json:"extract_failures,omitempty"`
	ExtractUnsent   int64 `json:"extract_unsent,omitempty"`
	// ExtractFailure is the message of the URL's first extract failure; "" for none, or when the
	// run kept only the first of all its URLs (in ErrorSamples).
	ExtractFailure string `json:"extract_failure,omitempty"`
	// Content is what the URL answered: its content types and the fingerprint of its 2xx
	// answers (see package content); nil when it got no answer, and in results saved before
	// fingerprints.
	Content *content.Profile `json:"content,omitempty"`
}

// quantiles calls f with each percentile (0-100) of a URL row and its field. It is the one list of
// the per-URL percentiles: the recorder, Combine, Merge and the per-URL table follow it, so a
// new one is a field and a line here.
func (u *URLStats) Quantiles(f func(q float64, v *float64)) {
	f(50, &u.P50)
	f(95, &u.P95)
	f(99, &u.P99)
}

// StatusCounts counts responses by status code. A URL without responses has nil counts, which
// are written as {} like empty ones, so saved results read as they always have while the
// URLs of a long list that no request reached cost no map each.
type StatusCounts map[string]int64

// MarshalJSON implements json.Marshaler.
func (c StatusCounts) MarshalJSON() ([]byte, error) {
	if c == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]int64(c))
}

// UserStats shows how evenly the users were served (sysbench's "threads fairness").
type UserStats struct {
	Count              int     `json:"count"`
	TransactionsMean   float64 `json:"transactions_mean"`
	TransactionsStddev float64 `json:"transactions_stddev"`
}

// RunInfo records how the run was made, so a saved result explains itself.
type RunInfo struct {
	Version    string     `json:"version"`
	StartedAt  time.Time  `json:"started_at"`
	StopReason StopReason `json:"stop_reason"`
	Users      int        `json:"users"`
	Reps       string     `json:"reps"`       // a count, "once", or "" for no limit
	TimeLimit  float64    `json:"time_limit"` // seconds, 0 for none
	Random     bool       `json:"random"`
	Seed       uint64     `json:"seed"`
	Delay      float64    `json:"delay"`   // seconds
	Timeout    float64    `json:"timeout"` // seconds
	Connection string     `json:"connection"`
	Model      Model      `json:"model"`
	Rate       float64    `json:"rate"`      // open model: planned requests per second
	MaxUsers   int        `json:"max_users"` // open model: cap on requests in flight
	Ramp       float64    `json:"ramp"`      // seconds
	URLFile    string     `json:"url_file,omitempty"`
	// DataFile and DataPick are the file users took their own variables from (--data) and how
	// (sequential, random, unique); LoginFile the login steps' file. Never their values; absent
	// when not used, and in results saved before.
	DataFile  string `json:"data_file,omitempty"`
	DataPick  string `json:"data_pick,omitempty"`
	LoginFile string `json:"login_file,omitempty"`
	// HistogramUnit is the unit of the encoded histograms' values.
	HistogramUnit string `json:"histogram_unit"`
	// Test fingerprints what was run (the URL list and every setting that shapes the load), so
	// that merge refuses shards of different tests.
	Test string `json:"test,omitempty"`
	// Shard says which part of a sharded run this result is; nil for a whole run.
	Shard *ShardInfo `json:"shard,omitempty"`
	// Shards lists the parts a merged result was made of.
	Shards []ShardInfo `json:"shards,omitempty"`
	// ShardsOverlap says how a merged result's shards ran together; nil for other results and
	// for merges saved before it was recorded.
	ShardsOverlap *ShardOverlap `json:"shards_overlap,omitempty"`
	// Abort is the --abort-on gate that stopped the run (StopAborted); nil otherwise, and in
	// results saved before.
	Abort *Abort `json:"abort,omitempty"`
}

// Model is how a run made its load, as saved results name it.
type Model string

// The load models.
const (
	ModelClosed Model = "closed" // a number of users, each sending its next request when the last one ends
	ModelOpen   Model = "open"   // an arrival rate, whatever the server does
)

// StopReason says why a run ended, as saved results name it (loader.StopReason's names).
type StopReason string

// The stop reasons a saved result can give.
const (
	StopCompleted   StopReason = "completed"
	StopTimeUp      StopReason = "time"
	StopInterrupted StopReason = "interrupted"
	StopFailures    StopReason = "failures"
	StopAborted     StopReason = "aborted" // an --abort-on gate fired; RunInfo.Abort says which
)

// ShardInfo is one shard of a run made by several webload processes (--shard I/N).
type ShardInfo struct {
	Index int `json:"index"` // from 0
	Count int `json:"count"`
	// PlannedStart is the --start-at time all shards waited for; zero without one.
	PlannedStart time.Time `json:"planned_start,omitzero"`
	// StartOffset is how late this shard started after PlannedStart, in seconds: the clock
	// and scheduling skew between the machines.
	StartOffset float64 `json:"start_offset"`
}

const Megabyte = 1 << 20

// Schedule is the open model's account of its timing. Times are seconds. Its unit is the
// arrival: a request, or when users load pages like a browser a URL's visit, whose redirects and
// resources follow it unscheduled (results saved before visits were arrivals counted each
// request of a visit in Sent and the lags).
type Schedule struct {
	// Rate is the planned arrival rate, arrivals per second.
	Rate float64 `json:"rate"`
	// Sent counts arrivals sent; Unsent those due before the stop that no user was free for.
	Sent   int64 `json:"sent"`
	Unsent int64 `json:"unsent"`
	// LagMean..LagMax are the scheduling error: actual minus intended send time of each
	// arrival's first request.
	LagMean float64 `json:"lag_mean"`
	LagP50  float64 `json:"lag_p50"`
	LagP99  float64 `json:"lag_p99"`
	LagMax  float64 `json:"lag_max"`
	// Delayed counts arrivals that were due while all MaxUsers users were busy, and waited.
	Delayed         int64   `json:"delayed"`
	DelayedWaitMean float64 `json:"delayed_wait_mean"`
	DelayedWaitMax  float64 `json:"delayed_wait_max"`
	// Users is how many users the schedule needed at most; MaxUsers the cap.
	Users    int `json:"users"`
	MaxUsers int `json:"max_users"`
	// Histogram holds the lags in microseconds (HdrHistogram V2, base64).
	Histogram string `json:"histogram"`
}

// SteadyState are the figures of the requests intended after the ramp. Times are seconds.
type SteadyState struct {
	From            float64     `json:"from"`
	Duration        float64     `json:"duration"`
	Requests        int64       `json:"requests"`
	Transactions    int64       `json:"transactions"`
	Failed          int64       `json:"failed"`
	TransactionRate float64     `json:"transaction_rate"`
	Percentiles     Percentiles `json:"percentiles"`
	// Histogram holds the steady state's response times in microseconds.
	Histogram string `json:"histogram,omitempty"`
}

// userStats is the mean and population standard deviation of transactions per user; users
// without a transaction count as zeros.
func userStats(perUser []int64, users int) UserStats {
	for len(perUser) < users {
		perUser = append(perUser, 0)
	}
	s := UserStats{Count: len(perUser)}
	if len(perUser) == 0 {
		return s
	}
	var sum float64
	for _, n := range perUser {
		sum += float64(n)
	}
	s.TransactionsMean = sum / float64(len(perUser))
	var sq float64
	for _, n := range perUser {
		d := float64(n) - s.TransactionsMean
		sq += d * d
	}
	s.TransactionsStddev = math.Sqrt(sq / float64(len(perUser)))
	return s
}
