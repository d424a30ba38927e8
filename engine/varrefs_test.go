package engine

import (
	"slices"
	"testing"
)

// TestVarRefs: the in-scope variables a source references, once each, in
// order of first reference; whitespace after '$' is allowed, a longer name
// is another variable, and nothing is found when nothing is in scope.
func TestVarRefs(t *testing.T) {
	vars := map[string]int{"a": 0, "rate": 1, "b-c": 2}
	for _, tc := range []struct {
		src  string
		want []int32
	}{
		{"$a + $rate", []int32{0, 1}},
		{"$rate = $a and $rate", []int32{1, 0}},
		{"$ \n a", []int32{0}},
		{"$ab or $b-c", []int32{2}},
		{"no variables", nil},
		{"$", nil},
		{"x$", nil},
		{"concat('$a', $rate)", []int32{0, 1}}, // a textual scan: the literal counts too (a superset is safe)
	} {
		if got := varRefs(tc.src, vars); !slices.Equal(got, tc.want) {
			t.Errorf("varRefs(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
	if got := varRefs("$a", nil); got != nil {
		t.Errorf("no variables in scope: %v", got)
	}
}
