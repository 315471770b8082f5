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
			got, err := expand(c.in, lookup)
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
			_, err := expand(c.in, lookup)
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
	if _, err := expand("$(X)", nil); err == nil || err.Error() != "undefined variable X" {
		t.Errorf("expand with nil lookup: err = %v, want undefined variable X", err)
	}
}
