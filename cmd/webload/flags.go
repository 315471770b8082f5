package main

import (
	"math"
	"strconv"
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/gate"

	"github.com/urfave/cli/v2"

	"github.com/webload/webload/check"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/report"
)

// optionFlags are siege's options plus webload's, writing into o. The App and the run command
// share them, so that `webload -c 20 -r 50 -f urls.txt` works as it does with siege. Their
// defaults are loader.DefaultConfig's.
func optionFlags(o *runOptions) []cli.Flag {
	def := loader.DefaultConfig()
	return append([]cli.Flag{
		typedFlag(&cli.GenericFlag{Name: "concurrent", Aliases: []string{"c"}, DefaultText: strconv.Itoa(def.Users), Category: catLoad,
			Usage: "`N` simulated users, or a ladder of steps such as 10,20,40: each step a run of its own (same -r/-t, --repeat per step), kept in one result"}, &o.concurrent, strconv.Itoa(def.Users), parseUsers),
		typedFlag(&cli.GenericFlag{Name: "reps", Aliases: []string{"r"}, Category: catLoad, Usage: "`N` requests per user, or \"once\" to fetch each URL once in total"}, &o.reps, "", parseReps),
		typedFlag(&cli.GenericFlag{Name: "time", Aliases: []string{"t"}, Category: catLoad, Usage: "run for `NUM[S|M|H]` (no unit means minutes, as in siege)"}, &o.time, "", parseRunTime),
		&cli.StringFlag{Name: "file", Aliases: []string{"f"}, Destination: &o.file, Category: catRequests, Usage: "read URLs from `FILE` (siege's urls.txt format; - for standard input)"},
		&cli.BoolFlag{Name: "allow-absolute-bodies", Destination: &o.allowAbsoluteBodies, DisableDefaultText: true, Category: catRequests, Usage: "let the URL file's \"<FILE\" bodies name absolute paths (by default only files in the URL file's folder are sent)"},
		&cli.BoolFlag{Name: "internet", Aliases: []string{"i"}, Destination: &o.internet, Category: catLoad, Usage: "pick URLs at random"},
		typedFlag(&cli.GenericFlag{Name: "rate", Category: catLoad, Usage: "open model: start `R` requests per second (or R/1m, R/10s) on a fixed schedule, whatever the server does; -r is then the total"}, &o.rate, "", parseRate),
		&cli.IntFlag{Name: "max-users", Destination: &o.maxUsers, Value: def.MaxUsers, Category: catLoad, Usage: "open model: at most `N` requests in flight; later ones wait and the wait counts"},
		typedFlag(&cli.GenericFlag{Name: "ramp", Category: catLoad, Usage: "start users evenly (or raise the rate linearly) over `DURATION`, e.g. 30s"}, &o.ramp, "", parseSeconds),
		typedFlag(&cli.GenericFlag{Name: "interval", Category: catOutput, Usage: "width of the timeline's buckets in the JSON, `DURATION`; also how often --server-metrics and --db are read"}, &o.interval, "1s",
			secondsFrom(time.Millisecond, "want a duration of at least 1ms such as 1s or 500ms")),
		typedFlag(&cli.GenericFlag{Name: "delay", Aliases: []string{"d"}, Category: catLoad, Usage: "each user pauses a random 0..`SECS` after each request"}, &o.delay, "", parseSeconds),
		&cli.BoolFlag{Name: "benchmark", Aliases: []string{"b"}, Destination: &o.benchmark, Category: catLoad, Usage: "no pauses between requests (overrides -d)"},
		typedFlag(&cli.GenericFlag{Name: "timeout", Category: catLoad, Usage: "bound on each whole request, body and its decoding included: `SECS` or a duration such as 500ms"}, &o.timeout, strconv.FormatFloat(def.Timeout.Seconds(), 'f', -1, 64),
			secondsFrom(1, "want a positive number of seconds or a duration such as 500ms")),
		&cli.Uint64Flag{Name: "seed", Destination: &o.seed, Category: catLoad, DefaultText: "random, saved in the JSON", Usage: "`N` seeds -i and -d, to repeat a run's choices"},
		typedListFlag(&cli.GenericFlag{Name: "header", Aliases: []string{"H"}, Category: catRequests, Usage: "add `HEADER` (\"Name: value\") to every request; repeatable, replaces a default of the same name"}, &o.header, parseHeaderFlag),
		&cli.StringFlag{Name: "user-agent", Aliases: []string{"A"}, Destination: &o.userAgent, Category: catRequests, Usage: "User-Agent `STRING`"},
		&cli.StringFlag{Name: "content-type", Aliases: []string{"T"}, Destination: &o.contentType, Value: def.ContentType, Category: catRequests, Usage: "Content-Type `TYPE` of request bodies"},
		typedFlag(&cli.GenericFlag{Name: "connection", Category: catRequests, Usage: "`MODE`: keep-alive, or close for a new connection per request"}, &o.connectionClose, "keep-alive", parseConnection),
		&cli.BoolFlag{Name: "insecure", Destination: &o.insecure, Category: catRequests, Usage: "do not verify TLS certificates"},
		typedFlag(&cli.GenericFlag{Name: "header-buffer", Category: catRequests, Usage: "room for each response's status line and headers, `SIZE` (e.g. 32KB); longer headers are a bad-response failure", DefaultText: "16KB, less above 2 560 users, at least 4KB"}, &o.headerBuffer, "",
			sizeFrom(1<<10, loader.MaxHeaderBuffer, "want a size from 1KB to 1MB")),
		typedFlag(&cli.GenericFlag{Name: "max-body", Category: catRequests, Usage: "read at most `SIZE` of each response body (e.g. 10MB), as received and once decoded; a longer one is a too-large failure", DefaultText: "no cap; bodies are never kept"}, &o.maxBody, "",
			sizeFrom(1, math.MaxInt64, "want a size such as 512KB, 10MB or 1GB")),
		typedListFlag(&cli.GenericFlag{Name: "check", Category: catRequests, Usage: "fail every response to a listed URL that does not pass `EXPR` (repeatable; a URL file's \"#@check EXPR\" line adds one to the next URL): status==200, status<400, size>=10KB, body~\"REGEX\", body!~\"REGEX\", header:NAME~\"REGEX\", header:NAME==\"VALUE\", joined with &&. Bodies are matched decoded and whole (the first 4 MiB), after their last byte, off the response time. A failure is a failed transaction of kind check. Redirects on the way and page resources are not checked"}, &o.checks, check.Parse),
		&cli.Int64Flag{Name: "failures", Destination: &o.failures, Category: catLoad, Usage: "abort the run (exit 3) once `N` requests got no response, like siege's failures setting", DefaultText: "never"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Destination: &o.verbose, Category: catOutput, Usage: "print one line per request"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Destination: &o.quiet, Category: catOutput, Usage: "print nothing but errors"},
		&cli.BoolFlag{Name: "json-output", Aliases: []string{"j"}, Destination: &o.jsonOutput, Category: catOutput, Usage: "print the result as JSON instead of text"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Destination: &o.output, Category: catOutput, Usage: "also write the JSON result to `FILE`"},
		&cli.StringFlag{Name: "html", Destination: &o.html, Category: catOutput, Usage: "also write the result as an HTML report to `FILE`: tables and charts in one file that opens offline"},
		&cli.StringFlag{Name: "log", Aliases: []string{"l"}, Destination: &o.log, Category: catOutput, Usage: "append a siege-style CSV line to `FILE`"},
		&cli.StringFlag{Name: "mark", Aliases: []string{"m"}, Destination: &o.mark, Category: catOutput, Usage: "write a mark `TEXT` into the log before the run's line"},
		&cli.StringFlag{Name: "hdr-log", Destination: &o.hdrLog, Category: catOutput, Usage: "also write the response times of each timeline interval (--interval) as an HdrHistogram interval log to `FILE` (.hlog, values in microseconds)"},
		&cli.StringFlag{Name: "csv", Destination: &o.csv, Category: catOutput, Usage: "write one CSV row per request to `FILE` as the run goes (a --repeat series: one header, then every run's rows)"},
		&cli.StringFlag{Name: "label", Destination: &o.label, Category: catOutput, Usage: "`NAME` of the run, e.g. \"MariaDB 10.0 XtraDB\""},
		typedListFlag(&cli.GenericFlag{Name: "volatile", Category: catOutput, Usage: "leave what matches `REGEX` within a tag's attribute or a line of text out of the URLs' content fingerprints, for what varies per response that they do not learn by themselves; repeatable"}, &o.volatile, parseVolatile),
		&cli.BoolFlag{Name: "per-url", Destination: &o.perURL, Category: catOutput, Usage: "add the per-URL table to the text report"},
		&cli.IntFlag{Name: "repeat", Destination: &o.repeat, Value: 1, Category: catLoad, Usage: "run the same load `N` times and keep every run in one result, so compare can tell noise from change"},
		typedFlag(&cli.GenericFlag{Name: "repeat-pause", Category: catLoad, Usage: "pause `DURATION` between the runs of --repeat"}, &o.repeatPause, "5s", parseSeconds),
		typedListFlag(&cli.GenericFlag{Name: "assert", Category: catGates, Usage: "gate `EXPR` on the result, e.g. p95<800ms, availability>=99.9, url:/checkout p99<2s (repeatable); a broken gate exits 1"}, &o.assert, gate.ParseGate),
		&cli.StringFlag{Name: "junit", Destination: &o.junit, Category: catGates, Usage: "write the gates' verdicts as JUnit XML to `FILE`"},
		&cli.StringFlag{Name: "history", Destination: &o.history, Category: catGates, Usage: "also keep the result in `DIR` under a timestamped name, for compare --history"},
		typedFlag(&cli.GenericFlag{Name: "server-metrics", Category: catOutput, Usage: "read the server's load during the run from a node exporter `URL` (http://host:9100/metrics) or \"local\" (/proc of this machine, Linux only); a mysqld_exporter's or postgres_exporter's URL gives the database's figures, as --db does"}, &o.serverMetrics, "", optional(newLoadSource)),
		&cli.StringSliceFlag{Name: "db", Destination: &o.db, Category: catOutput, Usage: "read what the database did during the run (statements, slow ones, rows read, connections, buffer hits, locks) from `DSN`: mysql://user:pass@host:3306/ (MySQL, MariaDB, Percona) or postgres://user:pass@host:5432/db (PostgreSQL); read-only, one connection of its own, before, every --interval during and after the run; repeatable; the password is hidden in every output, and a DSN without one takes it from PGPASSWORD or MYSQL_PWD, or from the file ?password_file=PATH names, so that it is not in argv"},
		&cli.BoolFlag{Name: "db-statements", Destination: &o.dbStatements, Value: true, Category: catOutput, Usage: "with --db, read each statement's calls, time and rows from pg_stat_statements (PostgreSQL) or performance_schema (MySQL, MariaDB) before and after the run, and report them per transaction; on when the database keeps them, --db-statements=false turns it off"},
		typedFlag(&cli.GenericFlag{Name: "db-slow", Category: catOutput, Usage: "with --db-statements, count a statement's call as slow when it takes longer than `DURATION` (or SECS): per statement, its slow calls (bounded from the database's total, fastest and slowest time of it when it keeps no count) and its slowest call; unlike the server's own slow-query count, which follows its long_query_time"}, &o.dbSlow, dbload.DefaultSlowStatement.String(),
			secondsFrom(time.Microsecond, "want a duration such as 100ms or a number of seconds such as 0.1")),
		&cli.IntFlag{Name: "db-statements-top", Destination: &o.dbStatementsTop, Value: dbload.DefaultStatementsTop, Category: catOutput, Usage: "keep the `N` statements that took the most time; the rest are summed as one"},
		typedFlag(&cli.GenericFlag{Name: "siege-format", Category: catOutput, Usage: "summary layout of siege `VERSION` 4.0 (seconds) or 4.1 (milliseconds)"}, &o.siegeFormat, "4.0", report.ParseLayout),
		&cli.StringFlag{Name: "prometheus-listen", Destination: &o.promListen, Category: catOutput, Usage: "serve the run's Prometheus metrics (/metrics) on loopback `ADDRESS` while it lasts, e.g. 127.0.0.1:9464"},
		&cli.StringFlag{Name: "remote-write", Destination: &o.remoteWrite, Category: catOutput, Usage: "send the run's figures to a Prometheus remote-write `URL` (e.g. http://127.0.0.1:9090/api/v1/write): counts and latency histograms (native) every --interval, then the report's figures; labelled run=--label and by URL; a failed send is told on stderr and never fails the run; credentials in the URL are sent as basic auth, and they and the query's values (a token: ?api_key=...) are never shown"},
		&cli.StringFlag{Name: "pprof", Destination: &o.pprof, Category: catDiagnostics, Usage: "serve Go's profiler (/debug/pprof/) on loopback `ADDRESS` while the run lasts, e.g. 127.0.0.1:6060"},
		&cli.IntFlag{Name: "cpus", Destination: &o.cpus, Category: catLoad, DefaultText: "all; half over --http2", Usage: "run webload's own work on at most `N` CPUs, as vegeta's and hey's -cpus and wrk's and h2load's -t, 0 for all: on a machine the server shares, fewer threads hand requests to each other less, at less CPU per request"},
		&cli.BoolFlag{Name: "version", Aliases: []string{"V"}, Destination: &o.version, Category: catDiagnostics, Usage: "print the version"},
	}, append(append(append(browserFlags(o, &def), sessionFlags(o)...), shardFlags(o)...), abortFlags(&o.abort)...)...)
}

// valueFlags lists the flag names (every alias) that take a value, which argument
// normalisation needs to know.
func valueFlags(flags []cli.Flag) map[string]bool {
	names := map[string]bool{}
	for _, f := range flags {
		if v, ok := f.(cli.DocGenerationFlag); ok && !v.TakesValue() {
			continue // a bool flag, or one whose value comes only after = (optionalValueFlag)
		}
		for _, n := range f.Names() {
			names[n] = true
		}
	}
	return names
}
