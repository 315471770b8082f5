package urls

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// parseImportCount reads a visit count the way analytics tools print it. Exports are made for
// spreadsheets in the author's locale, so the same number arrives as "1234", "1,234",
// "1.234", "1 234" (with a space, a no-break space U+00A0, a narrow no-break space U+202F or
// a thin space U+2009 between the groups) or "1234.0". The rules:
//
//   - Blanks around the number are ignored; anything but digits, blanks, ',' and '.' is an
//     error, so signs, exponents, percentages and times are refused.
//   - Blanks between digits always separate thousands.
//   - When both ',' and '.' occur, the last one is the decimal mark and the other separates
//     thousands ("1,234.0", "1.234,0").
//   - A mark that occurs more than once separates thousands ("1,234,567", "1.234.567").
//   - A single ',' or '.' separates thousands when exactly three digits follow it, one to
//     three digits precede it, the first of them is not 0 and no blank grouping is used:
//     "1,234" and "1.234" are 1234. Otherwise it is the decimal mark ("1234.0", "12,5",
//     "0.123"). Counts are whole numbers, so a pageview count of "1.234" can only mean
//     thousands, while "0.123" or "1 234,567" cannot.
//   - Thousands groups must have three digits after the first group of one to three, so a
//     mistyped or wrongly guessed number ("1,23,456") is reported instead of misread.
//   - A decimal part must be all zeros: a fractional count is an average, not a count.
func parseImportCount(s string) (int64, error) {
	s = strings.TrimFunc(s, unicode.IsSpace)
	if s == "" {
		return 0, errors.New("empty count")
	}
	// runs holds the digit runs and seps the separator before each run but the first.
	var runs []string
	var seps []rune
	start := -1
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			if start < 0 {
				start = i
			}
			continue
		case r == ',' || r == '.' || unicode.IsSpace(r):
		default:
			return 0, fmt.Errorf("%q is not a number", s)
		}
		if start < 0 {
			return 0, fmt.Errorf("%q is not a number", s) // two separators in a row, or a leading one
		}
		runs = append(runs, s[start:i])
		start = -1
		if unicode.IsSpace(r) {
			r = ' '
		}
		seps = append(seps, r)
	}
	if start < 0 {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	runs = append(runs, s[start:])

	decimal, ok := importDecimalMark(runs, seps)
	if !ok {
		return 0, fmt.Errorf("%q mixes ',' and '.' in an unknown way", s)
	}
	intRuns, frac := runs, ""
	if decimal >= 0 {
		intRuns, frac = runs[:decimal+1], runs[decimal+1]
		seps = seps[:decimal]
	}
	if strings.Trim(frac, "0") != "" {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	var group rune
	for i, sep := range seps {
		if group != 0 && sep != group {
			return 0, fmt.Errorf("%q mixes thousands separators", s)
		}
		group = sep
		if len(intRuns[i+1]) != 3 {
			return 0, fmt.Errorf("%q has a thousands group without three digits", s)
		}
	}
	if len(seps) > 0 && len(intRuns[0]) > 3 {
		return 0, fmt.Errorf("%q has a thousands group without three digits", s)
	}
	n, err := strconv.ParseInt(strings.Join(intRuns, ""), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n, nil
}

// importDecimalMark returns the index in seps of the decimal mark, or -1 when every
// separator groups thousands; see parseImportCount for the rules it applies. ok is false
// when ',' and '.' are mixed so that neither can be the decimal mark ("1,2.3,4").
func importDecimalMark(runs []string, seps []rune) (mark int, ok bool) {
	if len(seps) == 0 {
		return -1, true
	}
	last := len(seps) - 1
	marks := map[rune]int{}
	for _, sep := range seps {
		marks[sep]++
	}
	if marks[','] > 0 && marks['.'] > 0 {
		if seps[last] == ' ' || marks[seps[last]] > 1 {
			return 0, false
		}
		return last, true
	}
	if seps[last] == ' ' || marks[seps[last]] > 1 {
		return -1, true
	}
	before, after := runs[last], runs[last+1]
	thousands := len(after) == 3 && len(before) <= 3 && before[0] != '0' && marks[' '] == 0
	if thousands {
		return -1, true
	}
	return last, true
}
