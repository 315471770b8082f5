package sysload

// bytesPerMB is the MB of the report: 2^20 bytes, as free(1) -m and top count it.
const bytesPerMB = 1 << 20

// Summary is what a run reports.
type Summary struct {
	// Source is "local" or the node-exporter URL, so a saved report says which machine it
	// describes.
	Source string `json:"source"`
	// Samples counts successful readings.
	Samples int `json:"samples"`
	// Failures counts failed readings; they are kept out of every figure below, so a
	// reader needs this count to know how much the figures can be trusted.
	Failures int `json:"failures"`
	// FirstError is the first failure's message; later ones are usually the same cause.
	FirstError string `json:"first_error,omitempty"`
	// MaxLoad1 is the highest 1-minute load average seen.
	MaxLoad1 float64 `json:"max_load1"`
	// PeakMemUsedMB is the max of (MemTotal-MemAvailable) over samples, MB of 2^20 bytes.
	PeakMemUsedMB float64 `json:"peak_mem_used_mb"`
	// MemTotalMB puts the peak in proportion; it is the largest total seen, in case the
	// kernel's figure moved (memory hot-plug, balloon drivers).
	MemTotalMB float64 `json:"mem_total_mb"`
	// CPUBusyPercent is 100*Δbusy/Δtotal between the first and last sample, so it averages
	// over the whole run across all CPUs; 0 with fewer than 2 samples.
	CPUBusyPercent float64 `json:"cpu_busy_percent"`
}

// accumulator folds readings into a Summary as they arrive, so a long run keeps no list of
// samples.
type accumulator struct {
	sum         Summary
	first, last Sample
}

func (a *accumulator) add(s Sample, err error) {
	if err != nil {
		if a.sum.Failures == 0 {
			a.sum.FirstError = err.Error()
		}
		a.sum.Failures++
		return
	}
	if a.sum.Samples == 0 {
		a.first = s
	}
	a.last = s
	a.sum.Samples++
	a.sum.MaxLoad1 = max(a.sum.MaxLoad1, s.Load1)
	a.sum.PeakMemUsedMB = max(a.sum.PeakMemUsedMB, s.MemUsedBytes()/bytesPerMB)
	a.sum.MemTotalMB = max(a.sum.MemTotalMB, s.MemTotalBytes/bytesPerMB)
}

// summary returns the figures so far. The CPU share stays 0 when the counters did not advance
// or went backwards, which happens when the server rebooted mid-run; a percentage computed
// across a reset would be meaningless.
func (a *accumulator) summary() Summary {
	s := a.sum
	if s.Samples >= 2 {
		dBusy := a.last.CPUBusySeconds - a.first.CPUBusySeconds
		dTotal := a.last.CPUTotalSeconds - a.first.CPUTotalSeconds
		if dTotal > 0 && dBusy >= 0 {
			s.CPUBusyPercent = min(100, 100*dBusy/dTotal)
		}
	}
	return s
}
