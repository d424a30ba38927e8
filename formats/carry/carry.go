// Package carry owns the "what a national format can carry" check shared by
// the generators of formats/fatturapa, formats/facturae and formats/ksef: a
// format lists the model's JSON members it holds (Set), and every other
// member the caller gave is a located 422 problem naming it (never a silent
// drop). Strip removes those members, for tests that feed random models to
// a format. It also holds what those generators share besides: the located
// problem collector (Problems), the unit price (Problems.UnitPrice,
// TrimZeros), the 2-decimal amounts (Round2, Percent) and the indented
// document writer (WriteXML, also used by formats/orderx).
package carry

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// ProblemNotCarried is the type of a model field a format cannot hold.
const ProblemNotCarried = "not_carried"

// Set is the model's JSON members (as JSON Pointers with array indexes
// written *, e.g. "/lines/*/item/name") that a format holds.
type Set map[string]bool

// Check returns one problem per member of inv (as the caller gave it,
// before Complete) that s does not hold, located under prefix, with msg.
func Check(inv *model.Invoice, s Set, prefix []any, msg string) (model.Problems, error) {
	v, err := tree(inv)
	if err != nil {
		return nil, err
	}
	var ps model.Problems
	walk(v, nil, func(loc []any) {
		if s[pattern(loc)] {
			return
		}
		ps = append(ps, model.Problem{Loc: append(slices.Clone(prefix), loc...), Type: ProblemNotCarried, Msg: msg})
	})
	return ps, nil
}

// Prepare is the start every generator shares: the members of inv that s
// does not hold are a model.Problems error (located under prefix, with
// msg); then inv is completed in place (model.Invoice.Complete) and the
// values Complete derived are returned.
func Prepare(inv *model.Invoice, s Set, prefix []any, msg string) ([]string, error) {
	ps, err := Check(inv, s, prefix, msg)
	if err != nil {
		return nil, err
	}
	if len(ps) > 0 {
		return nil, ps
	}
	return inv.Complete(prefix...)
}

// Strip returns a copy of inv without the members s does not hold (and
// without objects and arrays left empty).
func Strip(inv *model.Invoice, s Set) (*model.Invoice, error) {
	v, err := tree(inv)
	if err != nil {
		return nil, err
	}
	v = prune(v, nil, s)
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("carry: re-encode: %w", err)
	}
	out, _, _, err := model.DecodeInvoice(b)
	if err != nil {
		return nil, fmt.Errorf("carry: the stripped invoice does not decode: %w", err)
	}
	return out, nil
}

func tree(inv *model.Invoice) (any, error) {
	data, err := model.EncodeInvoice(inv)
	if err != nil {
		return nil, fmt.Errorf("carry: encode the model: %w", err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("carry: re-read the model: %w", err)
	}
	return v, nil
}

func pattern(loc []any) string {
	var b strings.Builder
	for _, x := range loc {
		b.WriteByte('/')
		if _, ok := x.(int); ok {
			b.WriteByte('*')
		} else {
			b.WriteString(x.(string))
		}
	}
	return b.String()
}

// walk calls leaf for every scalar member of v that counts as given (false
// booleans and nulls do not).
func walk(v any, loc []any, leaf func([]any)) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			walk(x[k], append(slices.Clone(loc), k), leaf)
		}
	case []any:
		for i, e := range x {
			walk(e, append(slices.Clone(loc), i), leaf)
		}
	case nil:
	case bool:
		if x {
			leaf(loc)
		}
	default:
		leaf(loc)
	}
}

// prune drops what s does not hold; nil means "nothing left".
func prune(v any, loc []any, s Set) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if p := prune(e, append(slices.Clone(loc), k), s); p != nil {
				out[k] = p
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		var out []any
		for i, e := range x {
			if p := prune(e, append(slices.Clone(loc), i), s); p != nil {
				out = append(out, p)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case nil:
		return nil
	default:
		if s[pattern(loc)] {
			return v
		}
		return nil
	}
}
