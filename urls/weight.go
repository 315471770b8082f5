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
