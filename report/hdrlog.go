package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/webload/webload/internal/atomicfile"
	"github.com/webload/webload/internal/hdrcodec"
	"github.com/webload/webload/stats"
)

// ErrNoStartTime says a report lacks the wall-clock start an interval log is anchored to.
var ErrNoStartTime = errors.New("the report has no start time")

// hdrLogNotes open every interval log. The format's readers skip '#' lines, so they are for
// people and must say what the numbers are: the format itself carries no unit, and its tools
// guess nanoseconds.
var hdrLogNotes = []string{
	"Response times of transactions (from each request's intended start), one histogram per timeline interval.",
	"Values are MICROSECONDS (1 us to 1 h, 3 significant digits). Interval_Max is in seconds (value / 1e6).",
	"HistogramLogProcessor: use -outputValueUnitRatio 1000 for milliseconds. HistogramLogAnalyzer divides by 1e6",
	"(it assumes nanoseconds shown as milliseconds), so the numbers it shows are seconds.",
}

// WriteHdrLog writes the report's timeline as an HdrHistogram interval log (.hlog), which
// HistogramLogAnalyzer and the HdrHistogram log processors read: one line per timeline point
// with the V2 compressed histogram of the response times of the transactions that ended in it.
// Values are microseconds, as in every histogram webload keeps.
//
// Interval timestamps are relative to the BaseTime line, which is the first run's start cut to
// the whole second (the library's StartTime and BaseTime lines have no fraction), so reading
// them back gives each interval's wall-clock start to the millisecond. A --repeat series gives
// the intervals of each run at that run's own wall-clock time, pauses showing as gaps. A point
// without transactions gets an empty histogram, so the log has one interval per point.
func WriteHdrLog(w io.Writer, rep *stats.Report) error {
	runs := []*stats.Report{rep}
	if len(rep.Repeats) > 0 {
		runs = runs[:0]
		for i := range rep.Repeats {
			runs = append(runs, &rep.Repeats[i])
		}
	}
	if runs[0].Run.StartedAt.IsZero() {
		return fmt.Errorf("write hdr log: %w", ErrNoStartTime)
	}
	baseMs := runs[0].Run.StartedAt.Unix() * 1000
	lw := hdr.NewHistogramLogWriter(w)
	lw.SetBaseTime(baseMs)
	if err := writeHdrLogHeader(lw, rep.Run.Version, baseMs); err != nil {
		return fmt.Errorf("write hdr log: %w", err)
	}
	for r, run := range runs {
		if run.Run.StartedAt.IsZero() {
			return fmt.Errorf("write hdr log, run %d: %w", r+1, ErrNoStartTime)
		}
		startMs := run.Run.StartedAt.UnixMilli()
		stepMs := max(wholeMillis(run.TimelineInterval), 1)
		endMs := startMs + wholeMillis(run.ElapsedTime)
		for i, p := range run.Timeline {
			h, err := intervalHistogram(p.Histogram)
			if err != nil {
				return fmt.Errorf("write hdr log, run %d, interval %d: %w", r+1, i+1, err)
			}
			from := startMs + wholeMillis(p.Start)
			to := from + stepMs
			if i == len(run.Timeline)-1 && endMs > from {
				to = min(to, endMs) // the run ended inside its last interval
			}
			h.SetStartTimeMs(from)
			h.SetEndTimeMs(to)
			if err := lw.OutputIntervalPackedHistogram(h); err != nil {
				return fmt.Errorf("write hdr log: %w", err)
			}
		}
	}
	return nil
}

// SaveHdrLog writes the interval log to path atomically (see atomicfile.Write).
func SaveHdrLog(path string, rep *stats.Report) error {
	var b bytes.Buffer
	if err := WriteHdrLog(&b, rep); err != nil {
		return err
	}
	if err := atomicfile.Write(path, b.Bytes()); err != nil {
		return fmt.Errorf("save hdr log: %w", err)
	}
	return nil
}

// writeHdrLogHeader writes the lines the format's writers conventionally start with: who wrote
// it, the format version, the start and base times, and the legend.
func writeHdrLogHeader(lw *hdr.HistogramLogWriter, version string, baseMs int64) error {
	if err := lw.OutputComment("webload " + version); err != nil {
		return err
	}
	for _, note := range hdrLogNotes {
		if err := lw.OutputComment(note); err != nil {
			return err
		}
	}
	if err := lw.OutputLogFormatVersion(); err != nil {
		return err
	}
	if err := lw.OutputStartTime(baseMs); err != nil {
		return err
	}
	if err := lw.OutputBaseTime(baseMs); err != nil {
		return err
	}
	return lw.OutputLegend()
}

// intervalHistogram decodes a timeline point's histogram; an empty encoding (no transactions)
// gives an empty histogram of the same geometry.
func intervalHistogram(encoded string) (*hdr.PackedHistogram, error) {
	if encoded == "" {
		return hdrcodec.NewSparseHistogram(), nil
	}
	return hdrcodec.DecodeOurs(encoded)
}

// wholeMillis converts seconds to whole milliseconds, the interval log's time resolution.
func wholeMillis(seconds float64) int64 { return int64(math.Round(seconds * 1000)) }
