package main

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/check"
	"github.com/webload/webload/gate"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/report"
	"github.com/webload/webload/sysload"
	"github.com/webload/webload/urls"
	"github.com/webload/webload/userdata"
)

// runOptions are the run flags' values. Each flag writes its field (Destination), so the code
// reads a typed field where a misspelt flag name would have read a silent zero; siegerc
// settings reach the fields the same way, through the flags. Fields are named after the flags.
type runOptions struct {
	// Load
	maxUsers, repeat, cpus                  int
	concurrent                              typed[[]int]
	reps                                    typed[reps]
	time, ramp, delay, timeout, repeatPause typed[time.Duration]
	rate                                    typed[float64]
	internet, benchmark                     bool
	seed                                    uint64
	failures                                int64

	// URLs and requests
	file, userAgent, contentType                string
	cacert, cert, key, proxy, rc, headerFile    string
	user                                        typed[string]
	connectionClose                             typed[bool]
	headerBuffer, maxBody                       typed[int64]
	header                                      typedList[loader.Header]
	resolve, connectTo, volatile, resourceHosts typedList[string]
	checks                                      typedList[check.Expr]
	allowAbsoluteBodies, insecure, http2        bool

	// Browser-like visits
	parser, noParser, noCache, noCookies, noFollow, followAnyHost, authAnyHost, bare bool
	lazyImages                                                                       bool
	login                                                                            cli.StringSlice
	acceptEncoding                                                                   string

	// Logged-in users
	data, loginFile string
	dataPick        typed[userdata.Pick]
	reloginEvery    int

	// Output
	output, html, log, mark, hdrLog, csv, label, promListen, remoteWrite string
	serverMetrics                                                        typed[sysload.Source]
	siegeFormat                                                          typed[report.Layout]
	interval                                                             typed[time.Duration]
	dbSlow                                                               typed[time.Duration]
	verbose, quiet, jsonOutput, perURL                                   bool
	db                                                                   cli.StringSlice
	dbStatements                                                         bool
	dbStatementsTop                                                      int

	// Gates and comparison; slo is webload capacity's
	assert, slo    typedList[gate.Gate]
	search         searchOptions
	junit, history string
	abort          abortOptions

	// Distributed runs
	shard      typed[shardIndex]
	startAt    typed[time.Time]
	startAfter typed[time.Duration]
	shards     int

	// Diagnostics
	get, print, pprof string
	version, config   bool

	// targets are the URLs of a command that makes its own list (webload replay), which
	// replace the URL or file a run names; nil for a run.
	targets []urls.Target
}

// runFlags are the run flags bound to options of their own, for what needs only the flags'
// names and kinds.
func runFlags() []cli.Flag { return optionFlags(new(runOptions)) }
