package sysload

import (
	"testing"
	"time"

	"github.com/webload/webload/internal/nodeexportertest"
)

// TestRealNodeExporter scrapes the real exporter, so that a change in what node_exporter
// publishes (names, labels, units) fails here rather than in a user's report.
func TestRealNodeExporter(t *testing.T) {
	t.Parallel()
	url := nodeexportertest.Start(t)
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
