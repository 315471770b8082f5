package main

import (
	"strings"
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"500", 500, true},
		{"0.5", 0.5, true},
		{"30/1m", 0.5, true},
		{"100/s", 100, true},
		{"5/10s", 0.5, true},
		{"0", 0, false},
		{"-3", 0, false},
		{"fast", 0, false},
		{"10/", 0, false},
		{"10/0s", 0, false},
		{"NaN", 0, false},
		{"Inf", 0, false},
		{"1e308/1ns", 0, false}, // more than a float64 holds
		{"1e-10", 1e-10, true},  // one request in 316 years: slow, but a schedule
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := parseRate(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("parseRate(%q) = %v, %v", tc.in, got, err)
			}
		})
	}
}

func TestParseRunTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"30S", 30 * time.Second, true},
		{"30s", 30 * time.Second, true},
		{"5M", 5 * time.Minute, true},
		{"1H", time.Hour, true},
		{"2", 2 * time.Minute, true}, // no unit means minutes, as in siege
		{"1.5M", 90 * time.Second, true},
		{"", 0, true},
		{"5X", 0, false},
		{"0S", 0, false},
		{"-1S", 0, false},
		{"1HM", 0, false},
		{"NaNS", 0, false},
		{"0.0001S", 100 * time.Microsecond, true},
		{"1e-10S", 0, false},  // rounds to no time at all, which would mean no limit
		{"1e-300M", 0, false}, // idem
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := parseRunTime(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("parseRunTime(%q) = %v, %v", tc.in, got, err)
			}
		})
	}
}

func TestParseSeconds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"2", 2 * time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"500ms", 500 * time.Millisecond, true},
		{"1m30s", 90 * time.Second, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{"NaN", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := parseSeconds(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("parseSeconds(%q) = %v, %v", tc.in, got, err)
			}
		})
	}
}

func TestNormalizeArgs(t *testing.T) {
	t.Parallel()
	takes := map[string]bool{"c": true, "concurrent": true, "r": true, "t": true, "l": true, "timeout": true}
	tests := []struct {
		name string
		in   []string
		want string
	}{
		{"glued values", []string{"-c25", "-r5", "http://h/"}, "-c 25 -r 5 -- http://h/"},
		{"flags after the URL", []string{"http://h/", "-c", "3", "-b"}, "-c 3 -b -- http://h/"},
		{"attached log file", []string{"-l/tmp/x.log", "http://h/"}, "-l /tmp/x.log -- http://h/"},
		{"long flag with value", []string{"--timeout", "2", "http://h/"}, "--timeout 2 -- http://h/"},
		{"equals form kept", []string{"-c=3", "--concurrent=4"}, "-c=3 --concurrent=4"},
		{"bool group kept", []string{"-bq", "http://h/"}, "-bq -- http://h/"},
		{"double dash ends flags", []string{"--", "-c", "http://h/"}, "-- -c http://h/"},
		{"unquoted POST line", []string{"http://h/f", "POST", "a=1", "-c", "1"}, "-c 1 -- http://h/f POST a=1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := normalizeArgs(tc.in, takes)
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("normalizeArgs(%q) = %q, want %q", tc.in, s, tc.want)
			}
		})
	}
}
