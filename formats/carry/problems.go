package carry

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// Problems collects the located problems of a generator: the invoice's
// members sit under Inv (e.g. ["body", "invoice"]), the extras' under Ex.
type Problems struct {
	Inv, Ex []any
	List    model.Problems
}

// NewProblems returns a collector for a request whose invoice and extras
// sit under prefix + "invoice" and prefix + "extras".
func NewProblems(prefix ...any) Problems {
	return Problems{Inv: At(prefix, "invoice"), Ex: At(prefix, "extras")}
}

// At returns loc extended by k (a new slice).
func At(loc []any, k ...any) []any { return append(slices.Clone(loc), k...) }

// IL is a location in the invoice; XL one in the extras.
func (p *Problems) IL(k ...any) []any { return At(p.Inv, k...) }

// XL is a location in the extras.
func (p *Problems) XL(k ...any) []any { return At(p.Ex, k...) }

// Bad records one problem.
func (p *Problems) Bad(loc []any, typ, msg string, input any) {
	p.List = append(p.List, model.Problem{Loc: loc, Type: typ, Msg: msg, Input: input})
}

// UnitPrice returns the unit price of line i (net_price / base_quantity)
// as the national formats write it: at most 8 decimals (more is a
// value_error naming elem, e.g. "FA(3) P_9A"), trailing zeros dropped.
func (p *Problems) UnitPrice(l *model.Line, i int, elem string) string {
	price := *l.NetPrice
	if l.BaseQuantity != nil {
		var err error
		if price, err = price.Div(*l.BaseQuantity, 20); err != nil {
			p.Bad(p.IL("lines", i, "base_quantity"), model.ProblemCalculation, "the unit price cannot be computed: "+err.Error(), l.BaseQuantity.String())
		}
	}
	if !price.Round(8).Equal(price) {
		p.Bad(p.IL("lines", i, "net_price"), model.ProblemValueError, elem+" (net_price / base_quantity) has at most 8 decimals", price.String())
	}
	return TrimZeros(price.Round(8))
}

// MaxLen records a value_error when s has more than n characters, naming
// the format's element (e.g. "Facturae InvoiceNumber").
func (p *Problems) MaxLen(loc []any, s string, n int, elem string) {
	if utf8.RuneCountInString(s) > n {
		p.Bad(loc, model.ProblemValueError, fmt.Sprintf("%s has at most %d characters", elem, n), s)
	}
}
