package rulesets

import (
	"context"
	"testing"
)

// BenchmarkLoad measures start-up: every rule set of every profile (with
// the shared directory: Factur-X code lists, XRechnung configuration)
// compiled from the generated tables.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c, err := Load(WithShared(sharedDir()))
		if err != nil {
			b.Fatal(err)
		}
		if len(c.Info()) == 0 {
			b.Fatal("empty catalog")
		}
	}
}

// BenchmarkProfileValidateXRechnung measures a validation through the
// xrechnung profile (scenario selection, two rule sets, overrides).
func BenchmarkProfileValidateXRechnung(b *testing.B) {
	c := catalogT(b)
	p, _ := c.Profile(SyntaxUBL, "xrechnung")
	doc := readDoc(b, xrUBL, nil)
	b.ReportAllocs()
	for b.Loop() {
		r, err := p.Validate(context.Background(), doc)
		if err != nil || !r.Valid {
			b.Fatal(err, r)
		}
	}
}

// BenchmarkLoadLazyOneProfile: start-up of a one-shot process that uses
// one profile (xrechnung UBL: two rule sets).
func BenchmarkLoadLazyOneProfile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c, err := Load(WithShared(sharedDir()), WithLazy())
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := c.Profile(SyntaxUBL, "xrechnung"); !ok {
			b.Fatal("xrechnung not loaded")
		}
	}
}
