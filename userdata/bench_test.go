package userdata

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkParse reads a data file of 10 000 accounts, as a large run's would be.
func BenchmarkParse(b *testing.B) {
	var text strings.Builder
	text.WriteString("user,pass,email\r\n")
	for i := range 10000 {
		fmt.Fprintf(&text, "user%d,\"p,%d\",user%d@example.org\r\n", i, i, i)
	}
	s := text.String()
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(strings.NewReader(s), "users.csv", Sequential); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRow is what each user pays once for its row.
func BenchmarkRow(b *testing.B) {
	tab, err := Parse(strings.NewReader("user,pass\na,1\nb,2\nc,3\n"), "users.csv", Random)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = tab.Row(i, rng)
	}
}
