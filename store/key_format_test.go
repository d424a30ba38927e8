package store

import (
	"regexp"
	"strings"
	"testing"
)

// TestRandBase62Uniform checks the character distribution with a chi-square test.
// Plain b%62 without rejection would make '0'..'7' 25% more frequent, which
// pushes the statistic far above the bound (about 700 for this sample size).
func TestRandBase62Uniform(t *testing.T) {
	const perBin = 2000
	s, err := randBase62(62 * perBin)
	if err != nil {
		t.Fatal(err)
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	chi2 := 0.0
	for i := 0; i < len(base62); i++ {
		d := float64(counts[base62[i]] - perBin)
		chi2 += d * d / perBin
	}
	// 61 degrees of freedom: P(chi2 > 125) < 1e-5 for a uniform source.
	if chi2 > 125 {
		t.Fatalf("chi-square = %.1f over 61 degrees of freedom: not uniform", chi2)
	}
	if len(s) != 62*perBin || strings.Trim(s, base62) != "" {
		t.Fatalf("randBase62 returned characters outside base62 or the wrong length")
	}
}

func TestNewPlaintextKeyAndID(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		p, display, err := newPlaintextKey()
		if err != nil {
			t.Fatal(err)
		}
		if !wellFormedKey(p) || display != p[:12] || seen[p] {
			t.Fatalf("key %q (display %q): malformed, wrong display prefix or repeated", p, display)
		}
		seen[p] = true
		id, err := newKeyID()
		if err != nil {
			t.Fatal(err)
		}
		if !keyIDRE.MatchString(id) || seen[id] {
			t.Fatalf("id %q malformed or repeated", id)
		}
		seen[id] = true
	}
}

var keyShapeRE = regexp.MustCompile(`^ek_live_[0-9A-Za-z]{32}$`)

func TestWellFormedKey(t *testing.T) {
	good := "ek_live_" + strings.Repeat("aZ09", 8)
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{good, true},
		{"ek_live_" + strings.Repeat("z", 32), true},
		{"", false},
		{"ek_live_", false},
		{good[:39], false},
		{good + "0", false},
		{"ek_test_" + good[8:], false},
		{"EK_LIVE_" + good[8:], false},
		{"ek_live_" + strings.Repeat("a", 31) + "_", false},
		{"ek_live_" + strings.Repeat("a", 31) + "\x00", false},
		{"ek_live_" + strings.Repeat("a", 30) + "é", false}, // 2 bytes: right length, wrong charset
		{" " + good[:39], false},
	} {
		if got := wellFormedKey(tc.in); got != tc.want {
			t.Errorf("wellFormedKey(%q) = %v, want %v", tc.in, got, tc.want)
		}
		if got := keyShapeRE.MatchString(tc.in); got != tc.want {
			t.Fatalf("test table disagrees with the documented shape for %q", tc.in)
		}
	}
}

func TestHashKeyKnownVector(t *testing.T) {
	raw, hexSum := hashKey("abc")
	const want = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" // FIPS 180-2 example
	if hexSum != want || raw[0] != 0xba || raw[31] != 0xad {
		t.Fatalf("hashKey(abc) = %s, want %s", hexSum, want)
	}
}
