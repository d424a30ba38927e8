package vm_test

import (
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
)

// normalizeSpaceDef is fn:normalize-space by its definition: the tokens
// between XML whitespace, joined by single spaces.
func normalizeSpaceDef(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }), " ")
}

var normalizeCases = []string{
	"", " ", "\t\n", "a", "a b", "a  b", " a", "a ", " S ", "S\n", "\n  S\n", "a\tb", "a\nb", "a\rb",
	"ab  ", "a b c", " a b ", "a \tb", "\u00a0a\u00a0", "é  ü", "\r\na\rb\n", "x \n y  z\t",
}

// TestNormalizeSpace compares vm.NormalizeSpace with the definition, and
// checks that a value needing only a trim is not copied.
func TestNormalizeSpace(t *testing.T) {
	for _, in := range normalizeCases {
		if got, want := vm.NormalizeSpace(in), normalizeSpaceDef(in); got != want {
			t.Errorf("NormalizeSpace(%q) = %q, want %q", in, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { vm.NormalizeSpace("\n  S  \n") }); n != 0 {
		t.Errorf("NormalizeSpace of a padded token: %v allocations, want 0", n)
	}
}

func FuzzNormalizeSpace(f *testing.F) {
	for _, in := range normalizeCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := vm.NormalizeSpace(in), normalizeSpaceDef(in); got != want {
			t.Errorf("NormalizeSpace(%q) = %q, want %q", in, got, want)
		}
	})
}

var normalizeUpperCases = []string{
	"VAT", "vat", "Vat", "S", "", " ", "V A T", "V  A", " VAT", "VAT ", "VAT\n", "\tVAT", "VA\tT",
	"é", "ÉA", "straße", "ǆ", "AE", "a b", "Z", "z", "[", "`", "{", "@",
}

// TestNormalizeUpper compares the one-pass normalize-space(upper-case())
// of the frame-free operands with the two functions in either order, and
// checks that a code as written is not copied.
func TestNormalizeUpper(t *testing.T) {
	for _, in := range append(normalizeUpperCases, normalizeCases...) {
		checkNormalizeUpper(t, in)
	}
	if n := testing.AllocsPerRun(100, func() { vm.NormalizeUpper("VAT") }); n != 0 {
		t.Errorf("NormalizeUpper(\"VAT\"): %v allocations, want 0", n)
	}
}

func checkNormalizeUpper(t *testing.T, in string) {
	t.Helper()
	got := vm.NormalizeUpper(in)
	if want := vm.NormalizeSpace(vm.UpperCase(in)); got != want {
		t.Errorf("NormalizeUpper(%q) = %q, want %q", in, got, want)
	}
	if want := vm.UpperCase(vm.NormalizeSpace(in)); got != want {
		t.Errorf("NormalizeUpper(%q) = %q, upper-case(normalize-space()) %q", in, got, want)
	}
}

func FuzzNormalizeUpper(f *testing.F) {
	for _, in := range normalizeUpperCases {
		f.Add(in)
	}
	f.Fuzz(checkNormalizeUpper)
}
