package run

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/webload/webload/live"
	"github.com/webload/webload/loader"
)

// csvPart writes a row per request to the --csv file as the runs go. One file serves a whole
// driver: one header, then every run's rows.
type csvPart struct {
	f   *os.File
	err error            // the first error writing it
	run *live.RequestCSV // the sink of the run in progress
}

// openCSV creates the file and writes its header, before the first run, so that a bad path
// fails at once as a SettingError naming the flag.
func openCSV(path string) (*csvPart, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, settingf("--csv: %w", err)
	}
	if err := live.WriteRequestCSVHeader(f); err != nil {
		f.Close()
		return nil, settingf("--csv: %w", err)
	}
	return &csvPart{f: f}, nil
}

func (p *csvPart) start(context.Context, *runState) error { return nil }

func (p *csvPart) wrap(next loader.Sink, r *runState) loader.Sink {
	p.run = live.NewRequestCSV(p.f, r.targets, r.start, next)
	return p.run
}

// finish keeps the run's first write error, which close returns.
func (p *csvPart) finish(*runState) section {
	if p.run != nil && p.err == nil {
		p.err = p.run.Err()
	}
	p.run = nil
	return nil
}

// close closes the file and says whether every row was written.
func (p *csvPart) close() error {
	err := p.f.Close()
	if p.err != nil || err != nil {
		return fmt.Errorf("--csv %s: %w", p.f.Name(), errors.Join(p.err, err))
	}
	return nil
}
