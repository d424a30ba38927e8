package xpath

import (
	"context"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// sharedDir returns the read-only shared data directory.
func sharedDir() string {
	return testshared.Path()
}

const (
	nsCBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
	nsCAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
	nsInv = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
)

func ublContext() *StaticContext {
	return &StaticContext{Namespaces: map[string]string{"cbc": nsCBC, "cac": nsCAC, "ubl": nsInv}}
}

// testDoc is a small UBL-like invoice used by the unit tests.
const testDoc = `<?xml version="1.0"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
 xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2">
 <cbc:ID>INV-1</cbc:ID>
 <cbc:IssueDate>2024-02-29</cbc:IssueDate>
 <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
 <cbc:Note>first</cbc:Note>
 <cbc:Note>second</cbc:Note>
 <cac:AllowanceCharge>
  <cbc:ChargeIndicator>false</cbc:ChargeIndicator>
  <cbc:Amount currencyID="EUR">10.10</cbc:Amount>
 </cac:AllowanceCharge>
 <cac:InvoiceLine>
  <cbc:ID>1</cbc:ID>
  <cbc:LineExtensionAmount currencyID="EUR">100.10</cbc:LineExtensionAmount>
  <!-- a comment -->
 </cac:InvoiceLine>
 <cac:InvoiceLine>
  <cbc:ID>2</cbc:ID>
  <cbc:LineExtensionAmount currencyID="EUR">0.20</cbc:LineExtensionAmount>
 </cac:InvoiceLine>
 <cac:InvoiceLine>
  <cbc:ID>3</cbc:ID>
  <cbc:LineExtensionAmount currencyID="USD">  7  </cbc:LineExtensionAmount>
 </cac:InvoiceLine>
</Invoice>`

func parseDoc(t testing.TB, src string) *xmltree.Document {
	t.Helper()
	d, err := xmltree.Parse([]byte(src), xmltree.DefaultLimits())
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return d
}

// rootElement returns the document element.
func rootElement(d *xmltree.Document) xmltree.NodeID {
	for c := d.FirstChild(0); c != xmltree.None; c = d.NextSibling(c) {
		if d.Kind(c) == xmltree.KindElement {
			return c
		}
	}
	return xmltree.None
}

func evalString(t testing.TB, d *xmltree.Document, expr string, ctxNode xmltree.NodeID) (string, error) {
	t.Helper()
	p, err := Compile(expr, ublContext())
	if err != nil {
		return "", err
	}
	env := &vm.Env{Doc: d}
	return p.EvalString(context.Background(), env, ctxNode)
}

type xdmSeq = xdm.Sequence

func trueSeq() xdm.Sequence  { return xdm.Sequence{xdm.Bool(true)} }
func falseSeq() xdm.Sequence { return xdm.Sequence{xdm.Bool(false)} }

func nodeID(i int) xmltree.NodeID { return xmltree.NodeID(i) }
