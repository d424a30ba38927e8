package vm

import (
	"math"
	"testing"
)

// TestSubstringASCII: the slice an ASCII string's substring takes is the
// codepoint loop's answer, for starts and ends that are fractional,
// negative, beyond the string, infinite or NaN.
func TestSubstringASCII(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	bounds := []float64{nan, -inf, -3, -0.5, 0, 0.5, 1, 1.5, 2, 2.4, 2.5, 3, 4.5, 6, 7, 100, inf}
	for _, s := range []string{"", "a", "2026-06-17", "abcdef"} {
		for _, start := range bounds {
			for _, end := range bounds {
				if got, want := substring(s, start, end), substringRunes(s, start, end); got != want {
					t.Errorf("substring(%q, %v, %v) = %q, want %q", s, start, end, got, want)
				}
			}
		}
	}
	if got := substring("é1234", 2, 4); got != "12" {
		t.Errorf("non-ASCII: %q", got)
	}
}
