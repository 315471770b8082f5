package sysload

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// debianNodeExporter is where Debian's prometheus-node-exporter package installs the binary.
const debianNodeExporter = "/usr/bin/prometheus-node-exporter"

// TestRealNodeExporter scrapes the real exporter, so that a change in what node_exporter
// publishes (names, labels, units) fails here rather than in a user's report.
func TestRealNodeExporter(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(debianNodeExporter); err != nil {
		t.Skipf("%s not found (%v); apt-get install prometheus-node-exporter enables this test", debianNodeExporter, err)
	}
	url := startNodeExporter(t)
	src := newScraper(t, url, 5*time.Second)

	first, err := src.Sample(testContext(t))
	if err != nil {
		t.Fatalf("first scrape: %v", err)
	}
	// Long enough for the kernel's 10 ms CPU ticks to add up on every CPU.
	time.Sleep(300 * time.Millisecond)
	second, err := src.Sample(testContext(t))
	if err != nil {
		t.Fatalf("second scrape: %v", err)
	}
	for i, s := range []Sample{first, second} {
		t.Logf("scrape %d: load1=%v MemTotal=%.0f MemAvailable=%.0f busy=%.2fs total=%.2fs",
			i+1, s.Load1, s.MemTotalBytes, s.MemAvailableBytes, s.CPUBusySeconds, s.CPUTotalSeconds)
		if s.Load1 < 0 {
			t.Errorf("scrape %d: load1 = %v, want >= 0", i+1, s.Load1)
		}
		if !(s.MemTotalBytes > s.MemAvailableBytes && s.MemAvailableBytes > 0) {
			t.Errorf("scrape %d: MemTotal %v, MemAvailable %v; want total > available > 0",
				i+1, s.MemTotalBytes, s.MemAvailableBytes)
		}
		if !(s.CPUTotalSeconds > s.CPUBusySeconds && s.CPUBusySeconds > 0) {
			t.Errorf("scrape %d: CPU total %v, busy %v; want total > busy > 0", i+1, s.CPUTotalSeconds, s.CPUBusySeconds)
		}
	}
	if second.CPUTotalSeconds <= first.CPUTotalSeconds {
		t.Errorf("CPU total did not increase: %v then %v", first.CPUTotalSeconds, second.CPUTotalSeconds)
	}
	// The exporter reads the same /proc/meminfo as the local source, which never changes
	// MemTotal: the two paths must agree to the byte.
	local, err := NewSource(LocalSpec, nil)
	if err != nil {
		t.Fatalf("NewSource(local): %v", err)
	}
	ls, err := local.Sample(testContext(t))
	if err != nil {
		t.Fatalf("local sample: %v", err)
	}
	if ls.MemTotalBytes != second.MemTotalBytes {
		t.Errorf("MemTotal: exporter %v, /proc %v; want equal", second.MemTotalBytes, ls.MemTotalBytes)
	}
}

// startNodeExporter runs the exporter on a free loopback port with only the collectors this
// package reads, since others (hwmon, thermal, …) can fail inside containers. It returns the
// metrics URL once the exporter answers, and kills the exporter when the test ends.
func startNodeExporter(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	addr := l.Addr().String()
	l.Close()

	// A file rather than a buffer: the exporter may still be writing when a failure reads it.
	logs, err := os.Create(filepath.Join(t.TempDir(), "node-exporter.log"))
	if err != nil {
		t.Fatalf("creating exporter log: %v", err)
	}
	defer logs.Close()
	output := func() string {
		b, _ := os.ReadFile(logs.Name())
		return string(b)
	}
	cmd := exec.Command(debianNodeExporter,
		"--web.listen-address="+addr,
		"--collector.disable-defaults",
		"--collector.loadavg", "--collector.meminfo", "--collector.cpu",
	)
	cmd.Stdout = logs
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", debianNodeExporter, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})

	url := "http://" + addr + "/metrics"
	src := newScraper(t, url, time.Second)
	deadline := time.Now().Add(15 * time.Second)
	for {
		_, err := src.Sample(testContext(t))
		if err == nil {
			t.Logf("node exporter (pid %d) answering on %s", cmd.Process.Pid, url)
			return url
		}
		select {
		case werr := <-exited:
			exited <- werr // for the cleanup
			t.Fatalf("node exporter exited (%v) before answering; output:\n%s", werr, output())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("node exporter not answering on %s after 15s (last error: %v); output:\n%s", url, err, output())
		}
	}
}
