package main

import (
	"github.com/urfave/cli/v2"

	"github.com/webload/webload/urls"
)

// runOptions are the run flags' values. Each flag writes its field (Destination), so the code
// reads a typed field where a misspelt flag name would have read a silent zero; siegerc
// settings reach the fields the same way, through the flags. Fields are named after the flags.
type runOptions struct {
	// Load
	maxUsers, repeat                                                int
	concurrent, reps, time, rate, ramp, delay, timeout, repeatPause string
	internet, benchmark                                             bool
	seed                                                            uint64
	failures                                                        int64

	// URLs and requests
	file, userAgent, contentType, connection, headerBuffer, maxBody string
	user, cacert, cert, key, proxy, rc, headerFile                  string
	header, resolve, connectTo, volatile                            cli.StringSlice
	allowAbsoluteBodies, insecure, http2                            bool

	// Browser-like visits
	parser, noParser, noCache, noCookies, noFollow, followAnyHost, authAnyHost bool
	lazyImages                                                                 bool
	resourceHosts, login                                                       cli.StringSlice
	acceptEncoding                                                             string

	// Logged-in users
	data, dataPick, loginFile string
	reloginEvery              int

	// Output
	output, html, log, mark, hdrLog, csv, label, serverMetrics, siegeFormat, promListen, interval string
	verbose, quiet, jsonOutput, perURL                                                            bool
	db                                                                                            cli.StringSlice

	// Gates and comparison; slo is webload capacity's
	assert, checks, slo cli.StringSlice
	junit, history      string
	abort               abortOptions

	// Distributed runs
	shard, startAt, startAfter string
	shards                     int

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
