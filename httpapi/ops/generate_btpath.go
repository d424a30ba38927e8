package ops

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// wildcard marks an array index in a btPaths entry.
const wildcard = "*"

// btPaths maps each business term or group of the canonical model ("BT-131")
// to its JSON path inside the invoice object (["lines", "*", "net_amount"]),
// read once from the model's struct tags (json and bt). The first (shallowest,
// in field order) occurrence of a term wins. It is computed on first use
// (not at package initialisation, which every CLI command pays) and never
// written afterwards.
var btPaths = sync.OnceValue(buildBTPaths)

func buildBTPaths() map[string][]any {
	out := map[string][]any{}
	var walk func(t reflect.Type, path []any, depth int)
	walk = func(t reflect.Type, path []any, depth int) {
		if depth > 8 {
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" || !f.IsExported() {
				continue
			}
			p := append(append([]any(nil), path...), name)
			if bt := f.Tag.Get("bt"); bt != "" {
				if _, seen := out[bt]; !seen {
					out[bt] = p
				}
			}
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8 {
				p = append(p, wildcard)
				ft = ft.Elem()
				for ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
			}
			if ft.Kind() == reflect.Struct && ft.PkgPath() == reflect.TypeFor[model.Invoice]().PkgPath() && ft.NumField() > 0 && !isLeaf(ft) {
				walk(ft, p, depth+1)
			}
		}
	}
	walk(reflect.TypeFor[model.Invoice](), nil, 0)
	return out
}

// isLeaf tells the model's value types (decimal, date) from term groups.
func isLeaf(t reflect.Type) bool {
	return t == reflect.TypeFor[model.Decimal]() || t == reflect.TypeFor[model.Date]()
}

// BTPath returns the JSON path of a business term inside the invoice object
// ("*" for an array index) and whether the model has the term.
func BTPath(term string) ([]any, bool) {
	p, ok := btPaths()[term]
	return append([]any(nil), p...), ok
}

// lineStep finds the invoice line step of a finding location in either
// syntax (1-based XPath index).
var lineStep = regexp.MustCompile(`(?:InvoiceLine|CreditNoteLine|IncludedSupplyChainTradeLineItem)\[(\d+)\]`)

// lineIndex returns the 0-based line index named by an XPath location.
func lineIndex(location string) (int, bool) {
	m := lineStep.FindStringSubmatch(location)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 1 {
		return 0, false
	}
	return n - 1, true
}
