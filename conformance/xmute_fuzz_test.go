package conformance

import (
	"errors"
	"testing"
)

// FuzzXmute: the instance reader and the mutators never panic, fail only
// with the allow-listed errors, and every mutant of a well-formed instance
// is well-formed again (ParseXmute reads it).
func FuzzXmute(f *testing.F) {
	for _, s := range []string{
		`<r><?xmute mutator="code" values="a,b" attribute="u"?><x u="1">t</x></r>`,
		`<r><?xmute mutator="remove" schematron-invalid="xrubl:A"?><x/></r>`,
		`<r><?xmute mutator="empty"?><x><y/></x><?xmute mutator="whitespace"?><z>q</z></r>`,
		`<r><?xmute mutator="identity" schematron-valid="p:A p:B"?></r>`,
		`<r><?xmute mutator="code" values="&lt;"?><x>1</x></r>`,
	} {
		f.Add([]byte(s))
	}
	allowed := []error{ErrXmuteSyntax, ErrXmuteTarget, ErrXmuteMutator, ErrXmuteDocument}
	isAllowed := func(err error) bool {
		for _, a := range allowed {
			if errors.Is(err, a) {
				return true
			}
		}
		return false
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		inss, err := ParseXmute(data)
		if err != nil {
			if !isAllowed(err) {
				t.Fatalf("unexpected error type: %v", err)
			}
			return
		}
		for _, ins := range inss {
			ms, err := ins.Mutants(data)
			if err != nil {
				if !isAllowed(err) {
					t.Fatalf("unexpected error type: %v", err)
				}
				continue
			}
			for _, m := range ms {
				if _, err := ParseXmute(m.Doc); err != nil {
					t.Fatalf("mutant %q of %q (%s) is not well-formed: %v", m.Doc, data, ins.Mutator, err)
				}
			}
		}
	})
}
