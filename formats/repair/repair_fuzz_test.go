package repair

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// FuzzRepair feeds arbitrary bytes to RepairUBL and RepairCII. They must
// not panic; errors must be the documented input errors; a repaired
// document must parse again, and without changes it must be the input.
func FuzzRepair(f *testing.F) {
	ubl := sharedFile(f, example4)
	f.Add(ubl, false)
	f.Add(replaceOnce(f, ubl, "<cbc:IssueDate>2013-04-10<", "<cbc:IssueDate>10.04.2013<"), false)
	f.Add(replaceOnce(f, ubl, `<cbc:PayableAmount currencyID="DKK">4675.00<`, `<cbc:PayableAmount currencyID="DKK">1<`), false)
	f.Add(sharedFile(f, ciiEx1), true)
	f.Add([]byte(`<a x=">"><!-- < --><![CDATA[<]]></a>`), false)
	f.Fuzz(checkRepair)
}

// TestRepairMutations runs checkRepair on 1500 random byte mutations of
// broken UBL and CII documents.
func TestRepairMutations(t *testing.T) {
	srcs := [][]byte{
		replaceOnce(t, sharedFile(t, example4), "<cbc:IssueDate>2013-04-10<", "<cbc:IssueDate>10.04.2013<"),
		replaceOnce(t, sharedFile(t, ciiEx1), "<ram:GrandTotalAmount>250.33<", "<ram:GrandTotalAmount>205.33<"),
	}
	r := rand.New(rand.NewPCG(3, 9))
	const alphabet = "<>/=\"a0.-9 Tx![]"
	for i := range 1500 {
		src := srcs[i%2]
		data := append([]byte(nil), src...)
		for range 1 + r.IntN(4) {
			data[r.IntN(len(data))] = alphabet[r.IntN(len(alphabet))]
		}
		checkRepair(t, data, i%2 == 1)
	}
}

func checkRepair(t *testing.T, data []byte, isCII bool) {
	allowed := []error{ErrParse, ErrSyntax, ErrUnsupportedInput}
	fn := RepairUBL
	if isCII {
		fn = RepairCII
	}
	res, err := fn(context.Background(), data)
	if err != nil {
		for _, a := range allowed {
			if errors.Is(err, a) {
				return
			}
		}
		t.Fatalf("unexpected error %v", err)
	}
	if len(res.Changes) == 0 && !bytes.Equal(res.XML, data) {
		t.Fatal("no change listed but the document changed")
	}
	if _, err := xmltree.Parse(res.XML, xmltree.DefaultLimits()); err != nil {
		t.Fatalf("repaired document does not parse: %v", err)
	}
}

// TestScanElementsAgreesWithParser: the rewriter's element scan pairs with
// the parser's elements on tricky markup.
func TestScanElementsAgreesWithParser(t *testing.T) {
	for _, src := range []string{
		`<?xml version="1.0"?><!-- <x> --><a x='>' y="/>"><b/><![CDATA[</a>]]><c>t</c><?pi <d>?></a>`,
		"<a>\n<b \n/><c\n>x</c\n></a>",
	} {
		doc, err := xmltree.Parse([]byte(src), xmltree.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		ed, err := newEditor([]byte(src), doc)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		// the element named c has content "x" or "t"
		for id := range doc.Len() {
			n := xmltree.NodeID(id)
			if doc.Kind(n) == xmltree.KindElement && doc.NameLocal(doc.Name(n)) == "c" {
				if ok, why := ed.setText(n, "NEW"); !ok {
					t.Fatalf("%q: %s", src, why)
				}
			}
		}
		out := string(ed.apply())
		if bytes.Count([]byte(out), []byte(">NEW<")) != 1 || len(out) != len(src)+2 {
			t.Errorf("%q -> %q", src, out)
		}
	}
}
