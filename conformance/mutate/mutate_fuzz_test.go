package mutate

import (
	"errors"
	"testing"
)

// FuzzParseMutate: Parse accepts any bytes and either indexes them or fails
// with ErrNotXML (the only allowed error); a parsed document mutates to
// well-formed XML for every seed.
func FuzzParseMutate(f *testing.F) {
	f.Add([]byte(`<r a="1"><x>10.5</x><d>2024-01-01</d><y/></r>`), uint64(1))
	f.Add([]byte(`<?xml version="1.0"?><r xmlns:c="urn:c"><c:TypeCode>380</c:TypeCode><!-- c --><c:P>19</c:P></r>`), uint64(7))
	f.Add([]byte(`<a b='&amp;"'>&lt;<![CDATA[x]]></a>`), uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		d, err := Parse("f", data, nil)
		if err != nil {
			if !errors.Is(err, ErrNotXML) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		m := d.Mutate(seed)
		if err := wellFormed(m.Data); err != nil {
			t.Fatalf("%s: mutant not well-formed: %v\n%q", m.Name, err, m.Data)
		}
	})
}
