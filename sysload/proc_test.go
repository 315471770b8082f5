package sysload

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestProcSourceFixture(t *testing.T) {
	t.Parallel()
	got, err := newProcSource(os.DirFS("testdata/proc")).Sample(testContext(t))
	if err != nil {
		t.Fatalf("Sample: %v", err)
	}
	if got.At.IsZero() {
		t.Error("At is zero")
	}
	got.At = time.Time{}
	want := Sample{
		Load1:             1.25,
		MemTotalBytes:     16318412 * 1024,
		MemAvailableBytes: 9876544 * 1024,
		// cpu  4705 356 584 3699 23 0 18 0 120 7: busy = user+nice+system+irq+softirq+steal,
		// total adds idle and iowait; the guest columns are inside user and nice already.
		CPUBusySeconds:  (4705 + 356 + 584 + 0 + 18 + 0) / 100.0,
		CPUTotalSeconds: (4705 + 356 + 584 + 3699 + 23 + 0 + 18 + 0) / 100.0,
	}
	if got != want {
		t.Errorf("Sample =\n %+v\nwant\n %+v", got, want)
	}
}

func TestProcSourceErrors(t *testing.T) {
	t.Parallel()
	const (
		loadavg = "0.50 0.40 0.30 1/100 999\n"
		meminfo = "MemTotal:  1000 kB\nMemFree:  100 kB\nMemAvailable:  500 kB\n"
		stat    = "cpu  10 0 10 80 0 0 0 0 0 0\ncpu0 10 0 10 80 0 0 0 0 0 0\n"
	)
	tests := []struct {
		name      string
		files     map[string]string
		wantInErr []string
	}{
		{name: "no loadavg", files: map[string]string{"meminfo": meminfo, "stat": stat},
			wantInErr: []string{"/proc/loadavg"}},
		{name: "empty loadavg", files: map[string]string{"loadavg": "", "meminfo": meminfo, "stat": stat},
			wantInErr: []string{"/proc/loadavg", "empty"}},
		{name: "garbage loadavg", files: map[string]string{"loadavg": "high 1 1 1/1 1\n", "meminfo": meminfo, "stat": stat},
			wantInErr: []string{"/proc/loadavg", "1-minute load"}},
		{name: "no MemAvailable", files: map[string]string{"loadavg": loadavg, "meminfo": "MemTotal: 1000 kB\nMemFree: 10 kB\n", "stat": stat},
			wantInErr: []string{"/proc/meminfo", "MemAvailable"}},
		{name: "no MemTotal", files: map[string]string{"loadavg": loadavg, "meminfo": "MemAvailable: 10 kB\n", "stat": stat},
			wantInErr: []string{"/proc/meminfo", "MemTotal"}},
		{name: "meminfo without unit", files: map[string]string{"loadavg": loadavg, "meminfo": "MemTotal: 1000\nMemAvailable: 10 kB\n", "stat": stat},
			wantInErr: []string{"/proc/meminfo", "parsing MemTotal"}},
		{name: "stat without cpu line", files: map[string]string{"loadavg": loadavg, "meminfo": meminfo, "stat": "intr 1 2 3\n"},
			wantInErr: []string{"/proc/stat", "aggregate cpu line"}},
		{name: "stat with per-cpu line first", files: map[string]string{"loadavg": loadavg, "meminfo": meminfo, "stat": "cpu0 1 2 3 4 5\n"},
			wantInErr: []string{"/proc/stat", "aggregate cpu line"}},
		{name: "stat with a short cpu line", files: map[string]string{"loadavg": loadavg, "meminfo": meminfo, "stat": "cpu  1 2 3\n"},
			wantInErr: []string{"/proc/stat", "3 columns"}},
		{name: "stat with a negative count", files: map[string]string{"loadavg": loadavg, "meminfo": meminfo, "stat": "cpu  1 2 -3 4 5 6 7 8\n"},
			wantInErr: []string{"/proc/stat", "cpu column 3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{}
			for name, content := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(content)}
			}
			_, err := newProcSource(fsys).Sample(testContext(t))
			if err == nil {
				t.Fatal("Sample succeeded, want an error")
			}
			for _, want := range tc.wantInErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

// TestProcSourceOldKernel reads a /proc/stat from before steal time existed: the columns that
// are there still add up.
func TestProcSourceOldKernel(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"loadavg": {Data: []byte("0.00 0.00 0.00 1/50 10\n")},
		"meminfo": {Data: []byte("MemTotal: 2048 kB\nMemAvailable: 1024 kB\n")},
		"stat":    {Data: []byte("cpu  100 0 50 800 50 0 0\n")},
	}
	got, err := newProcSource(fsys).Sample(testContext(t))
	if err != nil {
		t.Fatalf("Sample: %v", err)
	}
	if got.CPUBusySeconds != 1.5 || got.CPUTotalSeconds != 10 {
		t.Errorf("busy, total = %v, %v; want 1.5, 10", got.CPUBusySeconds, got.CPUTotalSeconds)
	}
}

func TestProcSourceCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := newProcSource(os.DirFS("testdata/proc")).Sample(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Sample error = %v, want context.Canceled", err)
	}
}

// TestProcSourceRealMachine reads this machine's /proc through the public constructor.
func TestProcSourceRealMachine(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	src, err := NewSource(LocalSpec, nil)
	if err != nil {
		t.Fatalf("NewSource: %v", err)
	}
	first, err := src.Sample(testContext(t))
	if err != nil {
		t.Fatalf("Sample: %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	second, err := src.Sample(testContext(t))
	if err != nil {
		t.Fatalf("second Sample: %v", err)
	}
	t.Logf("local: load1=%v mem total=%.0f MB available=%.0f MB cpu busy=%.2fs total=%.2fs",
		second.Load1, second.MemTotalBytes/bytesPerMB, second.MemAvailableBytes/bytesPerMB,
		second.CPUBusySeconds, second.CPUTotalSeconds)
	switch {
	case second.Load1 < 0:
		t.Errorf("Load1 = %v, want >= 0", second.Load1)
	case !(second.MemTotalBytes > second.MemAvailableBytes && second.MemAvailableBytes > 0):
		t.Errorf("MemTotal %v, MemAvailable %v: want total > available > 0",
			second.MemTotalBytes, second.MemAvailableBytes)
	case !(second.CPUTotalSeconds > second.CPUBusySeconds && second.CPUBusySeconds > 0):
		t.Errorf("CPU total %v, busy %v: want total > busy > 0", second.CPUTotalSeconds, second.CPUBusySeconds)
	case second.CPUTotalSeconds < first.CPUTotalSeconds:
		t.Errorf("CPU total went back from %v to %v", first.CPUTotalSeconds, second.CPUTotalSeconds)
	}
}
