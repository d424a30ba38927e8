package repair

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
)

// ErrParse is wrapped when the source is not well-formed XML or exceeds the
// parser's limits (the xmltree error is wrapped too).
var ErrParse = errors.New("repair: source is not acceptable XML")

// ErrSyntax is wrapped when the document is not of the syntax asked for.
var ErrSyntax = errors.New("repair: document is not in the expected syntax")

// Change is one value the repair changed.
type Change struct {
	// Location is the XPath of the changed element in the reference form
	// ("/Invoice[1]/IssueDate[1]").
	Location string `json:"location"`
	BT       string `json:"bt"`
	From     string `json:"from"`
	To       string `json:"to"`
	Reason   string `json:"reason"`
}

// Problem is something the repair found wrong and left as it was.
type Problem struct {
	Location string `json:"location"`
	BT       string `json:"bt,omitempty"`
	Value    string `json:"value,omitempty"`
	Reason   string `json:"reason"`
}

// Result is a repaired document.
type Result struct {
	// XML is the source with the changes made (the source itself, byte for
	// byte, when there are none).
	XML []byte
	// Changes lists the changes in document order of their kind: dates
	// first, then totals.
	Changes []Change
	// Unfixed lists what was found wrong and not changed.
	Unfixed []Problem
}

// RepairUBL repairs a UBL 2.1 Invoice or CreditNote: dates not in ISO form
// are rewritten when the form is unambiguous, then the document totals and
// the VAT breakdown amounts are recomputed from the lines (see
// docs/REPAIR.md).
func RepairUBL(ctx context.Context, src []byte) (*Result, error) {
	return repair(ctx, src, syntaxUBL)
}

// RepairCII repairs a CII CrossIndustryInvoice: only the totals
// recalculation applies (CII dates are format 102 or unreadable).
func RepairCII(ctx context.Context, src []byte) (*Result, error) {
	return repair(ctx, src, syntaxCII)
}

const (
	syntaxUBL = "ubl"
	syntaxCII = "cii"
)

func repair(ctx context.Context, src []byte, syntax string) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("repair %s: %w", syntax, err)
	}
	doc, err := xmltree.Parse(src, xmltree.DefaultLimits())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrParse, err)
	}
	var inv *model.Invoice
	switch syntax {
	case syntaxUBL:
		r, err := ubl.Read(doc)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrSyntax, err)
		}
		inv = r.Invoice
	default:
		r, err := cii.Read(doc)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrSyntax, err)
		}
		inv = r.Invoice
	}
	ed, err := newEditor(src, doc)
	if err != nil {
		return nil, fmt.Errorf("repair %s: %w", syntax, err)
	}
	res := &Result{}
	if syntax == syntaxUBL {
		repairDates(ed, res)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("repair %s: %w", syntax, err)
	}
	var loc locator
	if syntax == syntaxUBL {
		loc = ublLocator(doc, inv.CurrencyCode)
	} else {
		loc = ciiLocator(doc, inv.CurrencyCode)
	}
	repairTotals(ed, inv, loc, res)
	if len(ed.edits) == 0 {
		res.XML = append([]byte(nil), src...)
	} else {
		res.XML = ed.apply()
	}
	return res, nil
}

// repairDates rewrites every cbc:*Date element of a UBL document whose text
// is an unambiguous non-ISO date.
func repairDates(ed *editor, res *Result) {
	doc := ed.doc
	for id := range doc.Len() {
		n := xmltree.NodeID(id)
		if doc.Kind(n) != xmltree.KindElement {
			continue
		}
		name := doc.Name(n)
		local := doc.NameLocal(name)
		if doc.NameSpace(name) != ubl.NSCBC || !strings.HasSuffix(local, "Date") {
			continue
		}
		val := strings.TrimSpace(doc.StringValue(n))
		iso, out, reason := normalizeDate(val)
		bt := dateBT(doc, n, local)
		switch out {
		case dateISO:
			continue
		case dateFixed:
			if ok, why := ed.setText(n, iso); !ok {
				res.Unfixed = append(res.Unfixed, Problem{Location: doc.Path(n), BT: bt, Value: val, Reason: "date not in ISO form, not rewritten: " + why})
				continue
			}
			res.Changes = append(res.Changes, Change{Location: doc.Path(n), BT: bt, From: val, To: iso, Reason: reason})
		default:
			res.Unfixed = append(res.Unfixed, Problem{Location: doc.Path(n), BT: bt, Value: val, Reason: "date left as written: " + reason})
		}
	}
}

// dateBT names the business term of a UBL date element by its place.
func dateBT(doc *xmltree.Document, n xmltree.NodeID, local string) string {
	parent := doc.Parent(n)
	pl := ""
	if parent != xmltree.None && doc.Kind(parent) == xmltree.KindElement {
		pl = doc.NameLocal(doc.Name(parent))
	}
	inLine := false
	for a := parent; a != xmltree.None && doc.Kind(a) == xmltree.KindElement; a = doc.Parent(a) {
		if l := doc.NameLocal(doc.Name(a)); l == "InvoiceLine" || l == "CreditNoteLine" {
			inLine = true
		}
	}
	root := parent == doc.Root()
	switch {
	case root && local == "IssueDate":
		return "BT-2"
	case root && local == "DueDate", pl == "PaymentMeans" && local == "PaymentDueDate":
		return "BT-9"
	case root && local == "TaxPointDate":
		return "BT-7"
	case pl == "InvoicePeriod" && local == "StartDate":
		if inLine {
			return "BT-134"
		}
		return "BT-73"
	case pl == "InvoicePeriod" && local == "EndDate":
		if inLine {
			return "BT-135"
		}
		return "BT-74"
	case pl == "InvoiceDocumentReference" && local == "IssueDate":
		return "BT-26"
	case pl == "Delivery" && local == "ActualDeliveryDate":
		return "BT-72"
	}
	return ""
}
