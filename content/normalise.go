package content

// normalise appends seg to dst with what commonly differs from one response to the next, or
// from one day to the next, replaced by a marker, and runs of space made one space:
//   - dates: 2026-12-01 (with a time and zone after it), 01/12/2026, 1.12.2026, "1 Dec 2026",
//     "December 1, 2026", and a weekday before a comma ("Tue,") → #date
//   - clock times: 22:35, 22:35:19, 22:35:19.123 → #time
//   - numbers with 3 or more decimals ("served in 0.012 s") → #n; prices keep their 2
//   - numbers of 10 or more digits (Unix times, nonces) → #n
//   - random tokens: runs of 16 or more letters, digits and '_' that mix letters and
//     digits at least 3 times (hex and base64 ids, CSRF tokens), and such runs joined by
//     dashes when they also mix cases or digits very often (base64url, UUIDs) → #tok
//
// It scans bytes without regular expressions: it runs on every fingerprinted segment.
func normalise(dst, seg []byte) []byte {
	start := len(dst)
	space := false
	plain := 0 // seg[:plain] is known to hold no dashed token
	for i := 0; i < len(seg); {
		c := seg[i]
		k := classes[c]
		if k == spaceClass {
			space = true
			i++
			continue
		}
		if space && len(dst) > start {
			dst = append(dst, ' ')
		}
		space = false
		j := i
		for j < len(seg) && classes[seg[j]]&wordClass != 0 {
			j++
		}
		// base64url tokens and UUIDs have dashes in them, at their start too; slugs have
		// them as well, and stay.
		if i >= plain && (c == '-' || j < len(seg) && seg[j] == '-') {
			d := j
			for d < len(seg) && (classes[seg[d]]&wordClass != 0 || seg[d] == '-') {
				d++
			}
			if isDashedToken(seg[i:d]) {
				dst = append(dst, "#tok"...)
				i = d
				continue
			}
			plain = d
		}
		if j == i {
			dst = append(dst, c) // punctuation
			i++
			continue
		}
		word := seg[i:j]
		if k == lowerClass && len(word) < 16 {
			dst = append(dst, word...) // most words: nothing to look at
			i = j
			continue
		}
		if k == digitClass && (i == 0 || classes[seg[i-1]]&wordClass == 0) {
			if n := dateTime(seg[i:]); n > 0 {
				dst = append(dst, "#date"...)
				i += n
				continue
			}
			if n := clock(seg[i:]); n > 0 {
				dst = append(dst, "#time"...)
				i += n
				continue
			}
			if n := fineNumber(seg[i:]); n > 0 {
				dst = append(dst, "#n"...)
				i += n
				continue
			}
		}
		switch {
		case isToken(word):
			dst = append(dst, "#tok"...)
		case k == digitClass && len(word) >= 10 && allDigits(word):
			dst = append(dst, "#n"...)
		case k == upperClass && isWeekday(word) && j < len(seg) && seg[j] == ',':
			dst = append(dst, "#date"...)
		case k == upperClass && isMonth(word):
			dst, j = monthDate(dst, start, seg, j, word)
		default:
			dst = append(dst, word...)
		}
		i = j
	}
	return dst
}

// Byte classes, for the scan.
const (
	spaceClass = 1 << iota
	digitClass
	lowerClass
	upperClass
	underClass
	wordClass = digitClass | lowerClass | upperClass | underClass
)

// classes is each byte's class; read-only.
var classes = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case isSpace(byte(c)):
			t[c] = spaceClass
		case c >= '0' && c <= '9':
			t[c] = digitClass
		case c >= 'a' && c <= 'z':
			t[c] = lowerClass
		case c >= 'A' && c <= 'Z':
			t[c] = upperClass
		case c == '_':
			t[c] = underClass
		}
	}
	return t
}()

// monthDate writes a month name with the day and year around it ("1 Dec 2026", "Dec 1, 2026")
// as #date; a month name with no number beside it ("in May") is a word. It returns dst and
// where the scan goes on.
func monthDate(dst []byte, start int, seg []byte, j int, word []byte) ([]byte, int) {
	// A day before it: the output ends with "12 ".
	back := len(dst)
	if back-1 > start && dst[back-1] == ' ' {
		k := back - 1
		for k > start && isDigit(dst[k-1]) {
			k--
		}
		if n := back - 1 - k; n >= 1 && n <= 2 && (k == start || !isWord(dst[k-1])) {
			back = k
		}
	}
	// A day and/or year after it: " 1, 2026", " 2026".
	end := j
	for range 2 {
		k := end
		for k < len(seg) && (seg[k] == ' ' || seg[k] == ',') {
			k++
		}
		d := k
		for d < len(seg) && isDigit(seg[d]) {
			d++
		}
		if d == k || d-k > 4 || k == end || (d < len(seg) && (isWord(seg[d]) || seg[d] == ':')) {
			break
		}
		end = d
	}
	if back == len(dst) && end == j {
		return append(dst, word...), j
	}
	return append(dst[:back], "#date"...), end
}

