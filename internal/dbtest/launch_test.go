package dbtest

import (
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// A server that finds its port taken (it exits, its log saying so) is started again on
// another port; the one that starts is the one stopped when the test ends.
func TestLaunchTriesAnotherPort(t *testing.T) {
	t.Parallel()
	logFile := filepath.Join(t.TempDir(), "server.log")
	var ports []int
	port, stop := launch(t, "a server", logFile, syscall.SIGTERM, func(port int) *exec.Cmd {
		ports = append(ports, port)
		if len(ports) == 1 {
			return exec.Command("sh", "-c", `echo "Can't start server: Bind on TCP/IP port: Address already in use" >> "$0"; exit 1`, logFile)
		}
		return exec.Command("sleep", "60")
	}, func(int) error {
		if len(ports) < 2 {
			return errExited // not ready: the first one is about to exit
		}
		return nil
	})
	if len(ports) != 2 || port != ports[1] {
		t.Fatalf("started on %v, launched on %d; want a second start, and its port", ports, port)
	}
	stop()
}
