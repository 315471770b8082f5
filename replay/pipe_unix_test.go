//go:build unix

package replay

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A replay reads its logs twice (to plan, then to send): a pipe (webload replay <(zcat …))
// gives its lines to the plan and none to the run, which then sent nothing and said nothing
// amiss. It is refused before either, naming the log.
func TestPlanRefusesALogThatReadsOnce(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "access.log")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	start := time.Date(2026, 10, 10, 13, 55, 0, 0, time.UTC)
	go func() { // a writer, as a shell's process substitution is; it waits for a reader
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		_, _ = f.WriteString(at(start, "/a") + "\n" + at(start.Add(time.Second), "/b") + "\n")
		_ = f.Close()
	}()
	t.Cleanup(func() { // frees the writer when the log was refused unread
		if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			_ = f.Close()
		}
	})
	p, err := NewPlan(opts(fifo))
	if err == nil {
		t.Fatalf("planned %d requests of a pipe, want an error", p.Counts.Planned)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, fifo+": ") || !strings.Contains(msg, "a FIFO") || !strings.Contains(msg, "twice") {
		t.Errorf("error %q, want it to name the log and say it is read twice", msg)
	}
}