// dateTime is the length of a date at the start of b, with the time and zone that may follow
// an ISO date; 0 when b does not start with one.
func dateTime(b []byte) int {
	// 2026-12-01
	if len(b) >= 10 && digits(b[:4]) && b[4] == '-' && digits(b[5:7]) && b[7] == '-' && digits(b[8:10]) {
		n := 10
		if n+1 < len(b) && (b[n] == 'T' || b[n] == ' ') {
			if c := clock(b[n+1:]); c > 0 {
				n += 1 + c
			}
		}
		if n < len(b) && isWord(b[n]) {
			return 0
		}
		return n
	}
	// 01/12/2026, 1.12.2026
	d1 := leadingDigits(b)
	if d1 < 1 || d1 > 2 || d1 >= len(b) || (b[d1] != '/' && b[d1] != '.') {
		return 0
	}
	sep := b[d1]
	d2 := leadingDigits(b[d1+1:])
	if d2 < 1 || d2 > 2 || d1+1+d2 >= len(b) || b[d1+1+d2] != sep {
		return 0
	}
	n := d1 + 1 + d2 + 1
	if leadingDigits(b[n:]) != 4 || (n+4 < len(b) && isWord(b[n+4])) {
		return 0
	}
	return n + 4
}

// clock is the length of a time of day at the start of b (22:35, 22:35:19, 22:35:19.123); 0
// when b does not start with one. A time zone after it (Z, +01:00) is part of it.
func clock(b []byte) int {
	h := leadingDigits(b)
	if h < 1 || h > 2 || h+3 > len(b) || b[h] != ':' || leadingDigits(b[h+1:]) != 2 {
		return 0
	}
	n := h + 3
	if n+3 <= len(b) && b[n] == ':' && leadingDigits(b[n+1:]) == 2 {
		n += 3
		if n+1 < len(b) && b[n] == '.' {
			if f := leadingDigits(b[n+1:]); f > 0 {
				n += 1 + f
			}
		}
	}
	n += zone(b[n:])
	if n < len(b) && isWord(b[n]) {
		return 0
	}
	return n
}

// zone is the length of a time zone at the start of b: Z, +01:00, -0500.
func zone(b []byte) int {
	if len(b) > 0 && b[0] == 'Z' {
		return 1
	}
	if len(b) < 5 || (b[0] != '+' && b[0] != '-') || leadingDigits(b[1:]) < 2 {
		return 0
	}
	if b[3] == ':' && leadingDigits(b[4:]) == 2 {
		return 6
	}
	if leadingDigits(b[1:]) == 4 {
		return 5
	}
	return 0
}

// fineNumber is the length of a number with 3 or more decimals at the start of b, the way
// timings are written; 0 otherwise.
func fineNumber(b []byte) int {
	d := leadingDigits(b)
	if d == 0 || d+1 >= len(b) || b[d] != '.' {
		return 0
	}
	f := leadingDigits(b[d+1:])
	n := d + 1 + f
	if f < 3 || (n < len(b) && (isWord(b[n]) && !isLetter(b[n]) || b[n] == '.')) {
		return 0
	}
	return n
}

// isToken tells whether a word looks random: long, and either switching between letters and
// digits more often than names, slugs and product codes do (hex ids), or switching case as
// often as random base64 does, which CamelCase names and acronyms do not.
func isToken(w []byte) bool {
	if len(w) < 16 {
		return false
	}
	m := mix(w)
	return m.letters >= 2 && m.digits >= 2 && m.switches >= 3 ||
		2*(m.switches+m.caseSwitches+m.upperPairs) >= len(w)
}

// isDashedToken tells whether a run of words joined by dashes looks random: a token by
// isToken's measure that also mixes upper and lower case (base64url) or switches between
// letters and digits very often (a UUID), which a slug such as "kettle-2-blue-3" does not.
func isDashedToken(w []byte) bool {
	m := mix(w)
	return isToken(w) && (m.upper > 0 && m.lower > 0 || m.switches >= 6)
}

// charMix counts the kinds of characters of a word and how often they alternate.
type charMix struct {
	letters, upper, lower, digits int
	switches                      int // between a letter and a digit
	caseSwitches                  int // between an upper and a lower case letter
	upperPairs                    int // upper case letters that follow one
}

func mix(w []byte) charMix {
	var m charMix
	prev := byte(0)
	for _, c := range w {
		var class byte
		switch {
		case isDigit(c):
			m.digits++
			class = 'd'
		case c >= 'a' && c <= 'z':
			m.letters++
			m.lower++
			class = 'l'
		case c >= 'A' && c <= 'Z':
			m.letters++
			m.upper++
			class = 'u'
		default:
			continue
		}
		switch {
		case prev == 0:
		case (prev == 'd') != (class == 'd'):
			m.switches++
		case prev != class:
			m.caseSwitches++
		case class == 'u':
			m.upperPairs++
		}
		prev = class
	}
	return m
}

var (
	months = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
		"January", "February", "March", "April", "June", "July", "August", "September", "October", "November", "December"}
	weekdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun",
		"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
)

func isMonth(w []byte) bool   { return inList(w, months) }
func isWeekday(w []byte) bool { return inList(w, weekdays) }

func inList(w []byte, list []string) bool {
	if len(w) < 3 || len(w) > 9 || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	for _, s := range list {
		if string(w) == s {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isWord(c byte) bool   { return classes[c]&wordClass != 0 }

func leadingDigits(b []byte) int {
	n := 0
	for n < len(b) && isDigit(b[n]) {
		n++
	}
	return n
}

func digits(b []byte) bool { return leadingDigits(b) == len(b) }

func allDigits(w []byte) bool { return len(w) > 0 && digits(w) }
