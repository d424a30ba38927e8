package ubl

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
)

var positionRE = regexp.MustCompile(`\[[0-9]+\]`)

// subLineFiles are the XRechnung test instances with sub-invoice lines
// (BG-DEX-01).
func subLineFiles(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(sharedDir(t), "corpus/xrechnung/test/instances/ubl-inv/ubl-inv-br-dex-0[23]-*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m) < 6 {
		t.Fatalf("only %d BR-DEX-02/03 instances", len(m))
	}
	return m
}

// countElements counts the elements named local in doc.
func countElements(doc *xmltree.Document, local string) int {
	n := 0
	for id := xmltree.NodeID(1); int(id) < doc.Len(); id++ {
		if doc.Kind(id) == xmltree.KindElement && doc.NameLocal(doc.Name(id)) == local {
			n++
		}
	}
	return n
}

func countSubLines(inv *model.Invoice) int {
	n := 0
	model.WalkLines(inv.Lines, func(_ *model.Line, loc []any) {
		if len(loc) > 2 {
			n++
		}
	})
	return n
}

// readWriteRead reads doc, writes the model (as a credit note when
// credit), reads it back and checks the models are equal and nothing is
// left unconsumed; it returns both results and the written XML.
func readWriteRead(t *testing.T, name string, inv *model.Invoice) (*ReadResult, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, inv, WriteOptions{Indent: " "}); err != nil {
		t.Fatalf("%s: write: %v", name, err)
	}
	doc, err := xmltree.Parse(buf.Bytes(), xmltree.DefaultLimits())
	if err != nil {
		t.Fatalf("%s: written document does not parse: %v", name, err)
	}
	back, err := Read(doc)
	if err != nil {
		t.Fatalf("%s: read back: %v", name, err)
	}
	if len(back.Unconsumed) != 0 || len(back.Warnings) != 0 {
		t.Errorf("%s: written document has unconsumed nodes %v, warnings %v", name, back.Unconsumed, back.Warnings)
	}
	if diffs := model.Diff(inv, back.Invoice); len(diffs) != 0 {
		t.Errorf("%s: round trip changed the model:\n  %s", name, strings.Join(diffs, "\n  "))
	}
	return back, buf.Bytes()
}

// TestSubLinesRoundTrip: every sub-invoice line of the XRechnung BR-DEX
// instances is read (nothing under a cac:SubInvoiceLine is left
// unconsumed, every one becomes a model sub-line), written back as
// cac:SubInvoiceLine (and as cac:SubCreditNoteLine for a credit note) and
// read back to an equal model.
func TestSubLinesRoundTrip(t *testing.T) {
	for _, f := range subLineFiles(t) {
		name := rel(t, f)
		doc := parseFile(t, f)
		res, err := Read(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Only what the model cannot hold stays unconsumed, with a
		// warning (BR-DEX-03's invalid instance: a second VAT category).
		for _, u := range res.Unconsumed {
			warned := false
			for _, w := range res.Warnings {
				warned = warned || strings.HasPrefix(w, u.Path+" (")
			}
			if strings.Contains(u.Path, "SubInvoiceLine") && !warned {
				t.Errorf("%s: sub-line node not consumed: %s (%s)", name, u.Path, u.BT)
			}
		}
		outer := 0
		for _, l := range res.Invoice.Lines {
			outer += len(l.SubLines)
		}
		if len(res.SubLines) != outer {
			t.Errorf("%s: ReadResult.SubLines %v, the model has %d outermost sub-lines", name, res.SubLines, outer)
		}
		for _, n := range res.SubLines {
			if n.BT != "BG-DEX-01" || n.Line == 0 || !strings.HasSuffix(positionRE.ReplaceAllString(n.Path, ""), "/InvoiceLine/SubInvoiceLine") {
				t.Errorf("%s: sub-line node %+v", name, n)
			}
		}
		want := countElements(doc, "SubInvoiceLine")
		if got := countSubLines(res.Invoice); got != want || want == 0 {
			t.Errorf("%s: %d sub-lines read, the document has %d", name, got, want)
		}
		_, out := readWriteRead(t, name, res.Invoice)
		back, _ := xmltree.Parse(out, xmltree.DefaultLimits())
		if got := countElements(back, "SubInvoiceLine"); got != want {
			t.Errorf("%s: %d cac:SubInvoiceLine written, want %d", name, got, want)
		}
		// XSD: cac:Price needs cbc:PriceAmount; a sub-line without a
		// price has no cac:Price.
		if p, a := countElements(back, "Price"), countElements(back, "PriceAmount"); p != a {
			t.Errorf("%s: %d cac:Price written, %d with cbc:PriceAmount", name, p, a)
		}

		cn := *res.Invoice
		cn.TypeCode = "381"
		cn.DueDate = nil
		backCN, outCN := readWriteRead(t, name+" as credit note", &cn)
		if !backCN.CreditNote {
			t.Errorf("%s: credit note not written as CreditNote", name)
		}
		docCN, _ := xmltree.Parse(outCN, xmltree.DefaultLimits())
		if got := countElements(docCN, "SubCreditNoteLine"); got != want {
			t.Errorf("%s: %d cac:SubCreditNoteLine written, want %d", name, got, want)
		}
	}
}

// TestSubLineValues checks the values of one instance term by term.
func TestSubLineValues(t *testing.T) {
	f := filepath.Join(sharedDir(t), "corpus/xrechnung/test/instances/ubl-inv/ubl-inv-br-dex-02-check-correct-sums-sub-invoice-line.xml")
	res, err := Read(parseFile(t, f))
	if err != nil {
		t.Fatal(err)
	}
	l := res.Invoice.Lines[0]
	if len(l.SubLines) != 2 {
		t.Fatalf("line 1 has %d sub-lines", len(l.SubLines))
	}
	s := l.SubLines[1]
	if s.ID != "1 2" || s.Quantity.String() != "35" || s.UnitCode != "XPP" || s.NetAmount.String() != "15.40" ||
		s.NetPrice.String() != "0.44" || s.Item.Name != "Kasack Bodo blau UKD" {
		t.Errorf("sub-line 1 2 = %+v", s)
	}
	if res.Invoice.Totals.LineNetTotal.String() != l.NetAmount.String() {
		t.Errorf("BT-106 %s is not the line's %s", res.Invoice.Totals.LineNetTotal, l.NetAmount)
	}
}

// TestSubLineWriteRefusals: the writer's checks apply to sub-lines too,
// named by their place.
func TestSubLineWriteRefusals(t *testing.T) {
	f := filepath.Join(sharedDir(t), "corpus/xrechnung/test/instances/ubl-inv/ubl-inv-br-dex-02-check-correct-sums-sub-invoice-line.xml")
	res, err := Read(parseFile(t, f))
	if err != nil {
		t.Fatal(err)
	}
	res.Invoice.Lines[0].SubLines[1].GrossBaseQuantity = model.Dec(model.MustParseDecimal("2"))
	err = Write(&bytes.Buffer{}, res.Invoice, WriteOptions{})
	if err == nil || !strings.Contains(err.Error(), "line 1 sub-line 2: BT-148 on its own base quantity") {
		t.Errorf("err = %v", err)
	}
}
