package run

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/remotewrite"
	"github.com/webload/webload/stats"
)

// finalSendLimit bounds the send of a run's report, which an interrupted run makes too: Ctrl-C
// then waits for it at most this long.
const finalSendLimit = 10 * time.Second

// remoteWritePart sends each run's figures to a Prometheus remote-write endpoint
// (--remote-write): the counts and latency histograms so far every --interval during the run,
// then the report's own figures once it is made. A send that fails is counted and told in one
// line on stderr at the run's end; it never fails the run.
type remoteWritePart struct {
	client *remotewrite.Client
	stderr io.Writer

	ctx    context.Context
	live   *remotewrite.Live
	stop   context.CancelFunc
	done   chan struct{}
	labels []remotewrite.Label // the run's: its --label, its step
	lastMs int64               // the last live send's time: the report's is later, or Prometheus drops it

	mu            sync.Mutex // the live sender's counts, read once it has stopped
	sends, failed int
	lastErr       error
}

// newRemoteWrite checks the endpoint's URL before the first run, as a SettingError naming the
// flag.
func newRemoteWrite(endpoint string, stderr io.Writer) (*remoteWritePart, error) {
	c, err := remotewrite.NewClient(endpoint)
	if err != nil {
		return nil, settingf("--remote-write: %w", err)
	}
	return &remoteWritePart{client: c, stderr: stderr}, nil
}

func (p *remoteWritePart) start(ctx context.Context, r *runState) error {
	p.ctx, p.labels = ctx, remotewrite.RunLabels(r.spec.Outputs.Label, r.spec.step)
	p.sends, p.failed, p.lastErr, p.lastMs = 0, 0, nil, 0
	return nil
}

func (p *remoteWritePart) wrap(next loader.Sink, r *runState) loader.Sink {
	p.live = remotewrite.NewLive(next, r.targets)
	every := r.spec.Interval
	if every <= 0 {
		every = time.Second
	}
	ctx, stop := context.WithCancel(p.ctx)
	p.stop, p.done = stop, make(chan struct{})
	go p.sendLive(ctx, every)
	return p.live
}

// sendLive sends the figures so far every interval until ctx ends. A send that outlasts the
// interval delays the next one rather than queueing sends.
func (p *remoteWritePart) sendLive(ctx context.Context, every time.Duration) {
	defer close(p.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			ms := now.UnixMilli()
			err := p.client.Send(ctx, p.live.Series(p.labels, now))
			if ctx.Err() != nil {
				return // the run ended during the send: the report's send follows
			}
			p.mu.Lock()
			p.count(err)
			p.lastMs = ms
			p.mu.Unlock()
		}
	}
}

// count books one send's outcome; the caller holds mu or is the only sender.
func (p *remoteWritePart) count(err error) {
	p.sends++
	if err != nil {
		p.failed++
		p.lastErr = err
	}
}

// finish stops the live sends; the report's figures are sent in the section, once made.
func (p *remoteWritePart) finish(r *runState) section {
	if p.live == nil {
		return nil // the run never started: nothing to send
	}
	p.stop()
	<-p.done
	p.live = nil
	return p.sendReport
}

// sendReport sends the report's figures, even when the run was interrupted (its figures are
// then those measured), within finalSendLimit.
func (p *remoteWritePart) sendReport(rep *stats.Report) {
	now := time.Now()
	if now.UnixMilli() <= p.lastMs {
		now = time.UnixMilli(p.lastMs + 1)
	}
	ctx, cancel := context.WithTimeoutCause(context.WithoutCancel(p.ctx), finalSendLimit,
		fmt.Errorf("the %v a run's last send may take ran out", finalSendLimit))
	defer cancel()
	series, err := remotewrite.ReportSeries(rep, p.labels, now)
	if err == nil {
		err = p.client.Send(ctx, series)
	}
	p.count(err)
	if p.failed > 0 {
		fmt.Fprintf(p.stderr, "** %d of %d sends failed; the last: %v\n", p.failed, p.sends, p.lastErr)
	}
}
