package orderx

import (
	"fmt"
	"reflect"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/strictjson"
)

// Problem types of DecodeOrder besides the model's.
const (
	ProblemExtraForbidden = strictjson.ProblemExtraForbidden // an unknown member (the order is decoded strictly)
	ProblemPattern        = "string_pattern_mismatch"        // a code of the wrong shape
)

// DecodeOrder decodes an order strictly (formats/strictjson): unknown
// members are refused (extra_forbidden), required members must be present
// and non-empty, and decimals (JSON strings or numbers) and dates
// (YYYY-MM-DD) are parsed exactly; then the rules the types cannot say are
// checked. Every problem is reported, located under locPrefix (for example
// "body"). The error is non-nil exactly when problems is non-empty (it is
// the model.Problems).
func DecodeOrder(data []byte, locPrefix ...any) (*Order, model.Problems, error) {
	o := new(Order)
	if ps := strictjson.Decode(data, o, locPrefix...); len(ps) > 0 {
		return nil, ps, ps
	}
	d := &checker{prefix: locPrefix}
	d.check(o)
	if len(d.problems) > 0 {
		return nil, d.problems, d.problems
	}
	return o, nil, nil
}

type checker struct {
	prefix   []any
	problems model.Problems
}

func (d *checker) add(loc []any, typ, msg string, input any, ctx map[string]any) {
	full := append(append([]any{}, d.prefix...), loc...)
	d.problems = append(d.problems, model.Problem{Loc: full, Type: typ, Msg: msg, Input: input, Ctx: ctx})
}

// check applies the rules the types cannot say: at least one line, a
// buyer address, distinct line ids, codes of the right shape, quantities
// and prices that Order-X can carry.
func (d *checker) check(o *Order) {
	if len(o.Lines) == 0 {
		d.add([]any{"lines"}, model.ProblemTooShort, "List should have at least 1 item", nil, map[string]any{"min_length": 1})
	}
	if o.Buyer.Address == nil {
		d.add([]any{"buyer", "address"}, model.ProblemMissing, "Field required: Order-X BASIC needs the buyer's postal address", nil, nil)
	}
	if !isUpper(o.Currency, 3) {
		d.add([]any{"currency"}, ProblemPattern, "Input should be an ISO 4217 code (3 capital letters)", o.Currency, map[string]any{"pattern": "^[A-Z]{3}$"})
	}
	for _, p := range []struct {
		who string
		p   *Party
	}{{"seller", &o.Seller}, {"buyer", &o.Buyer}} {
		if g := p.p.GlobalID; g != nil && g.SchemeID == "" {
			d.add([]any{p.who, "global_id", "scheme_id"}, model.ProblemMissing, "Field required: Order-X requires the scheme of a global identifier", nil, nil)
		}
		if a := p.p.Address; a != nil && !isUpper(a.CountryCode, 2) {
			d.add([]any{p.who, "address", "country_code"}, ProblemPattern, "Input should be an ISO 3166-1 alpha-2 code (2 capital letters)", a.CountryCode, map[string]any{"pattern": "^[A-Z]{2}$"})
		}
	}
	seen := map[string]int{}
	for i := range o.Lines {
		l := &o.Lines[i]
		if j, dup := seen[l.ID]; dup {
			d.add([]any{"lines", i, "id"}, model.ProblemValueError, fmt.Sprintf("line id already used by lines[%d]", j), l.ID, nil)
		}
		seen[l.ID] = i
		if l.Quantity.Sign() <= 0 {
			d.add([]any{"lines", i, "quantity"}, model.ProblemValueError, "Input should be greater than 0", l.Quantity.String(), map[string]any{"gt": 0})
		}
		if l.NetPrice.Sign() < 0 {
			d.add([]any{"lines", i, "net_price"}, model.ProblemValueError, "Input should be greater than or equal to 0", l.NetPrice.String(), map[string]any{"ge": 0})
		}
		if l.BaseQuantity != nil && l.BaseQuantity.Sign() <= 0 {
			d.add([]any{"lines", i, "base_quantity"}, model.ProblemValueError, "Input should be greater than 0", l.BaseQuantity.String(), map[string]any{"gt": 0})
		}
		if g := l.Item.StandardID; g != nil && g.SchemeID == "" {
			d.add([]any{"lines", i, "item", "standard_id", "scheme_id"}, model.ProblemMissing, "Field required: Order-X requires the scheme of a global identifier", nil, nil)
		}
		if !isUnitCode(l.UnitCode) {
			d.add([]any{"lines", i, "unit_code"}, ProblemPattern, "Input should be a UN/ECE Recommendation 20/21 unit code (1-3 capital letters or digits)", l.UnitCode, map[string]any{"pattern": "^[A-Z0-9]{1,3}$"})
		}
	}
}

func isUpper(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

func isUnitCode(s string) bool {
	if len(s) < 1 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < 'A' || s[i] > 'Z') && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// Members returns, for the order and each nested object type ("Order",
// "Party", "Identifier", "Contact", "Address", "Line", "Item"), its JSON
// member names in order, required ones suffixed with "*". The API's wire
// type is checked against it.
func Members() map[string][]string { return strictjson.Members(reflect.TypeFor[Order]()) }
