// Package nodeexportertest runs Debian's prometheus-node-exporter on a free loopback port for
// tests that must read the real thing.
package nodeexportertest

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/webload/webload/internal/testtier"
)

// Binary is where Debian's prometheus-node-exporter package installs the exporter.
const Binary = "/usr/bin/prometheus-node-exporter"

// Start runs the exporter with only the collectors webload reads (others, such as hwmon, can
// fail inside containers) and returns its metrics URL once it answers. It skips the test when
// the exporter is not installed, and kills it when the test ends.
func Start(t testing.TB) string {
	t.Helper()
	return Run(t, Binary, "prometheus-node-exporter", nil, func(addr string) []string {
		return []string{"--web.listen-address=" + addr, "--collector.disable-defaults",
			"--collector.loadavg", "--collector.meminfo", "--collector.cpu"}
	})
}

// Run starts any Prometheus exporter binary (from Debian package pkg) with the environment
// variables env added and the arguments args gives for its listen address, and returns its
// metrics URL once it answers. It skips the test when the binary is not installed, and kills
// the exporter when the test ends.
func Run(t testing.TB, binary, pkg string, env []string, args func(addr string) []string) string {
	t.Helper()
	testtier.Program(t, "an exporter")
	if _, err := os.Stat(binary); err != nil {
		t.Skipf("%s not found (%v); apt-get install %s enables this test", binary, err, pkg)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	addr := l.Addr().String()
	l.Close()

	// A file rather than a buffer: the exporter may still be writing when a failure reads it.
	logs, err := os.Create(filepath.Join(t.TempDir(), "exporter.log"))
	if err != nil {
		t.Fatalf("creating exporter log: %v", err)
	}
	defer logs.Close()
	output := func() string {
		b, _ := os.ReadFile(logs.Name())
		return string(b)
	}
	cmd := exec.Command(binary, args(addr)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", binary, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})

	url := "http://" + addr + "/metrics"
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		select {
		case werr := <-exited:
			exited <- werr // for the cleanup
			t.Fatalf("%s exited (%v) before answering; output:\n%s", binary, werr, output())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not answering on %s after 15s (last error: %v); output:\n%s", binary, url, err, output())
		}
	}
}
