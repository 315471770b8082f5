package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/webload/webload/internal/promsink"
	"github.com/webload/webload/loader"
	"github.com/webload/webload/stats"
	"github.com/webload/webload/urls"
)

// liveOutputs are the outputs that follow the runs as they go: the per-request CSV (--csv) and
// the Prometheus metrics (--prometheus-listen). One set serves a whole --repeat series: the CSV
// gets one header and every run's rows, the metrics add up over the runs.
type liveOutputs struct {
	csv        *os.File          // nil without --csv
	csvErr     error             // the first error writing it
	metrics    *promsink.Metrics // nil without --prometheus-listen
	stopServer func()            // stops the metrics server
	runCSV     *stats.RequestCSV // the sink of the run in progress
}

// startLiveOutputs creates the CSV file (header written) and starts the metrics server, before
// the first run, so a bad path or a taken port fails at once as a SettingError naming the flag.
func startLiveOutputs(ctx context.Context, out *Outputs) (*liveOutputs, error) {
	o := &liveOutputs{stopServer: func() {}}
	if out.CSVFile != "" {
		f, err := os.Create(out.CSVFile)
		if err != nil {
			return nil, settingf("--csv: %w", err)
		}
		if err := stats.WriteRequestCSVHeader(f); err != nil {
			f.Close()
			return nil, settingf("--csv: %w", err)
		}
		o.csv = f
	}
	if out.PromAddr != "" {
		o.metrics = promsink.New()
		stop, err := ServeLoopback(ctx, "prometheus-listen", out.PromAddr, o.metrics.Handler())
		if err != nil {
			o.close()
			return nil, err
		}
		o.stopServer = stop
	}
	return o, nil
}

// wrap puts the live outputs around a run's sink; start is the run's wall-clock start, users
// its count of busy users (loader.ActiveUsers).
func (o *liveOutputs) wrap(next loader.Sink, targets []urls.Target, start time.Time, users func() int64) loader.Sink {
	if o.csv != nil {
		o.runCSV = stats.NewRequestCSV(o.csv, targets, start, next)
		next = o.runCSV
	}
	if o.metrics != nil {
		next = o.metrics.Wrap(next, start)
		o.metrics.WatchUsers(users)
	}
	return next
}

// setStep books the step in progress (a ladder's users) for the metrics' webload_step.
func (o *liveOutputs) setStep(v float64) {
	if o.metrics != nil {
		o.metrics.SetStep(v)
	}
}

// runEnded books the end of a run: the CSV's write error, the metrics' final elapsed time.
func (o *liveOutputs) runEnded(elapsed time.Duration) {
	if o.runCSV != nil && o.csvErr == nil {
		o.csvErr = o.runCSV.Err()
	}
	o.runCSV = nil
	if o.metrics != nil {
		o.metrics.RunEnded(elapsed)
	}
}

// close stops the metrics server, then closes the CSV. The server stops with the last run: a
// scrape after that finds nothing, so the last values to count on are those of the last scrape.
func (o *liveOutputs) close() error {
	o.stopServer()
	if o.csv == nil {
		return nil
	}
	err := o.csv.Close()
	if o.csvErr != nil || err != nil {
		return fmt.Errorf("--csv %s: %w", o.csv.Name(), errors.Join(o.csvErr, err))
	}
	return nil
}
