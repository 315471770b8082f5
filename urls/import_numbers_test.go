package urls

import (
	"strings"
	"testing"
)

func TestParseImportCount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want int64
	}{
		{"plain", "1234", 1234},
		{"zero", "0", 0},
		{"leading zeros", "007", 7},
		{"comma thousands", "1,234", 1234},
		{"comma millions", "12,345,678", 12345678},
		{"dot thousands", "1.234", 1234},
		{"dot thousands of 1000", "1.000", 1000},
		{"dot millions", "1.234.567", 1234567},
		{"space thousands", "1 234", 1234},
		{"no-break space", "1\u00a0234", 1234},
		{"narrow no-break space", "1\u202f234", 1234},
		{"thin space", "1\u2009234\u2009567", 1234567},
		{"blanks around", " \t1 234\u00a0", 1234},
		{"zero decimals", "1234.0", 1234},
		{"zero decimals comma", "1234,00", 1234},
		{"three zero decimals after four digits", "1234.000", 1234},
		{"comma thousands dot decimals", "1,234.0", 1234},
		{"dot thousands comma decimals", "1.234,00", 1234},
		{"space thousands comma decimals", "1 234,0", 1234},
		{"space thousands and three zero decimals", "1 234,000", 1234},
		{"largest", "9223372036854775807", 9223372036854775807},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseImportCount(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("parseImportCount(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseImportCountErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"empty", "", "empty count"},
		{"blank", " \u00a0", "empty count"},
		{"word", "lots", "is not a number"},
		{"negative", "-5", "is not a number"},
		{"plus", "+5", "is not a number"},
		{"exponent", "1e3", "is not a number"},
		{"percent", "12%", "is not a number"},
		{"time", "0:01:05", "is not a number"},
		{"leading dot", ".5", "is not a number"},
		{"trailing dot", "5.", "is not a number"},
		{"two separators", "1,,234", "is not a number"},
		{"fraction", "12.5", "is not a whole number"},
		{"decimal comma", "1,5", "is not a whole number"},
		{"leading zero decimal", "0.123", "is not a whole number"},
		{"four digits after one mark", "1,2345", "is not a whole number"},
		{"four digits before one mark", "1234,567", "is not a whole number"},
		{"space then three decimals", "1 234,567", "is not a whole number"},
		{"indian grouping", "1,23,456", "thousands group without three digits"},
		{"short group", "1 23", "thousands group without three digits"},
		{"long first group", "1234 567", "thousands group without three digits"},
		{"mixed groups", "1 234,567,890", "mixes thousands separators"},
		{"marks mixed twice", "1,234.567,8", "mixes ',' and '.'"},
		{"overflow", "9223372036854775808", "is too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseImportCount(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("parseImportCount(%q) = %d, %v; want an error containing %q", tt.in, got, err, tt.want)
			}
		})
	}
}
