// Package run makes a load test from its description to its result. Its drivers, a series of
// runs (Spec.Repeat) with a pause between them, a ladder of such series (Spec.Ladder) and a
// capacity search (SearchCapacity), make their runs alike: the loader and its statistics, with
// the parts the Spec asks for around them (the verbose lines, the live CSV and Prometheus
// outputs, the abort window, the progress line, the server's load and the databases' counters
// read beside the load), each adding its section to the run's result. Then the outputs are
// written and the result kept in the history for later comparisons. It takes plain values and
// knows no command line: the CLI and the demo describe a run as a Spec and call Execute.
package run

import (
	"time"

	"github.com/webload/webload/dbload"
	"github.com/webload/webload/gate"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/report"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/sysload"
	"github.com/webload/webload/urls"
)

// Spec describes a run completely. It is a plain value: Execute takes a copy.
type Spec struct {
	// Config is the load itself; start from loader.DefaultConfig.
	Config loader.Config
	// Targets is the URL list, in the order of the file.
	Targets []urls.Target
	// Sessions names where users' own variables and login steps come from, for the banner.
	Sessions Sessions
	// Info is echoed into the result (see NewInfo and Identify); Execute adds the start time,
	// the stop reason and a shard's start offset.
	Info stats.RunInfo
	// Outputs says where the result goes.
	Outputs Outputs
	// Interval is the width of the timeline's buckets and the server's sampling period; 0 keeps
	// no timeline.
	Interval time.Duration
	// AbortOn are gates (gate.ParseLiveGate) judged every second (every Interval if shorter) over the
	// last AbortWindow of results while each run goes: the first that holds stops the run,
	// whose result then says which (RunInfo.Abort), and Execute returns a GateAbortError.
	AbortOn []gate.Gate
	// AbortWindow is how far back AbortOn looks; 0 means DefaultAbortWindow.
	AbortWindow time.Duration
	// Ladder lists the users of each step of a concurrency ladder (-c 10,20,40), run one after
	// the other, each like a run of its own with Config's other settings, and kept in one result
	// (stats.Ladder). Empty or one step is an ordinary run of Config.Users users. Closed model
	// only: the open model's load is its rate.
	Ladder []int
	// Repeat is how many times the load runs; the runs are kept in one result. 0 means 1. In a
	// ladder, each step is such a series.
	Repeat int
	// RepeatPause lets the server settle between the runs of a series.
	RepeatPause time.Duration
	// History is a folder that keeps every whole run's result under a name that sorts by time;
	// "" keeps none.
	History string
	// StartAt is when the first run begins, so shards started apart begin together; zero
	// starts at once.
	StartAt time.Time
	// Server is where the server's load is read from during each run; nil reads none.
	// ServerSpec is how it was named (a node exporter's URL, or "local"), for the result.
	Server     sysload.Source
	ServerSpec string
	// Databases are read before, every Interval during and after each run (--db); the
	// ServerSpec page too when it is an exporter's URL, for mysqld_exporter's and
	// postgres_exporter's figures. A database that cannot be read costs a warning, never the
	// run.
	Databases []dbload.Target
	// DBStatements says whether each database's statements are read too, and how many kept.
	DBStatements dbload.Options

	// Replay, when set, gives each run its arrivals (webload replay): Config.Rate then only
	// describes the schedule's mean rate, and Repeat, Ladder and shards do not apply.
	Replay Replay

	// step is the step in progress of a ladder (its users) or a capacity search (its rate),
	// for the metrics' webload_step; 0 outside one. The drivers set it on their copy.
	step float64
}

// Sessions names where a run's users take their own variables and login steps from, never
// the values (often passwords).
type Sessions struct {
	DataFile string // --data: the file as given, "" for none
	DataRows int    // its rows, the header left out
	DataPick string // how users take the rows: sequential, random or unique
	// LoginFile is the --login-file as given, "" for none; its LoginSteps are the first steps
	// of Config.Login, any --login lines follow.
	LoginFile  string
	LoginSteps int
}

// Outputs says what is printed and which files are written. Each file output names the flag
// that asks for it.
type Outputs struct {
	Verbose bool // a line per request on Stdout, failures on Stderr
	Quiet   bool // print nothing but errors
	JSON    bool // print the result as JSON instead of text

	// Progress redraws a live line on Stderr, a terminal; Color colours it.
	Progress, Color bool

	JSONFile   string // -o: the result as JSON
	LogFile    string // -l: a siege-style CSV line appended
	HdrLogFile string // --hdr-log: an HdrHistogram interval log
	CSVFile    string // --csv: one row per request, written as the run goes
	PromAddr   string // --prometheus-listen: loopback address of the live metrics
	// RemoteWrite is the Prometheus remote-write endpoint each run's figures are sent to
	// (--remote-write), "" for none.
	RemoteWrite string
	HTMLFile    string // --html: the HTML report

	Mark  string // -m: a line written into LogFile before the run's line
	Label string // names the run in every output
	Text  report.TextOptions
}

// NewInfo echoes the settings into the saved result. reps is the repetitions as the user gave
// them (a count, "once" or ""), urlFile the URL file's name, version webload's.
func NewInfo(cfg *loader.Config, reps, urlFile, version string) stats.RunInfo {
	conn := "keep-alive"
	if cfg.ConnectionClose {
		conn = "close"
	}
	model := stats.ModelClosed
	if cfg.Rate > 0 {
		model = stats.ModelOpen
	}
	return stats.RunInfo{
		Model:      model,
		Rate:       cfg.Rate,
		MaxUsers:   cfg.MaxUsers,
		Ramp:       cfg.Ramp.Seconds(),
		Version:    version,
		Users:      cfg.Users,
		Reps:       reps,
		TimeLimit:  cfg.Duration.Seconds(),
		Random:     cfg.Random,
		Seed:       cfg.Seed,
		Delay:      cfg.Delay.Seconds(),
		Timeout:    cfg.Timeout.Seconds(),
		Connection: conn,
		URLFile:    urlFile,
	}
}
