package urls

import (
	"errors"
	"testing"
)

func TestExpand(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"HOST": "h:1", "A": "x", "A_1": "y", "EMPTY": "", "REF": "$(HOST)"}
	lookup := func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
	cases := []struct {
		name, in, want string
	}{
		{"no reference", "http://h/p", "http://h/p"},
		{"parens", "$(HOST)/p", "h:1/p"},
		{"braces", "${HOST}/p", "h:1/p"},
		{"bare", "$HOST/p", "h:1/p"},
		{"bare stops at colon", "$HOST:8080", "h:1:8080"},
		{"bare takes longest name", "$A_1", "y"},
		{"bare at end", "x$A", "xx"},
		{"adjacent references", "$(A)$(A)${A}$A", "xxxx"},
		{"empty value", "a$(EMPTY)b", "ab"},
		{"values are not re-expanded", "$(REF)", "$(HOST)"},
		{"escaped dollar", `\$10`, "$10"},
		{"escaped dollar before name", `\$HOST`, "$HOST"},
		{"escaped dollar before paren", `\$(HOST)`, "$(HOST)"},
		{"double backslash", `\\$A`, `\$A`},
		{"backslash elsewhere kept", `a\b`, `a\b`},
		{"lone dollar at end", "a$", "a$"},
		{"dollar before punctuation", "$-$/$.", "$-$/$."},
		{"dollar dollar", "$$A", "$x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Expander{Lookup: lookup}.Expand(c.in)
			if err != nil {
				t.Fatalf("expand(%q) error: %v", c.in, err)
			}
			if got != c.want {
				t.Errorf("expand(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestExpandErrors(t *testing.T) {
	t.Parallel()
	lookup := func(name string) (string, bool) { return "v", name == "A" }
	cases := []struct {
		name, in, want string
		undefined      bool
	}{
		{"undefined parens", "$(HOST)", "undefined variable HOST", true},
		{"undefined braces", "${HOST}", "undefined variable HOST", true},
		{"undefined bare", "$HOST:80", "undefined variable HOST", true},
		{"undefined digit name", "$5", "undefined variable 5", true},
		{"unterminated parens", "$(HOST/x", `unterminated "$(": missing ")"`, false},
		{"unterminated braces", "${HOST", `unterminated "${": missing "}"`, false},
		{"wrong closer", "$(HOST}", `unterminated "$(": missing ")"`, false},
		{"empty name", "$()", `invalid variable name ""`, false},
		{"bad name", "$(A-B)", `invalid variable name "A-B"`, false},
		{"nested reference", "$(A$(A))", `invalid variable name "A$(A"`, false},
		{"second reference fails", "$(A)/$(B)", "undefined variable B", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Expander{Lookup: lookup}.Expand(c.in)
			if err == nil {
				t.Fatalf("expand(%q) succeeded, want error %q", c.in, c.want)
			}
			if err.Error() != c.want {
				t.Errorf("expand(%q) error = %q, want %q", c.in, err, c.want)
			}
			if got := errors.Is(err, ErrUndefinedVariable); got != c.undefined {
				t.Errorf("errors.Is(err, ErrUndefinedVariable) = %v, want %v", got, c.undefined)
			}
		})
	}
}

func TestExpandNilLookup(t *testing.T) {
	t.Parallel()
	if _, err := (Expander{}).Expand("$(X)"); err == nil || err.Error() != "undefined variable X" {
		t.Errorf("expand with nil lookup: err = %v, want undefined variable X", err)
	}
}

// TestExpandAnyBracketedName pins the one difference siegerc files need: bracketed names may
// hold any byte but the closer (siegerc keys have '-'), the empty name included, while bare
// names and everything else read as in URL files.
func TestExpandAnyBracketedName(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"proxy-host": "p.test", "A": "x", "": "empty-name", "a b": "spaced"}
	lookup := func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
	cases := []struct {
		name, in, want, err string
	}{
		{name: "dash in parens", in: "$(proxy-host):3128", want: "p.test:3128"},
		{name: "dash in braces", in: "${proxy-host}", want: "p.test"},
		{name: "bare name stops at the dash", in: "$A-b", want: "x-b"},
		{name: "blank in a name", in: "$(a b)", want: "spaced"},
		{name: "empty name", in: "$()", want: "empty-name"},
		{name: "escaped dollar", in: `\$(proxy-host)`, want: "$(proxy-host)"},
		{name: "undefined bracketed name", in: "$(no-such)", err: "undefined variable no-such"},
		{name: "unterminated", in: "${proxy-host", err: `unterminated "${": missing "}"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Expander{Lookup: lookup, AnyBracketedName: true}.Expand(c.in)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("Expand(%q) = %q, %v; want error %q", c.in, got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("Expand(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
}

// TestUndefinedVariableError checks that callers can word the error themselves: the name is
// in the typed error, which still matches ErrUndefinedVariable.
func TestUndefinedVariableError(t *testing.T) {
	t.Parallel()
	_, err := (Expander{}).Expand("a/${HOST}/b")
	var ue *UndefinedVariableError
	if !errors.As(err, &ue) || ue.Name != "HOST" || !errors.Is(err, ErrUndefinedVariable) {
		t.Fatalf("error %v (%T), want an *UndefinedVariableError for HOST", err, err)
	}
}
