package rulesets

import (
	"context"
	"fmt"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/internal/profilecases"
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

// BenchmarkProfileSteps runs each profile of profilecases.Cases (the
// documents of scripts/profilebench.sh) on its document: the profile's
// rule sets alone (scenario selection, every stage, overrides), parse
// and XSD excluded, alternating two parses of the document so that no op
// sees the per-document memos of the one before. The catalog is lazy, so
// a run compiles the profile it measures only, before the loop. Each step
// runs inside profileStep, for callgrind: the instructions of N steps
// (b.Loop runs the body once, without a run of one first) are
//
//	valgrind --tool=callgrind --toggle-collect='github.com/einvoice-dev/einvoice/rulesets.profileStep' \
//	  rulesets.test -test.run '^$' -test.bench '^BenchmarkProfileSteps$/^cii_br_fr$' -test.benchtime 100x
//
// (GOGC=off GODEBUG=asyncpreemptoff=1), repeatable to ~0.02 %.
func BenchmarkProfileSteps(b *testing.B) {
	c, err := Load(WithShared(sharedDir()), WithLazy())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, pc := range profilecases.Cases {
		b.Run(pc.Name(), func(b *testing.B) {
			p, ok := c.Profile(pc.Syntax, pc.Profile)
			if !ok {
				b.Fatalf("profile %s/%s not in the catalog", pc.Syntax, pc.Profile)
			}
			docs := [2]*xmltree.Document{readDoc(b, "corpus/"+pc.Doc, nil), readDoc(b, "corpus/"+pc.Doc, nil)}
			if r, err := p.Validate(ctx, docs[0]); err != nil || !r.Complete {
				b.Fatal(err, r)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				if err := profileStep(ctx, p, docs[i&1]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// profileStep is one step of BenchmarkProfileSteps.
//
//go:noinline
func profileStep(ctx context.Context, p *Profile, doc *xmltree.Document) error {
	r, err := p.Validate(ctx, doc)
	if err == nil && !r.Complete {
		err = fmt.Errorf("%s: incomplete: %v", p.Name, r.Errors)
	}
	return err
}
