package sysload

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of the CPU times in /proc/stat. The kernel converts its internal tick
// rate to USER_HZ before exporting, and Linux fixes USER_HZ at 100 on every architecture Go
// runs on (sysconf(_SC_CLK_TCK) reports it), so a fixed divisor is exact and needs no cgo.
const userHZ = 100

// statCPUFields are the /proc/stat "cpu" columns that make up the total: user nice system
// idle iowait irq softirq steal. The guest and guest_nice columns that may follow are already
// counted inside user and nice, so adding them would count guest time twice.
const statCPUFields = 8

// procSource reads the load of this machine from procfs.
type procSource struct {
	// proc is the procfs root, injectable so tests can read fixture files.
	proc fs.FS
}

func newProcSource(proc fs.FS) *procSource {
	return &procSource{proc: proc}
}

// Sample reads /proc/loadavg, /proc/meminfo and /proc/stat. The files are in memory, so ctx is
// only checked up front: a reading cannot block.
func (p *procSource) Sample(ctx context.Context) (Sample, error) {
	if err := ctx.Err(); err != nil {
		return Sample{}, fmt.Errorf("reading /proc: %w", err)
	}
	at := time.Now()
	load1, err := p.readLoad1()
	if err != nil {
		return Sample{}, fmt.Errorf("reading /proc/loadavg: %w", err)
	}
	total, avail, err := p.readMeminfo()
	if err != nil {
		return Sample{}, fmt.Errorf("reading /proc/meminfo: %w", err)
	}
	busy, all, err := p.readStat()
	if err != nil {
		return Sample{}, fmt.Errorf("reading /proc/stat: %w", err)
	}
	return Sample{
		At:                at,
		Load1:             load1,
		MemTotalBytes:     total,
		MemAvailableBytes: avail,
		CPUBusySeconds:    busy,
		CPUTotalSeconds:   all,
	}, nil
}

// readLoad1 returns the first field of loadavg, e.g. "0.52 0.58 0.59 1/345 12345".
func (p *procSource) readLoad1() (float64, error) {
	b, err := fs.ReadFile(p.proc, "loadavg")
	if err != nil {
		return 0, err
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return 0, errors.New("empty file")
	}
	v, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return 0, fmt.Errorf("parsing 1-minute load: %w", err)
	}
	return v, nil
}

// readMeminfo returns MemTotal and MemAvailable in bytes. MemAvailable needs Linux 3.14 or
// later; its absence is an error rather than a guess from MemFree, which ignores page cache
// and would make every server look nearly full.
func (p *procSource) readMeminfo() (total, avail float64, err error) {
	b, err := fs.ReadFile(p.proc, "meminfo")
	if err != nil {
		return 0, 0, err
	}
	var haveTotal, haveAvail bool
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// A line reads "MemTotal:       16318412 kB".
		key, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (key != "MemTotal" && key != "MemAvailable") {
			continue
		}
		v, err := parseKB(rest)
		if err != nil {
			return 0, 0, fmt.Errorf("parsing %s: %w", key, err)
		}
		if key == "MemTotal" {
			total, haveTotal = v, true
		} else {
			avail, haveAvail = v, true
		}
	}
	if err := sc.Err(); err != nil {
		return 0, 0, err
	}
	switch {
	case !haveTotal:
		return 0, 0, errors.New("no MemTotal line")
	case !haveAvail:
		return 0, 0, errors.New("no MemAvailable line (kernel older than 3.14?)")
	}
	return total, avail, nil
}

// parseKB reads " 16318412 kB"; the kernel's "kB" means KiB.
func parseKB(s string) (float64, error) {
	fields := strings.Fields(s)
	if len(fields) != 2 || fields[1] != "kB" {
		return 0, fmt.Errorf("want \"<n> kB\", got %q", strings.TrimSpace(s))
	}
	n, err := strconv.ParseUint(fields[0], 10, 64)
	if err != nil {
		return 0, err
	}
	return float64(n) * 1024, nil
}

// readStat returns busy and total CPU seconds from the aggregate "cpu " line, which the kernel
// prints first and which already sums over CPUs.
func (p *procSource) readStat() (busy, total float64, err error) {
	b, err := fs.ReadFile(p.proc, "stat")
	if err != nil {
		return 0, 0, err
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 || fields[0] != "cpu" {
		return 0, 0, fmt.Errorf("first line %q is not the aggregate cpu line", line)
	}
	// Kernels before 2.6.11 lack steal (and older ones iowait, irq, softirq); sum what is
	// there, but without idle there is no busy share to speak of.
	if len(fields) < 5 {
		return 0, 0, fmt.Errorf("cpu line %q has %d columns, want at least 4", line, len(fields)-1)
	}
	fields = fields[1:min(len(fields), 1+statCPUFields)]
	var busyTicks, totalTicks uint64
	for i, f := range fields {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("parsing cpu column %d: %w", i+1, err)
		}
		totalTicks += n
		if i != 3 && i != 4 { // idle and iowait
			busyTicks += n
		}
	}
	// Summing whole ticks first keeps the result exact before the one division.
	return float64(busyTicks) / userHZ, float64(totalTicks) / userHZ, nil
}
