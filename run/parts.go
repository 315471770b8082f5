package run

import "context"

// newParts makes the parts spec asks for, in the one order they start, wrap the statistics (the
// first innermost) and add their sections: a replay's schedule, the verbose lines, the per-request CSV, the
// Prometheus metrics, the --abort-on window, the databases' and the server's readings (the
// server's after the databases', whose exporter page it may share), a shard's start offset, the
// remote-write sends, and last, outermost, what the terminal shows. What a part holds for the whole driver (a file,
// a listening server) is set up now, so that a bad path or a taken port fails before the
// first run, as a SettingError naming its flag; after such an error nothing is left open.
func newParts(ctx context.Context, spec *Spec, out *runIO) ([]part, error) {
	var parts []part
	opened := func(p part, err error) error {
		if err != nil {
			_ = closeParts(parts)
			return err
		}
		parts = append(parts, p)
		return nil
	}
	o := &spec.Outputs
	if spec.Replay != nil {
		// First: the innermost, whose section the others' corrections of the outcome do not touch.
		parts = append(parts, replayPart{replay: spec.Replay})
	}
	if o.Verbose {
		parts = append(parts, verbosePart{stdout: out.stdout, stderr: out.stderr})
	}
	if o.CSVFile != "" {
		if err := opened(openCSV(o.CSVFile)); err != nil {
			return nil, err
		}
	}
	if o.PromAddr != "" {
		if err := opened(servePrometheus(ctx, o.PromAddr)); err != nil {
			return nil, err
		}
	}
	if len(spec.AbortOn) > 0 {
		parts = append(parts, &abortPart{})
	}
	dbs := newDatabases(spec, out.stderr)
	if dbs != nil {
		parts = append(parts, dbs)
	}
	if spec.Server != nil {
		parts = append(parts, &serverPart{dbs: dbs})
	}
	if sh := spec.Info.Shard; sh != nil && !sh.PlannedStart.IsZero() {
		parts = append(parts, shardOffset{})
	}
	if o.RemoteWrite != "" {
		// Late: its section sends the report as the other parts' sections left it.
		rw, err := newRemoteWrite(o.RemoteWrite, out.stderr)
		if err := opened(rw, err); err != nil {
			return nil, err
		}
	}
	if o.Progress || out.talk {
		parts = append(parts, &terminalPart{terminal: out.terminal, stderr: out.stderr, talk: out.talk})
	}
	return parts, nil
}
