package run

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/webload/webload/internal/atomicfile"
	"github.com/webload/webload/report"
	"github.com/webload/webload/stats"
)

// writeOutputs prints the report (text or JSON) and writes the files asked for. It tries every
// output even when one fails, so a full disk or a closed stdout does not cost the others.
func writeOutputs(rep *stats.Report, out *Outputs, stdout io.Writer, now time.Time) error {
	var printErr error
	switch {
	case out.JSON:
		printErr = stats.WriteJSON(stdout, rep)
	case !out.Quiet:
		printErr = report.WriteText(stdout, rep, out.Text)
	}
	return errors.Join(StdoutErr(printErr), saveFiles(rep, out, now))
}

// saveFiles writes the files asked for with the result: -o, --html, -l (its line dated now)
// and --hdr-log. It tries every file even when one fails.
func saveFiles(rep *stats.Report, out *Outputs, now time.Time) error {
	var errs []error
	if out.JSONFile != "" {
		errs = append(errs, stats.SaveJSON(out.JSONFile, rep))
	}
	if out.HTMLFile != "" {
		errs = append(errs, SaveHTML(out.HTMLFile, []stats.Report{*rep}, report.Options{}))
	}
	if out.LogFile != "" {
		errs = append(errs, report.AppendLog(out.LogFile, rep, out.Mark, now))
	}
	if out.HdrLogFile != "" {
		errs = append(errs, report.SaveHdrLog(out.HdrLogFile, rep))
	}
	return errors.Join(errs...)
}

// StdoutErr is the error of printing to stdout, with one failure forgiven: EPIPE, a reader
// that closed the pipe (`webload ... | head -1`). That reader took what it wanted, so it is
// no error of webload's, and the files asked for are still written. The process must ignore
// SIGPIPE for such a write to return EPIPE instead of killing it.
func StdoutErr(err error) error {
	if errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return err
}

// SaveHTML writes the HTML report of results to path atomically, like the JSON result.
func SaveHTML(path string, results []stats.Report, opt report.Options) error {
	var b bytes.Buffer
	if err := report.WriteHTML(&b, results, opt); err != nil {
		return err
	}
	if err := atomicfile.Write(path, b.Bytes()); err != nil {
		return fmt.Errorf("write HTML report %s: %w", path, err)
	}
	return nil
}

// saveHistory keeps the result under dir with a name that sorts by time, for
// `webload compare --history DIR`.
func saveHistory(dir string, rep *stats.Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	name := rep.Run.StartedAt.UTC().Format("20060102T150405Z")
	if slug := slugify(rep.Label); slug != "" {
		name += "-" + slug
	}
	return stats.SaveJSON(filepath.Join(dir, name+".json"), rep)
}

// slugify keeps letters, digits, dots and dashes of a label, for a file name.
func slugify(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-.")
}
