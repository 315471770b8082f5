package urls

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// weightDirective starts a line that gives the next URL's weight. To siege it is a comment, so
// a weighted file stays a valid siege URL file.
const weightDirective = "#@weight"

func parseWeight(s string) (float64, error) {
	w, err := strconv.ParseFloat(s, 64)
	if err != nil || !(w > 0) || math.IsInf(w, 0) {
		return 0, fmt.Errorf("bad weight %q after %s: want a positive number", s, weightDirective)
	}
	return w, nil
}

// WriteWeighted writes URL lines with their weights in the form Parse reads back and siege
// ignores: a "#@weight N" line before each URL.
func WriteWeighted(w io.Writer, lines []string, weights []float64) error {
	for i, line := range lines {
		if weights[i] > 0 {
			if _, err := fmt.Fprintf(w, "%s %s\n", weightDirective, strconv.FormatFloat(weights[i], 'f', -1, 64)); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// WriteEntries writes imported entries as a weighted URL file: each page's visits as its
// weight, and the method after the URL when it is not GET.
func WriteEntries(w io.Writer, entries []Entry) error {
	lines := make([]string, len(entries))
	weights := make([]float64, len(entries))
	for i, e := range entries {
		lines[i] = e.URL
		if e.Method != "GET" {
			lines[i] += " " + e.Method
		}
		weights[i] = float64(e.Count)
	}
	return WriteWeighted(w, lines, weights)
}
