package stats

import (
	"fmt"
	"strconv"
	"strings"
)

// Limit is one --max-regression entry: how much worse than the baseline a figure may get.
type Limit struct {
	Key string  // a column key: etime, rtime, trate, conc, ok, failed, p50, p95, p99, la, mem
	Max float64 // allowed change the bad way, as a fraction (0.1 = 10 %)
}

// ParseLimits reads "p95=10%,trate=5%". A number without % is a percentage too.
func ParseLimits(s string) ([]Limit, error) {
	var out []Limit
	for _, part := range strings.Split(s, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok || key == "" {
			return nil, fmt.Errorf("bad limit %q: want KEY=PERCENT such as p95=10%%", part)
		}
		if columnByKey(key) == nil {
			return nil, fmt.Errorf("bad limit %q: unknown figure %q (known: %s)", part, key, columnKeys())
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(val), "%"), 64)
		if err != nil || !(pct >= 0) {
			return nil, fmt.Errorf("bad limit %q: want a percentage such as 10%%", part)
		}
		out = append(out, Limit{Key: key, Max: pct / 100})
	}
	return out, nil
}

func columnByKey(key string) *column {
	if i := columnIndex(key); i >= 0 {
		return &columns[i]
	}
	return nil
}

func columnKeys() string {
	keys := make([]string, len(columns))
	for i, c := range columns {
		keys[i] = c.key
	}
	return strings.Join(keys, ", ")
}

// LimitResult is the verdict of one limit on one candidate run.
type LimitResult struct {
	Label  string `json:"label"`
	Key    string `json:"key"`
	Passed bool   `json:"passed"`
	// Text says what was measured against what was allowed, and why it passed or failed.
	Text string `json:"text"`
}

// CheckLimits holds every candidate row to the limits. Only a change the bad way, beyond the
// limit, and not within noise fails: a change judged significant fails, and so does one with no
// noise estimate (nothing shows it is noise).
func (c *Comparison) CheckLimits(limits []Limit) []LimitResult {
	var out []LimitResult
	for _, row := range c.Rows[1:] {
		for _, l := range limits {
			out = append(out, c.checkLimit(row, l))
		}
	}
	return out
}

func (c *Comparison) checkLimit(row CompareRow, l Limit) LimitResult {
	i := columnIndex(l.Key)
	col, cell, base := columns[i], row.Cells[i], c.Rows[0].Cells[i]
	res := LimitResult{Label: row.Label, Key: l.Key, Passed: true}
	name := fmt.Sprintf("%s %s", row.Label, col.name)
	if cell.Change == nil {
		res.Text = fmt.Sprintf("%s: not measured in both runs, not checked", name)
		return res
	}
	worse := *cell.Change
	if col.higherIsBetter {
		worse = -worse
	}
	measured := fmt.Sprintf("%s %s%s vs %s%s (%s, allowed %.1f%% worse)", name, formatValue(cell.Value, col.decimals),
		unitSuffix(col.unit), formatValue(base.Value, col.decimals), unitSuffix(col.unit), changeText(*cell.Change), l.Max*100)
	switch {
	case worse <= l.Max:
		res.Text = measured + ": ok"
	case cell.Verdict == WithinNoise:
		res.Text = measured + fmt.Sprintf(": within noise (p = %.3f), ok", *cell.P)
	case cell.Verdict == NoEstimate:
		res.Passed = false
		res.Text = measured + ": FAILED (1 run, no noise estimate: use --repeat to tell noise from change)"
	default:
		res.Passed = false
		res.Text = measured + fmt.Sprintf(": FAILED (significant, p = %.4f)", *cell.P)
	}
	return res
}

func columnIndex(key string) int {
	for i := range columns {
		if columns[i].key == key {
			return i
		}
	}
	return -1
}

func unitSuffix(u string) string {
	if u == "" || u == "/s" {
		return u
	}
	return " " + u
}
