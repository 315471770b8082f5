package check

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		conds    int
		src      string
	}{
		{"status equal", "status==200", 1, "status==200"},
		{"status not equal", "status != 404", 1, "status != 404"},
		{"status below", "status<400", 1, "status<400"},
		{"status at most", "status<=399", 1, "status<=399"},
		{"status above", "status>199", 1, "status>199"},
		{"status at least", "status>=200", 1, "status>=200"},
		{"body matches", `body~"<html"`, 1, `body~"<html"`},
		{"body does not match", `body !~ "database error"`, 1, `body !~ "database error"`},
		{"size with unit", "size>=10KB", 1, "size>=10KB"},
		{"size in KiB", "size<2MiB", 1, "size<2MiB"},
		{"header matches", `header:Content-Type~"html"`, 1, `header:Content-Type~"html"`},
		{"header does not match", `header:X-Cache!~"MISS"`, 1, `header:X-Cache!~"MISS"`},
		{"header equals", `header:Vary == "Accept-Encoding"`, 1, `header:Vary == "Accept-Encoding"`},
		{"header differs", `header:Server!="nginx"`, 1, `header:Server!="nginx"`},
		{"joined", `status==200 && body!~"error" && size>1KB`, 3, `status==200 && body!~"error" && size>1KB`},
		{"joined without blanks", `status==200&&size>1KB`, 2, `status==200&&size>1KB`},
		{"escaped quote", `body~"say \"hi\""`, 1, `body~"say \"hi\""`},
		{"surrounding blanks", "  status==200  ", 1, "status==200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if len(e.conds) != tt.conds || e.String() != tt.src {
				t.Errorf("Parse(%q) = %d conditions %q, want %d %q", tt.in, len(e.conds), e.String(), tt.conds, tt.src)
			}
		})
	}
}

func TestParseValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     cond
	}{
		{"status", "status<400", cond{field: fieldStatus, op: opLt, num: 400}},
		{"size in KB", "size>=10KB", cond{field: fieldSize, op: opGe, num: 10 << 10}},
		{"size in MiB", "size<=1MiB", cond{field: fieldSize, op: opLe, num: 1 << 20}},
		{"plain size", "size>0", cond{field: fieldSize, op: opGt, num: 0}},
		{"header string", `header:ETag=="a\"b\\c"`, cond{field: fieldHeader, op: opEq, str: `a"b\c`, header: "ETag"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			c := e.conds[0]
			c.src, c.re = "", nil
			if c != tt.want {
				t.Errorf("Parse(%q) = %+v, want %+v", tt.in, c, tt.want)
			}
		})
	}
}

func TestParseRegexKeepsBackslashes(t *testing.T) {
	t.Parallel()
	e, err := Parse(`body~"Price: \d+\.\d\d EUR"`)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.conds[0].re.String(); got != `Price: \d+\.\d\d EUR` {
		t.Errorf("regex = %q", got)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		col      int
		msg      string
	}{
		{"empty", "", 1, "empty check"},
		{"blank", "   ", 4, "empty check"},
		{"unknown field", "code==200", 1, "want status, size, body or header:NAME"},
		{"no operator", "status 200", 8, "want ==, !=, <, <=, > or >= after status"},
		{"single equals", "status=200", 7, "want ==, !=, <, <=, > or >="},
		{"no status", "status==", 9, "want a status code"},
		{"bad status", "status==20x", 9, "status code from 100 to 999"},
		{"status too large", "status<1000", 8, "status code from 100 to 999"},
		{"bad size", "size>=10XB", 7, "want a size such as"},
		{"body with equals", `body=="x"`, 5, "want ~ or !~ after body"},
		{"unquoted regex", "body~error", 6, "want a double-quoted string"},
		{"unclosed string", `body~"error`, 6, "string not closed"},
		{"bad regex", `body~"(a"`, 6, "bad regular expression"},
		{"no header name", `header:~"x"`, 8, "want a header name"},
		{"header without operator", `header:Server "x"`, 15, "want ~, !~, == or !="},
		{"trailing and", "status==200 &&", 15, "want a check after &&"},
		{"missing and", "status==200 size>1", 13, "want && between conditions"},
		{"single ampersand", "status==200 & size>1", 13, "want && between conditions"},
		{"second condition bad", "status==200 && size>>1", 21, "want a size such as"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.in)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) = %v, want an *Error", tt.in, err)
			}
			if pe.Col != tt.col || !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("Parse(%q) = col %d %q, want col %d and %q", tt.in, pe.Col, pe.Msg, tt.col, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), "col ") {
				t.Errorf("error %q should start with its column", err)
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{"0", 0, false}, {"512", 512, false}, {"12B", 12, false}, {"10KB", 10 << 10, false},
		{"10kib", 10 << 10, false}, {"3 MB", 3 << 20, false}, {"3MiB", 3 << 20, false},
		{"1GB", 1 << 30, false}, {"2GiB", 2 << 30, false},
		{"-1", 0, true}, {"KB", 0, true}, {"1.5MB", 0, true}, {"99999999999GB", 0, true}, {"10XB", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, failure %v", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

// FuzzParse: the parser never panics, reports columns inside the input (or just past it), and
// what it accepts prints back as a check it accepts again with the same conditions.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"status==200", `body!~"database error" && status<400`, `header:Content-Type~"html"`,
		"size>=10KB", `header:ETag=="a\"b"`, `body~"\\"`, "status==200 &&", `body~"(a"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Col < 1 || pe.Col > len(s)+1 {
				t.Fatalf("Parse(%q) = %v: want an *Error with a column from 1 to %d", s, err, len(s)+1)
			}
			return
		}
		again, err := Parse(e.String())
		if err != nil || len(again.conds) != len(e.conds) {
			t.Fatalf("Parse(%q) gave %q, which parses to %d conditions, %v", s, e.String(), len(again.conds), err)
		}
	})
}
