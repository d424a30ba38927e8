package convert

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
)

// dexFiles are the XRechnung extension instances with sub-invoice lines
// (BG-DEX-01) and no second VAT category on a sub-line (the BR-DEX-03
// invalid instance leaves that unconsumed, a loss of its own).
var dexFiles = []string{
	"ubl-inv-br-dex-02-check-0-values.xml",
	"ubl-inv-br-dex-02-check-correct-sums-sub-invoice-line-2.xml",
	"ubl-inv-br-dex-02-check-correct-sums-sub-invoice-line.xml",
	"ubl-inv-br-dex-02-some-invoicelines-with-sub.xml",
	"ubl-inv-br-dex-03-test.xml",
}

const dexDir = "corpus/xrechnung/test/instances/ubl-inv"

func subLineCount(inv *model.Invoice) int {
	n := 0
	model.WalkLines(inv.Lines, func(_ *model.Line, loc []any) {
		if len(loc) > 2 {
			n++
		}
	})
	return n
}

// TestConvertSubLinesUBL: xrechnung-to-ubl and ubl-to-xrechnung carry the
// sub-lines: the target's model equals the source's but for the listed
// BT-24 change.
func TestConvertSubLinesUBL(t *testing.T) {
	ctx := context.Background()
	for _, f := range dexFiles {
		src := sharedFile(t, filepath.Join(dexDir, f))
		want := readAny(t, src)
		if subLineCount(want) == 0 {
			t.Fatalf("%s: no sub-lines read", f)
		}
		for _, d := range []Direction{{XRechnung, UBL}, {UBL, XRechnung}} {
			res, losses, err := Convert(ctx, d, src, Options{Indent: " "})
			if err != nil || len(losses) > 0 {
				t.Fatalf("%s %s: %v, losses %+v", f, d, err, losses)
			}
			got := readAny(t, res.XML)
			w := *want
			pc := *w.ProcessControl
			w.ProcessControl = &pc
			for _, c := range res.Changes {
				if c.Location != "/process_control/specification_id" {
					t.Errorf("%s %s: unexpected change %+v", f, d, c)
				}
				pc.SpecificationID = c.To
			}
			if diffs := model.Diff(&w, got); len(diffs) > 0 {
				t.Errorf("%s %s: target differs at %v", f, d, diffs)
			}
			if subLineCount(got) != subLineCount(want) {
				t.Errorf("%s %s: %d sub-lines, want %d", f, d, subLineCount(got), subLineCount(want))
			}
		}
	}
}

// TestConvertSubLinesToCIIRefused: to CII (ubl-to-cii, xrechnung-to-cii,
// ubl-to-xrechnung with syntax=cii) every outermost cac:SubInvoiceLine of
// the source is one loss, with its source path and line.
func TestConvertSubLinesToCIIRefused(t *testing.T) {
	ctx := context.Background()
	for _, f := range dexFiles {
		src := sharedFile(t, filepath.Join(dexDir, f))
		doc, err := xmltree.Parse(src, xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		var want []Loss
		for n := xmltree.NodeID(1); int(n) < doc.Len(); n++ {
			if doc.Kind(n) == xmltree.KindElement && doc.NameLocal(doc.Name(n)) == "SubInvoiceLine" &&
				doc.NameLocal(doc.Name(doc.Parent(n))) == "InvoiceLine" {
				want = append(want, Loss{Path: doc.Path(n), Line: doc.Line(n), BT: "BG-DEX-01", Reason: subLineReason})
			}
		}
		if len(want) == 0 {
			t.Fatalf("%s: no sub-lines", f)
		}
		for _, c := range []struct {
			d   Direction
			syn string
		}{{Direction{UBL, CII}, ""}, {Direction{XRechnung, CII}, ""}, {Direction{UBL, XRechnung}, CII}} {
			res, losses, err := Convert(ctx, c.d, src, Options{Syntax: c.syn})
			if err != nil || res != nil {
				t.Fatalf("%s %s: %+v, %v", f, c.d, res, err)
			}
			if !slices.Equal(losses, want) {
				t.Errorf("%s %s: losses\n  %+v\nwant\n  %+v", f, c.d, losses, want)
			}
		}
	}
}

// TestConvertSubLinesOtherLossesKept: a sub-line the model cannot hold
// completely (two VAT categories, BR-DEX-03) is a loss of its own, listed
// with the sub-line losses of a CII target.
func TestConvertSubLinesOtherLossesKept(t *testing.T) {
	src := sharedFile(t, filepath.Join(dexDir, "ubl-inv-br-dex-03-invalid-test.xml"))
	doc, _ := xmltree.Parse(src, xmltree.DefaultLimits())
	r, err := ubl.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Unconsumed) == 0 || len(r.SubLines) == 0 {
		t.Fatalf("unconsumed %v, sub-lines %v", r.Unconsumed, r.SubLines)
	}
	_, losses, err := Convert(context.Background(), Direction{UBL, CII}, src, Options{})
	if err != nil || len(losses) != len(r.Unconsumed)+len(r.SubLines) {
		t.Fatalf("losses %+v, err %v", losses, err)
	}
	_, losses, err = Convert(context.Background(), Direction{UBL, UBL}, src, Options{})
	if err == nil {
		t.Errorf("ubl-to-ubl is no direction: %v", losses)
	}
	_, losses, _ = Convert(context.Background(), Direction{XRechnung, UBL}, src, Options{})
	if len(losses) != len(r.Unconsumed) {
		t.Errorf("xrechnung-to-ubl losses %+v, want the %d unconsumed nodes", losses, len(r.Unconsumed))
	}
}

// TestConvertSubLinesToXRechnungExtension: a plain UBL invoice with
// sub-lines becomes an XRechnung extension invoice (BT-24 names the
// extension, whose group BG-DEX-01 is), and the change is listed.
func TestConvertSubLinesToXRechnungExtension(t *testing.T) {
	src := sharedFile(t, filepath.Join(dexDir, dexFiles[3]))
	doc, _ := xmltree.Parse(src, xmltree.DefaultLimits())
	r, err := ubl.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	plain := bytes.Replace(src, []byte(r.Invoice.ProcessControl.SpecificationID), []byte(EN16931SpecID), 1)
	res, losses, err := Convert(context.Background(), Direction{UBL, XRechnung}, plain, Options{})
	if err != nil || len(losses) > 0 {
		t.Fatalf("%v %+v", err, losses)
	}
	if got := readAny(t, res.XML).ProcessControl.SpecificationID; got != XRechnungExtensionSpecID {
		t.Errorf("BT-24 %q, want the extension's", got)
	}
	if !slices.ContainsFunc(res.Changes, func(c Change) bool {
		return c.BT == "BT-24" && c.From == EN16931SpecID && c.To == XRechnungExtensionSpecID
	}) {
		t.Errorf("changes %+v", res.Changes)
	}
}
