package run

import (
	"context"

	"github.com/webload/webload/internal/promsink"
	"github.com/webload/webload/loader"
)

// promPart serves the runs' Prometheus metrics (--prometheus-listen) from before the first run
// to after the last: the counts add up over the runs, and webload_step names the step in
// progress of a ladder or a capacity search.
type promPart struct {
	metrics *promsink.Metrics
	stop    func() // stops the server
	wrapped bool   // the run in progress feeds the metrics
}

// servePrometheus starts the metrics server, so that a taken port fails before the first run
// as a SettingError naming the flag.
func servePrometheus(ctx context.Context, addr string) (*promPart, error) {
	m := promsink.New()
	stop, err := ServeLoopback(ctx, "prometheus-listen", addr, m.Handler())
	if err != nil {
		return nil, err
	}
	return &promPart{metrics: m, stop: stop}, nil
}

func (p *promPart) start(_ context.Context, r *runState) error {
	if r.spec.step != 0 {
		p.metrics.SetStep(r.spec.step)
	}
	return nil
}

func (p *promPart) wrap(next loader.Sink, r *runState) loader.Sink {
	p.wrapped = true
	p.metrics.WatchUsers(r.loader.ActiveUsers)
	return p.metrics.Wrap(next, r.start)
}

// finish freezes the elapsed time at the run's length as the loader measured it.
func (p *promPart) finish(r *runState) section {
	if p.wrapped {
		p.metrics.RunEnded(r.outcome.Elapsed)
		p.wrapped = false
	}
	return nil
}

// close stops the server with the last run: a scrape after that finds nothing, so the last
// values to count on are those of the last scrape.
func (p *promPart) close() error {
	p.stop()
	return nil
}
