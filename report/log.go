package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/webload/webload/stats"
)

// logHeader is the first line siege writes to a new log file; the columns below match it.
const logHeader = "      Date & Time,  Trans,  Elap Time,  Data Trans,  Resp Time,  Trans Rate,  Throughput,  Concurrent,    OKAY,   Failed\n"

// AppendLog adds the run to a siege-style CSV log (-l), creating it with siege's header line.
// A mark (-m) goes on its own line before the figures, as siege writes it. Two siege quirks are
// fixed: the Data Trans column is whole MB as siege writes it, but Throughput is not computed
// from that truncated number; and a run without transactions writes zeros, not "-nan".
func AppendLog(path string, rep *stats.Report, mark string, now time.Time) error {
	_, statErr := os.Stat(path)
	isNew := errors.Is(statErr, fs.ErrNotExist)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("open log file: %w", err)
	}
	var b strings.Builder
	if isNew {
		b.WriteString(logHeader)
	}
	if mark != "" {
		fmt.Fprintf(&b, "**** %s ****\n", mark)
	}
	fmt.Fprintf(&b, "%s,%7d,%11.2f,%12d,%11.2f,%12.2f,%12.2f,%12.2f,%8d,%8d\n",
		now.Format("2006-01-02 15:04:05"), rep.Transactions, rep.ElapsedTime, int64(rep.DataTransferred),
		rep.ResponseTime, rep.TransactionRate, rep.Throughput, rep.Concurrency,
		rep.SuccessfulTransactions, rep.FailedTransactions)
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return fmt.Errorf("write log file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close log file: %w", err)
	}
	return nil
}
