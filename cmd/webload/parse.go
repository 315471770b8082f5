package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/webload/webload/check"
	"github.com/webload/webload/content"
	"github.com/webload/webload/sysload"
)

// parseRunTime reads siege's -t: NUM with an optional unit S, M or H in any case; no unit
// means minutes, as in siege. Fractions are honoured (siege drops them).
func parseRunTime(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	num := strings.TrimRight(s, "sSmMhH")
	unit := strings.ToLower(s[len(num):])
	mult := map[string]time.Duration{"": time.Minute, "s": time.Second, "m": time.Minute, "h": time.Hour}[unit]
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if mult == 0 || err != nil || !(v > 0) || v*float64(mult) > math.MaxInt64 {
		return 0, fmt.Errorf("want NUM[S|M|H] such as 30S, 5M or 1H (got %q)", s)
	}
	d := time.Duration(v * float64(mult))
	if d <= 0 {
		// 0 means no time limit, the opposite of what was asked.
		return 0, fmt.Errorf("%q is shorter than a nanosecond; want NUM[S|M|H] such as 30S, 5M or 1H", s)
	}
	return d, nil
}

// parseRate reads --rate: requests per second ("500"), or requests per a period ("30/1m",
// "5/10s", "100/s").
func parseRate(s string) (float64, error) {
	num, per, hasPer := strings.Cut(s, "/")
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || !(n > 0) || math.IsInf(n, 0) {
		return 0, fmt.Errorf("want requests per second such as 500, or per a period such as 30/1m (got %q)", s)
	}
	if !hasPer {
		return n, nil
	}
	if per != "" && (per[0] < '0' || per[0] > '9') {
		per = "1" + per // "100/s" means per one second
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want a period such as 1s, 1m or 10s after \"/\" (got %q)", s)
	}
	if r := n / d.Seconds(); r <= math.MaxFloat64 {
		return r, nil
	}
	return 0, fmt.Errorf("want a rate below 1.8e308 requests per second (got %q)", s)
}

// parseSize reads a byte count with an optional unit: B, KB (or KiB), MB, GB (powers of 1024,
// as the reports' MB), as --check's sizes are read.
func parseSize(s string) (int64, error) { return check.ParseSize(s) }

// parseSeconds reads a plain number of seconds (siege's style, "2" or "0.5") or a Go duration
// ("500ms", "1m30s").
func parseSeconds(s string) (time.Duration, error) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if !(v >= 0) || v*float64(time.Second) > math.MaxInt64 {
			return 0, fmt.Errorf("want a number of seconds from 0 (got %q)", s)
		}
		return time.Duration(v * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want seconds or a duration such as 500ms (got %q)", s)
	}
	return d, nil
}

// secondsFrom is parseSeconds for a flag whose duration must be least or more; want is its
// problem, before the text given.
func secondsFrom(least time.Duration, want string) func(string) (time.Duration, error) {
	return func(s string) (time.Duration, error) {
		d, err := parseSeconds(s)
		if err != nil || d < least {
			return 0, fmt.Errorf("%s (got %q)", want, s)
		}
		return d, nil
	}
}

// optional is parse for a flag whose empty value means it is not given: the zero value.
func optional[T any](parse func(string) (T, error)) func(string) (T, error) {
	return func(s string) (T, error) {
		if s == "" {
			var zero T
			return zero, nil
		}
		return parse(s)
	}
}

// reps is -r: a number of requests per user, or once, each URL once in total.
type reps struct {
	n    int
	once bool
}

// parseReps reads -r: a number from 1, or "once"; "" is neither, -r not given.
func parseReps(s string) (reps, error) {
	switch s {
	case "":
		return reps{}, nil
	case "once":
		return reps{once: true}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return reps{}, fmt.Errorf("want a number of requests per user or \"once\" (got %q)", s)
	}
	return reps{n: n}, nil
}

// sizeFrom is parseSize for a flag whose size must be from least to most bytes; want is its
// problem, before the text given.
func sizeFrom(least, most int64, want string) func(string) (int64, error) {
	return func(s string) (int64, error) {
		n, err := parseSize(s)
		if err != nil || n < least || n > most {
			return 0, fmt.Errorf("%s (got %q)", want, s)
		}
		return n, nil
	}
}

// parseConnection reads --connection: true for close, a new connection per request.
func parseConnection(s string) (bool, error) {
	switch s {
	case "keep-alive":
		return false, nil
	case "close":
		return true, nil
	}
	return false, fmt.Errorf("want keep-alive or close (got %q)", s)
}

// checked is parse for a flag whose text is used as given once check has passed it.
func checked(check func(string) error) func(string) (string, error) {
	return func(s string) (string, error) { return s, check(s) }
}

// parseVolatile reads one --volatile pattern, which content compiles with the others.
func parseVolatile(s string) (string, error) {
	_, err := content.CompileVolatile([]string{s})
	return s, err
}

// newLoadSource reads --server-metrics into the reader of the server's load it names, which
// reads nothing before the run starts it.
func newLoadSource(spec string) (sysload.Source, error) { return sysload.NewSource(spec, nil) }
