// Package userdata is per-user data: a CSV table whose columns are variables and whose rows
// users take, one each, to log in as different accounts (webload --data FILE.csv). How users
// take the rows is a Pick.
//
// The values are often passwords: no message of this package shows one.
package userdata

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/webload/webload/extract"
	"github.com/webload/webload/internal/inputfile"
)

// Table is the rows of a data file and the variable names its header row gives them. It is
// read once and then only read, so a run's users share it.
type Table struct {
	file  string
	pick  Pick
	names []string
	rows  [][]string
}

// Read reads the CSV file at path: a header row of variable names, then at least one row of
// values, each as wide as the header (UTF-8 with or without a byte order mark, quoted fields,
// CRLF or LF line ends; fields separated by commas, or by semicolons or tabs when the header
// row is). Errors name the file and line, as FILE:LINE: problem.
func Read(path string, pick Pick) (*Table, error) {
	f, err := inputfile.Open(path, inputfile.Lists)
	if err != nil {
		return nil, fmt.Errorf("read the data file: %w", err)
	}
	defer f.Close()
	return Parse(f, path, pick)
}

// Parse reads a data file's text from r, as Read does; name is the file's name in errors.
func Parse(r io.Reader, name string, pick Pick) (*Table, error) {
	if pick < Sequential || pick > Unique {
		return nil, fmt.Errorf("%s: unknown pick %v", name, pick)
	}
	br := bufio.NewReader(r)
	// Spreadsheets save UTF-8 with a byte order mark, which would join the first name.
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\ufeff")) {
		_, _ = br.Discard(3)
	}
	if bom, err := br.Peek(2); err == nil && (bytes.Equal(bom, []byte{0xff, 0xfe}) || bytes.Equal(bom, []byte{0xfe, 0xff})) {
		return nil, fmt.Errorf("%s: UTF-16 text (a spreadsheet's \"Unicode text\"): save it as CSV UTF-8", name)
	}
	cr := csv.NewReader(br)
	cr.Comma = separator(br)
	cr.FieldsPerRecord = -1 // widths are checked below, with a message that says which line
	t := &Table{file: name, pick: pick}
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty: want a header row of variable names, then a row per user", name)
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	if err := checkNames(header); err != nil {
		return nil, fmt.Errorf("%s:1: %w", name, err)
	}
	t.names = header
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		if len(row) != len(header) {
			line, _ := cr.FieldPos(0)
			hint := ""
			if len(row) > len(header) {
				// The usual cause: a password with the separator in it.
				hint = fmt.Sprintf(" (a value with %q in it must be in double quotes)", cr.Comma)
			}
			return nil, fmt.Errorf("%s:%d: %d fields, the header row has %d%s", name, line, len(row), len(header), hint)
		}
		t.rows = append(t.rows, row)
	}
	if len(t.rows) == 0 {
		return nil, fmt.Errorf("%s: no rows after the header: want a row of values per user", name)
	}
	return t, nil
}

// separator is the header row's field separator: a comma, or the semicolon that spreadsheets
// save CSV with where the comma is the decimal mark, or a tab. The header alone tells: a name
// holds neither, so a header without a comma but with one of them is split by it.
func separator(br *bufio.Reader) rune {
	head, _ := br.Peek(br.Size()) // the first line, unless it is longer than the buffer
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	switch {
	case bytes.IndexByte(head, ',') >= 0:
		return ','
	case bytes.IndexByte(head, ';') >= 0:
		return ';'
	case bytes.IndexByte(head, '\t') >= 0:
		return '\t'
	}
	return ','
}

// csvError words a CSV syntax error as FILE:LINE: problem. encoding/csv's errors name lines
// and columns but never the text, so no value shows.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v (byte %d of the line)", name, pe.Line, pe.Err, pe.Column)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// checkNames refuses a header that cannot name variables: each must be what $(NAME) can refer
// to, and once only, or the column would be unreachable.
func checkNames(header []string) error {
	for i, n := range header {
		if !extract.IsName(n) {
			return fmt.Errorf("column %d: %q is not a variable name: use letters, digits and _ only (fields are taken as they are, blanks after a comma included)", i+1, n)
		}
		for j := range i {
			if header[j] == n {
				return fmt.Errorf("column %d: %s is column %d's name too", i+1, n, j+1)
			}
		}
	}
	return nil
}

// Names are the variables, in the order of a row's values.
func (t *Table) Names() []string { return t.names }

// Has tells whether name is one of the table's variables.
func (t *Table) Has(name string) bool {
	for _, n := range t.names {
		if n == name {
			return true
		}
	}
	return false
}

// Len is the number of rows, the header left out.
func (t *Table) Len() int { return len(t.rows) }

// File is the name the table was read under.
func (t *Table) File() string { return t.file }

// Pick is how users take the rows.
func (t *Table) Pick() Pick { return t.pick }

// Row is the values of user's variables, in the order of Names: row user mod Len for
// Sequential and Unique, a row drawn from rng for Random. The row is shared: read it, do not
// modify it. Safe for concurrent use.
func (t *Table) Row(user int, rng *rand.Rand) []string {
	n := len(t.rows)
	if t.pick == Random && rng != nil {
		return t.rows[rng.IntN(n)]
	}
	i := user % n
	if i < 0 {
		i += n
	}
	return t.rows[i]
}

// Check refuses a run of more users than a Unique table has rows, before any request: two
// users on one account would not be what the user asked for. Other picks reuse rows.
func (t *Table) Check(users int) error {
	if t.pick == Unique && users > len(t.rows) {
		return fmt.Errorf("unique pick needs %d rows for %d users, %s has %d", users, users, t.file, len(t.rows))
	}
	return nil
}

// MarshalJSON describes the table without its values (its names, how many rows and the
// pick): what a run's fingerprint and saved settings may hold, since the values are often
// passwords.
func (t *Table) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Names []string
		Rows  int
		Pick  string
	}{t.names, len(t.rows), t.pick.String()})
}
