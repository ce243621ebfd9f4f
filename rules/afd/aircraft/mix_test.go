package aircraft

import (
	"fmt"
	"testing"
)

func TestCombineMix(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"4x30M", "4x30M"}, "8x30M"},
		{[]string{"2x30M", "1x20C", "1x20C"}, "2x30M+2x20C"},
		{[]string{"1x20C", "2x30M"}, "2x30M+1x20C"},
		{[]string{"1x37C", "2x50M", "2x30M", "2x30M"}, "4x30M+2x50M+1x37C"},
		{[]string{"2x30M+1x20C", "2x30M+1x20C"}, "4x30M+2x20C"},
		{[]string{"4x30C"}, "4x30C"},
		{[]string{"4x50M+1x20C", "1x30C"}, "4x50M+1x20C+1x30C"},
	} {
		got, err := CombineMix(c.in...)
		if err != nil || got != c.want {
			t.Errorf("CombineMix(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range [][]string{{}, {""}, {"8x"}, {"x30M"}, {"0x30M"}, {"2x40M"}, {"2x20C+2x30M"}, {"2x30M+1x30M"}, {"2X30M"}, {"02x30M"}, {"4x30M", "junk"}} {
		if got, err := CombineMix(bad...); err == nil {
			t.Errorf("CombineMix(%q) = %q; want an error", bad, got)
		}
	}
}

func ExampleCombineMix() {
	// A Zero's cowl guns and its two wing cannon fire together (seed 000, combat section).
	mix, _ := CombineMix("2x30M", "1x20C", "1x20C")
	fmt.Println(mix)
	// Output: 2x30M+2x20C
}

func FuzzParseMix(f *testing.F) {
	for _, s := range []string{"8x30M", "2x30M+2x20C", "4x50M+1x37C", "x", "+", "1x20C+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseMix(s)
		if err != nil {
			return
		}
		if back := FormatMix(c); back != s {
			t.Errorf("ParseMix(%q) prints back as %q", s, back)
		}
	})
}
