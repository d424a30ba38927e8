package render

import (
	"errors"
	"fmt"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// Errors of Read. Callers answer both with a 422; ErrParse wraps the
// xmltree error (*xmltree.SyntaxError, *xmltree.LimitError).
var (
	ErrParse  = errors.New("render: source is not acceptable XML")
	ErrSyntax = errors.New("render: not a UBL Invoice/CreditNote or CII CrossIndustryInvoice")
)

// Source is an invoice read for rendering.
type Source struct {
	Invoice *model.Invoice
	Syntax  string // "ubl" or "cii"
	// Doc is the parsed document; Unconsumed the nodes the reader did not
	// carry into the model (they are not rendered).
	Doc        *xmltree.Document
	Unconsumed []xmlio.Node
}

// Read parses src, detects UBL (Invoice or CreditNote) or CII by its root
// and reads it into the model.
func Read(src []byte) (*Source, error) {
	doc, err := xmltree.Parse(src, xmltree.DefaultLimits())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrParse, err)
	}
	switch {
	case ubl.Detect(doc):
		r, err := ubl.Read(doc)
		if err != nil {
			return nil, fmt.Errorf("render.Read: %w", err)
		}
		return &Source{Invoice: r.Invoice, Syntax: "ubl", Doc: doc, Unconsumed: r.Unconsumed}, nil
	case cii.Detect(doc):
		r, err := cii.Read(doc)
		if err != nil {
			return nil, fmt.Errorf("render.Read: %w", err)
		}
		return &Source{Invoice: r.Invoice, Syntax: "cii", Doc: doc, Unconsumed: r.Unconsumed}, nil
	}
	root := doc.Root()
	name := ""
	if root != xmltree.None {
		id := doc.Name(root)
		name = "{" + doc.NameSpace(id) + "}" + doc.NameLocal(id)
	}
	return nil, fmt.Errorf("%w: the root is %s", ErrSyntax, name)
}
