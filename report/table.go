package report

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// table is a table of the page, laid out by the script as it comes.
type table struct {
	Columns []column `json:"columns"`
	Rows    [][]cell `json:"rows"`
	// Sortable tables sort by a column when its header is clicked, on the cells' keys.
	Sortable bool `json:"sortable,omitempty"`
}

// column heads a table's column.
type column struct {
	Title string `json:"title"`
	// Num marks a column of figures: right-aligned, sorted by value rather than by text.
	Num bool `json:"num,omitempty"`
	// Hint explains the column (the header's tooltip).
	Hint string `json:"hint,omitempty"`
	// Sticky marks the column that names the rows (a URL): it stays in view while a table
	// wider than the window scrolls sideways under it.
	Sticky bool `json:"sticky,omitempty"`
}

// cell is one table cell: what it shows, and for figures the value it sorts by. A figure that
// was not measured has no value and sorts after every other, whichever the direction.
type cell struct {
	Text string
	// Key is the value a figure sorts by; NaN for none (and for text cells, which sort by Text).
	Key float64
	// Class styles the cell: "worse" or "better" for a change, "" for none.
	Class string
}

// MarshalJSON writes a text cell as its text, a figure as [text, key], and a styled cell as
// [text, key, class]: compact, since a table of 500 URLs has thousands of cells. A figure that
// was not measured is text too; in a column of figures, the script sorts text last.
func (c cell) MarshalJSON() ([]byte, error) {
	if math.IsNaN(c.Key) && c.Class == "" {
		return json.Marshal(c.Text)
	}
	var key any
	if !math.IsNaN(c.Key) && !math.IsInf(c.Key, 0) {
		key = c.Key
	} else if math.IsInf(c.Key, 0) {
		key = math.Copysign(math.MaxFloat64, c.Key) // a change from zero: above every other
	}
	if c.Class == "" {
		return json.Marshal([]any{c.Text, key})
	}
	return json.Marshal([]any{c.Text, key, c.Class})
}

// text is a cell of words, sorted by them.
func text(s string) cell { return cell{Text: s, Key: math.NaN()} }

// none is a figure that was not measured.
func none() cell { return cell{Text: "-", Key: math.NaN()} }

// count is a whole number, grouped in thousands for reading.
func count(n int64) cell { return cell{Text: group(n), Key: float64(n)} }

// millis is a time given in seconds, shown in milliseconds.
func millis(s float64) cell { return cell{Text: sig(s * 1000), Key: msRound(s)} }

// figure is a measure shown with at least three significant digits.
func figure(v float64) cell { return cell{Text: sig(v), Key: v} }

// percent is a share given in percent, to two decimals.
func percent(v float64) cell {
	return cell{Text: strconv.FormatFloat(v, 'f', 2, 64) + " %", Key: v}
}

// sig shows v with one decimal, or as many more as keep three significant digits: 1234.5,
// 12.3, 0.159, so a loopback latency does not read 0.2.
func sig(v float64) string {
	decimals := 1
	if v != 0 && math.Abs(v) < 100 {
		for math.Abs(v)*math.Pow10(decimals) < 100 && decimals < 6 {
			decimals++
		}
	}
	if v == math.Trunc(v) && math.Abs(v) >= 1000 {
		decimals = 0
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// group writes n with thin spaces between groups of three digits: 1 234 567.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u202f")
		}
		b.WriteRune(r)
	}
	return b.String()
}
