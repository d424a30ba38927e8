package vm

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Builtin is an fn:* function of the library.
type Builtin struct {
	Name     string
	Min, Max int // arity range; Max -1 = unbounded
	fn       func(f *frame, fc focus, e *Expr, args []xdm.Sequence) (xdm.Sequence, error)
	// fastArg: the function atomizes its first argument, which may then
	// be evaluated without a frame (Catalog.prepare, frame.call).
	fastArg bool
}

// LookupBuiltin finds the fn:* function local with the given arity.
func LookupBuiltin(local string, arity int) (*Builtin, bool) {
	b, ok := builtins[local]
	if !ok || arity < b.Min || (b.Max >= 0 && arity > b.Max) {
		return nil, false
	}
	return b, true
}

// BuiltinExists reports whether fn:local exists with any arity.
func BuiltinExists(local string) bool { _, ok := builtins[local]; return ok }

type builtinFn = func(f *frame, fc focus, e *Expr, args []xdm.Sequence) (xdm.Sequence, error)

// builtins is the fn:* library, built once and read-only afterwards.
var builtins = func() map[string]*Builtin {
	m := map[string]*Builtin{}
	defineBuiltins(func(name string, min, max int, fn builtinFn) {
		m[name] = &Builtin{Name: name, Min: min, Max: max, fn: fn}
	})
	m["sum"].fastArg = true
	return m
}()

func (f *frame) call(e *Expr, fc focus) (xdm.Sequence, error) {
	base := len(f.args)
	for i, a := range e.Args {
		if i == 0 && a.fastIdx != 0 && e.Builtin.fastArg {
			if s, ok := f.fastArgItems(a, fc); ok {
				f.args = append(f.args, s)
				continue
			}
		}
		s, err := f.eval(a, fc)
		if err != nil {
			f.args = f.args[:base]
			return nil, err
		}
		f.args = append(f.args, s)
	}
	r, err := e.Builtin.fn(f, fc, e, f.args[base:])
	f.args = f.args[:base]
	if err != nil {
		return nil, err
	}
	return r, nil
}

// fastArgItems returns the atomized items of argument a (a fast operand,
// Catalog.prepareFastKey) on the focus node without a frame; ok=false when
// the fast path could not decide, and a is evaluated as usual. The items
// are what atomizing a's value gives, in order: a path of child steps
// from one node visits its nodes in document order, once each.
func (f *frame) fastArgItems(a *Expr, fc focus) (xdm.Sequence, bool) {
	if fc.undefined || fc.item.T != xdm.TNode {
		return nil, false
	}
	b, ok := f.fastKeyAppend(a, xmltree.NodeID(fc.item.Node), f.buf())
	if !ok {
		f.drop(b)
		return nil, false
	}
	return f.done(b), true
}

// strArg returns the string value of an optional single-item argument.
func (f *frame) strArg(s xdm.Sequence, fn string) (string, error) {
	it, ok, err := f.single(s, fn)
	if err != nil || !ok {
		return "", err
	}
	if it.T != xdm.TString && it.T != xdm.TUntyped {
		// Function conversion rules: no promotion from other types to xs:string.
		return "", xdm.Errorf(xdm.ErrType, "%s: argument is %s, xs:string expected", fn, it.T)
	}
	return it.S, nil
}

// anyStrArg returns the string value of an optional xs:anyAtomicType argument.
func (f *frame) anyStrArg(s xdm.Sequence, fn string) (string, error) {
	it, ok, err := f.single(s, fn)
	if err != nil || !ok {
		return "", err
	}
	return it.StringValue(), nil
}

// numArg returns an optional numeric argument (untypedAtomic cast to double).
func (f *frame) numArg(s xdm.Sequence, fn string) (xdm.Item, bool, error) {
	it, ok, err := f.single(s, fn)
	if err != nil || !ok {
		return it, ok, err
	}
	if it.T == xdm.TUntyped {
		it, err = xdm.Cast(it, xdm.TDouble)
		return it, err == nil, err
	}
	if !it.T.IsNumeric() {
		return it, false, xdm.Errorf(xdm.ErrType, "%s: %s is not numeric", fn, it.T)
	}
	return it, true, nil
}

func (f *frame) doubleArg(s xdm.Sequence, fn string) (float64, error) {
	it, ok, err := f.numArg(s, fn)
	if err != nil {
		return 0, err
	}
	if !ok {
		return math.NaN(), nil
	}
	return it.AsFloat(), nil
}

// nodeArg returns the node argument of name(), root(), ... (or the context
// node without one) with its document.
func (f *frame) nodeArg(args []xdm.Sequence, fc focus, fn string) (nodeRef, bool, error) {
	if len(args) == 0 {
		n, err := f.contextNode(fc)
		return nodeRef{f.doc, f.docIdx, n}, err == nil, err
	}
	s := args[0]
	switch {
	case len(s) == 0:
		return nodeRef{}, false, nil
	case len(s) > 1:
		return nodeRef{}, false, xdm.Errorf(xdm.ErrType, "%s: more than one node", fn)
	case s[0].T != xdm.TNode:
		return nodeRef{}, false, xdm.Errorf(xdm.ErrType, "%s: argument is %s, not a node", fn, s[0].T)
	}
	return nodeRef{f.docOf(s[0]), s[0].Doc, xmltree.NodeID(s[0].Node)}, true, nil
}

// nodeRef is a node with its document.
type nodeRef struct {
	d   *xmltree.Document
	idx uint16
	n   xmltree.NodeID
}

// ctxString returns the string value of the argument, or of the context
// item when the function was called without one.
func (f *frame) ctxString(args []xdm.Sequence, fc focus, fn string) (string, error) {
	if len(args) == 0 {
		if fc.undefined {
			return "", &xdm.Error{Code: xdm.ErrNoContext, Msg: fn + ": context item is undefined"}
		}
		return f.itemString(fc.item), nil
	}
	return f.strArg(args[0], fn)
}

func (f *frame) str(s string) xdm.Sequence { return f.one(xdm.String(s)) }

// NormalizeSpace collapses runs of XML whitespace (space, tab, CR, LF) into
// one space and trims them at both ends, as fn:normalize-space. Other
// Unicode spaces (such as U+00A0) are kept, as the reference keeps them.
func NormalizeSpace(s string) string {
	// Most values are normalized already: one pass says so.
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		sp := xdm.IsSpace(c)
		if sp && (c != ' ' || prevSpace) {
			return trimCollapse(s)
		}
		prevSpace = sp
	}
	if prevSpace && s != "" {
		return trimCollapse(s) // a trailing space
	}
	return s
}

// trimCollapse is NormalizeSpace of a value that is not normalized.
// Trimmed of its leading and trailing whitespace, a value whose inside has
// only single spaces is its own normalized form (" S " and "S\n" are
// substrings): no allocation.
func trimCollapse(s string) string {
	t := xdm.TrimSpace(s)
	for k := 0; k < len(t); k++ {
		// (t[k+1] exists: t ends in a non-space)
		if c := t[k]; xdm.IsSpace(c) && (c != ' ' || xdm.IsSpace(t[k+1])) {
			return collapseSpace(t)
		}
	}
	return t
}

// collapseSpace replaces each run of whitespace in t, which neither begins
// nor ends with whitespace, by one space.
func collapseSpace(t string) string {
	var b strings.Builder
	b.Grow(len(t))
	for i := 0; i < len(t); {
		if xdm.IsSpace(t[i]) {
			b.WriteByte(' ')
			for i < len(t) && xdm.IsSpace(t[i]) {
				i++
			}
			continue
		}
		// A run of other bytes is copied at once (a load normalises every
		// static message of the rule sets).
		j := i + 1
		for j < len(t) && !xdm.IsSpace(t[j]) {
			j++
		}
		b.WriteString(t[i:j])
		i = j
	}
	return b.String()
}

// xpathRound rounds half towards positive infinity.
func xpathRound(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 || math.Abs(x) >= 1<<52 {
		return x
	}
	r := math.Floor(x + 0.5)
	if r == 0 && x < 0 {
		return math.Copysign(0, -1)
	}
	return r
}

// stringPairFns are the functions of two strings the scalar closures also
// call (scalar.go).
var stringPairFns = map[string]func(a, b string) xdm.Item{
	"starts-with": func(a, b string) xdm.Item { return xdm.Bool(strings.HasPrefix(a, b)) },
	"ends-with":   func(a, b string) xdm.Item { return xdm.Bool(strings.HasSuffix(a, b)) },
}

// substringBefore is fn:substring-before(a, b) (codepoint collation).
func substringBefore(a, b string) string {
	i := strings.Index(a, b)
	if i < 0 || b == "" {
		return ""
	}
	return a[:i]
}

// substringAfter is fn:substring-after(a, b) (codepoint collation).
func substringAfter(a, b string) string {
	i := strings.Index(a, b)
	if i < 0 {
		return ""
	}
	return a[i+len(b):]
}

// substring is fn:substring of s from the rounded start to end (exclusive,
// +Inf without a length), by codepoints: the codepoints at positions p
// (from 1) with start <= p < end.
func substring(s string, start, end float64) string {
	if start != start || end != end {
		return "" // NaN: no position compares true
	}
	if isASCII(s) {
		// One byte a codepoint: a slice of s (dates, amounts, codes).
		lo, hi := 1.0, float64(len(s)+1)
		if start > lo {
			lo = math.Ceil(start)
		}
		if end < hi {
			hi = math.Ceil(end)
		}
		if lo >= hi {
			return ""
		}
		return s[int(lo)-1 : int(hi)-1]
	}
	return substringRunes(s, start, end)
}

// substringRunes is substring, codepoint by codepoint.
func substringRunes(s string, start, end float64) string {
	var sb strings.Builder
	p := 0
	for _, r := range s {
		p++
		if float64(p) >= start && float64(p) < end {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// numberOf is fn:number of an atomic item (ok) or of the empty sequence:
// its xs:double value, NaN when it has none.
func numberOf(it xdm.Item, ok bool) float64 {
	if !ok {
		return math.NaN()
	}
	r, err := xdm.Cast(it, xdm.TDouble)
	if err != nil {
		return math.NaN()
	}
	return r.Float()
}

// defineBuiltins defines every built-in function through def.
func defineBuiltins(def func(name string, min, max int, fn builtinFn)) {
	def("true", 0, 0, func(f *frame, _ focus, _ *Expr, _ []xdm.Sequence) (xdm.Sequence, error) { return f.boolSeq(true), nil })
	def("false", 0, 0, func(f *frame, _ focus, _ *Expr, _ []xdm.Sequence) (xdm.Sequence, error) { return f.boolSeq(false), nil })
	def("not", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		b, err := f.ebv(a[0])
		return f.boolSeq(!b), err
	})
	def("boolean", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		b, err := f.ebv(a[0])
		return f.boolSeq(b), err
	})
	def("exists", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		return f.boolSeq(len(a[0]) > 0), nil
	})
	def("empty", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		return f.boolSeq(len(a[0]) == 0), nil
	})
	def("count", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		return f.one(xdm.Integer(int64(len(a[0])))), nil
	})
	def("position", 0, 0, func(f *frame, fc focus, _ *Expr, _ []xdm.Sequence) (xdm.Sequence, error) {
		if fc.undefined {
			return nil, &xdm.Error{Code: xdm.ErrNoContext, Msg: "position(): no context"}
		}
		return f.one(xdm.Integer(int64(fc.pos))), nil
	})
	def("last", 0, 0, func(f *frame, fc focus, _ *Expr, _ []xdm.Sequence) (xdm.Sequence, error) {
		if fc.undefined {
			return nil, &xdm.Error{Code: xdm.ErrNoContext, Msg: "last(): no context"}
		}
		return f.one(xdm.Integer(int64(fc.size))), nil
	})
	def("string", 0, 1, func(f *frame, fc focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		if len(a) == 1 && len(a[0]) == 1 {
			return f.str(f.itemString(a[0][0])), nil
		}
		s, err := f.ctxString(a, fc, "string")
		return f.str(s), err
	})
	def("data", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) { return f.atomize(a[0]), nil })
	def("normalize-space", 0, 1, func(f *frame, fc focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		s, err := f.ctxString(a, fc, "normalize-space")
		return f.str(NormalizeSpace(s)), err
	})
	def("string-length", 0, 1, func(f *frame, fc focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		s, err := f.ctxString(a, fc, "string-length")
		return f.one(xdm.Integer(int64(utf8.RuneCountInString(s)))), err
	})
	def("upper-case", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		s, err := f.strArg(a[0], "upper-case")
		return f.str(upperCase(s)), err
	})
	def("lower-case", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		s, err := f.strArg(a[0], "lower-case")
		return f.str(strings.ToLower(s)), err
	})
	def("concat", 2, -1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		var sb strings.Builder
		for _, s := range a {
			v, err := f.anyStrArg(s, "concat")
			if err != nil {
				return nil, err
			}
			sb.WriteString(v)
		}
		return f.str(sb.String()), nil
	})
	def("string-join", 1, 2, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		sep := ""
		if len(a) == 2 {
			var err error
			if sep, err = f.strArg(a[1], "string-join"); err != nil {
				return nil, err
			}
		}
		// The parts first (string values of nodes are views of the
		// document, no copy), then one allocation of the joined size
		// (BR-FR's lets join every cbc:Note of the invoice).
		parts := f.strs[:0]
		size := len(sep) * max(len(a[0])-1, 0)
		for _, it := range a[0] {
			if it.T != xdm.TNode && it.T != xdm.TString && it.T != xdm.TUntyped {
				clear(parts)
				return nil, xdm.Errorf(xdm.ErrType, "string-join: item is %s, xs:string expected", it.T)
			}
			parts = append(parts, f.itemString(it))
			size += len(parts[len(parts)-1])
		}
		var sb strings.Builder
		sb.Grow(size)
		for i, p := range parts {
			if i > 0 {
				sb.WriteString(sep)
			}
			sb.WriteString(p)
		}
		clear(parts) // no document's text held beyond the call
		f.strs = parts[:0]
		return f.str(sb.String()), nil
	})
	twoStr := func(name string, op func(a, b string) xdm.Item) {
		def(name, 2, 3, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
			x, err := f.strArg(a[0], name)
			if err != nil {
				return nil, err
			}
			y, err := f.strArg(a[1], name)
			if err != nil {
				return nil, err
			}
			return f.one(op(x, y)), nil
		})
	}
	twoStr("contains", func(a, b string) xdm.Item { return xdm.Bool(strings.Contains(a, b)) })
	twoStr("starts-with", stringPairFns["starts-with"])
	twoStr("ends-with", stringPairFns["ends-with"])
	twoStr("substring-before", func(a, b string) xdm.Item { return xdm.String(substringBefore(a, b)) })
	twoStr("substring-after", func(a, b string) xdm.Item { return xdm.String(substringAfter(a, b)) })
	def("compare", 2, 3, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		if len(a[0]) == 0 || len(a[1]) == 0 {
			return nil, nil
		}
		x, err := f.strArg(a[0], "compare")
		if err != nil {
			return nil, err
		}
		y, err := f.strArg(a[1], "compare")
		if err != nil {
			return nil, err
		}
		return f.one(xdm.Integer(int64(strings.Compare(x, y)))), nil
	})
	def("substring", 2, 3, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		s, err := f.strArg(a[0], "substring")
		if err != nil {
			return nil, err
		}
		st, err := f.doubleArg(a[1], "substring")
		if err != nil {
			return nil, err
		}
		start := xpathRound(st)
		end := math.Inf(1)
		if len(a) == 3 {
			l, err := f.doubleArg(a[2], "substring")
			if err != nil {
				return nil, err
			}
			end = start + xpathRound(l)
		}
		return f.str(substring(s, start, end)), nil
	})
	def("translate", 3, 3, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		s, err := f.strArg(a[0], "translate")
		if err != nil {
			return nil, err
		}
		from, err := f.strArg(a[1], "translate")
		if err != nil {
			return nil, err
		}
		to, err := f.strArg(a[2], "translate")
		if err != nil {
			return nil, err
		}
		fr, tr := []rune(from), []rune(to)
		var sb strings.Builder
		for _, r := range s {
			idx := -1
			for i, c := range fr {
				if c == r {
					idx = i
					break
				}
			}
			switch {
			case idx < 0:
				sb.WriteRune(r)
			case idx < len(tr):
				sb.WriteRune(tr[idx])
			}
		}
		return f.str(sb.String()), nil
	})
	def("string-to-codepoints", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		s, err := f.strArg(a[0], "string-to-codepoints")
		if err != nil || s == "" {
			return nil, err
		}
		out := f.alloc(utf8.RuneCountInString(s))
		i := 0
		for _, r := range s {
			out[i] = xdm.Integer(int64(r))
			i++
		}
		return out, nil
	})
	def("codepoints-to-string", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		var sb strings.Builder
		for _, it := range a[0] {
			it = f.atom(it)
			if it.T == xdm.TUntyped {
				var err error
				if it, err = xdm.Cast(it, xdm.TInteger); err != nil {
					return nil, err
				}
			}
			v, ok := it.Decimal().Int64()
			if it.T != xdm.TInteger || !ok || !validXMLChar(v) {
				return nil, xdm.Errorf(xdm.ErrCodepoint, "invalid code point %s", it.StringValue())
			}
			sb.WriteRune(rune(v))
		}
		return f.str(sb.String()), nil
	})
	def("number", 0, 1, func(f *frame, fc focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		var it xdm.Item
		ok := true
		if len(a) == 0 {
			if fc.undefined {
				return nil, &xdm.Error{Code: xdm.ErrNoContext, Msg: "number(): no context"}
			}
			it = f.atom(fc.item)
		} else {
			var err error
			if it, ok, err = f.single(a[0], "number"); err != nil {
				return nil, err
			}
		}
		return f.one(xdm.Double(numberOf(it, ok))), nil
	})
	numFn := func(name string, dec func(xdm.Decimal) xdm.Decimal, dbl func(float64) float64) {
		def(name, 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
			it, ok, err := f.numArg(a[0], name)
			if err != nil || !ok {
				return nil, err
			}
			if it.T == xdm.TDouble {
				return f.one(xdm.Double(dbl(it.Float()))), nil
			}
			it = it.WithDecimal(dec(it.Decimal()))
			return f.one(it), nil
		})
	}
	numFn("abs", xdm.Decimal.Abs, math.Abs)
	numFn("floor", xdm.Decimal.Floor, math.Floor)
	numFn("ceiling", xdm.Decimal.Ceil, math.Ceil)
	numFn("round", xdm.Decimal.Round, xpathRound)
	numFn("round-half-to-even", xdm.Decimal.RoundHalfEven, math.RoundToEven)
	def("sum", 1, 2, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		if len(a[0]) == 0 {
			if len(a) == 2 {
				return a[1], nil
			}
			return f.one(xdm.Integer(0)), nil
		}
		acc, err := f.numeric(a[0][0], "sum")
		if err != nil {
			return nil, err
		}
		for _, it := range a[0][1:] {
			x, err := f.numeric(it, "sum")
			if err != nil {
				return nil, err
			}
			if acc, err = xdm.Arith(xdm.OpAdd, acc, x); err != nil {
				return nil, err
			}
		}
		return f.one(acc), nil
	})
	def("avg", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		if len(a[0]) == 0 {
			return nil, nil
		}
		acc, err := f.numeric(a[0][0], "avg")
		if err != nil {
			return nil, err
		}
		for _, it := range a[0][1:] {
			x, err := f.numeric(it, "avg")
			if err != nil {
				return nil, err
			}
			if acc, err = xdm.Arith(xdm.OpAdd, acc, x); err != nil {
				return nil, err
			}
		}
		r, err := xdm.Arith(xdm.OpDiv, acc, xdm.Integer(int64(len(a[0]))))
		if err != nil {
			return nil, err
		}
		return f.one(r), nil
	})
	minmax := func(name string, op xdm.CmpOp) {
		def(name, 1, 2, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
			var best xdm.Item
			for i, it := range a[0] {
				it = f.atom(it)
				if it.T == xdm.TUntyped {
					var err error
					if it, err = xdm.Cast(it, xdm.TDouble); err != nil {
						return nil, err
					}
				}
				if it.T == xdm.TDouble && math.IsNaN(it.Float()) {
					return f.one(it), nil
				}
				if i == 0 {
					best = it
					continue
				}
				better, err := xdm.CompareValues(op, it, best)
				if err != nil {
					return nil, &xdm.Error{Code: xdm.ErrEBV, Msg: name + ": " + err.Error()}
				}
				if better {
					best = it
				}
			}
			if len(a[0]) == 0 {
				return nil, nil
			}
			return f.one(best), nil
		})
	}
	minmax("min", xdm.OpLt)
	minmax("max", xdm.OpGt)
	def("distinct-values", 1, 2, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		seen := make(map[string]struct{}, len(a[0]))
		b := f.buf()
		for _, it := range a[0] {
			it = f.atom(it)
			k := distinctKey(it)
			if _, dup := seen[k]; dup {
				continue
			}
			seen[k] = struct{}{}
			b = append(b, it)
		}
		return f.done(b), nil
	})
	def("reverse", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		out := f.alloc(len(a[0]))
		for i, it := range a[0] {
			out[len(out)-1-i] = it
		}
		return out, nil
	})
	def("subsequence", 2, 3, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		st, err := f.doubleArg(a[1], "subsequence")
		if err != nil {
			return nil, err
		}
		start := xpathRound(st)
		end := math.Inf(1)
		if len(a) == 3 {
			l, err := f.doubleArg(a[2], "subsequence")
			if err != nil {
				return nil, err
			}
			end = start + xpathRound(l)
		}
		b := f.buf()
		for i, it := range a[0] {
			if p := float64(i + 1); p >= start && p < end {
				b = append(b, it)
			}
		}
		return f.done(b), nil
	})
	def("index-of", 2, 3, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		want, ok, err := f.single(a[1], "index-of")
		if err != nil || !ok {
			return nil, err
		}
		b := f.buf()
		for i, it := range a[0] {
			if eq, err := xdm.CompareValues(xdm.OpEq, f.atom(it), want); err == nil && eq {
				b = append(b, xdm.Integer(int64(i+1)))
			}
		}
		return f.done(b), nil
	})
	def("zero-or-one", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		if len(a[0]) > 1 {
			return nil, &xdm.Error{Code: xdm.ErrCardinality, Msg: "zero-or-one: more than one item"}
		}
		return a[0], nil
	})
	def("exactly-one", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		if len(a[0]) != 1 {
			return nil, &xdm.Error{Code: "FORG0005", Msg: "exactly-one: not exactly one item"}
		}
		return a[0], nil
	})
	def("one-or-more", 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		if len(a[0]) == 0 {
			return nil, &xdm.Error{Code: "FORG0004", Msg: "one-or-more: empty sequence"}
		}
		return a[0], nil
	})
	def("name", 0, 1, func(f *frame, fc focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		r, ok, err := f.nodeArg(a, fc, "name")
		if err != nil || !ok {
			return f.str(""), err
		}
		if r.d.Name(r.n) < 0 {
			return f.str(""), nil
		}
		// The name as written (prefix:local), without allocating.
		return f.str(r.d.QualifiedName(r.n)), nil
	})
	def("local-name", 0, 1, func(f *frame, fc focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		r, ok, err := f.nodeArg(a, fc, "local-name")
		if err != nil || !ok {
			return f.str(""), err
		}
		if id := r.d.Name(r.n); id >= 0 {
			return f.str(r.d.NameLocal(id)), nil
		}
		return f.str(""), nil
	})
	def("namespace-uri", 0, 1, func(f *frame, fc focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		r, ok, err := f.nodeArg(a, fc, "namespace-uri")
		if err != nil || !ok {
			return f.str(""), err
		}
		if id := r.d.Name(r.n); id >= 0 && r.d.Kind(r.n) != xmltree.KindPI {
			return f.str(r.d.NameSpace(id)), nil
		}
		return f.str(""), nil
	})
	def("root", 0, 1, func(f *frame, fc focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
		r, ok, err := f.nodeArg(a, fc, "root")
		if err != nil || !ok {
			return nil, err
		}
		n := r.n
		for r.d.Parent(n) != xmltree.None {
			n = r.d.Parent(n)
		}
		return f.one(xdm.NodeItemIn(r.idx, int32(n))), nil
	})
	def("document", 1, 1, fnDocument)
	def("doc", 1, 1, fnDocument)
	def("current-date", 0, 0, func(f *frame, _ focus, _ *Expr, _ []xdm.Sequence) (xdm.Sequence, error) {
		return f.one(xdm.DateItem(xdm.DateOf(time.Now().UTC()))), nil
	})
	datePart := func(name string, part func(xdm.Date) int64) {
		def(name, 1, 1, func(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
			it, ok, err := f.single(a[0], name)
			if err != nil || !ok {
				return nil, err
			}
			if it.T == xdm.TUntyped {
				if it, err = xdm.Cast(it, xdm.TDate); err != nil {
					return nil, err
				}
			}
			if it.T != xdm.TDate {
				return nil, xdm.Errorf(xdm.ErrType, "%s: %s is not xs:date", name, it.T)
			}
			return f.one(xdm.Integer(part(it.Date()))), nil
		})
	}
	datePart("year-from-date", func(d xdm.Date) int64 { return int64(d.Year) })
	datePart("month-from-date", func(d xdm.Date) int64 { return int64(d.Month) })
	datePart("day-from-date", func(d xdm.Date) int64 { return int64(d.Day) })
	def("matches", 2, 3, fnMatches)
	def("replace", 3, 4, fnReplace)
	def("tokenize", 1, 3, fnTokenize)
}

func validXMLChar(v int64) bool {
	return v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) ||
		(v >= 0xE000 && v <= 0xFFFD) || (v >= 0x10000 && v <= 0x10FFFF)
}

// numeric atomizes an item for sum/avg: untypedAtomic becomes xs:double.
func (f *frame) numeric(it xdm.Item, fn string) (xdm.Item, error) {
	it = f.atom(it)
	if it.T == xdm.TUntyped {
		return xdm.Cast(it, xdm.TDouble)
	}
	if !it.T.IsNumeric() {
		return it, xdm.Errorf(xdm.ErrEBV, "%s: %s is not numeric", fn, it.T)
	}
	return it, nil
}

func distinctKey(it xdm.Item) string {
	switch it.T {
	case xdm.TDecimal, xdm.TInteger:
		return "n" + it.Decimal().String()
	case xdm.TDouble:
		// Shortest round-trip digits, so 0.1e0 and 0.1 are one value (eq
		// compares them as doubles).
		if !math.IsNaN(it.Float()) && !math.IsInf(it.Float(), 0) {
			if d, ok := xdm.ParseDecimal(strconv.FormatFloat(it.Float(), 'f', -1, 64)); ok {
				return "n" + d.String()
			}
		}
		return "f" + xdm.FormatDouble(it.Float())
	case xdm.TBoolean:
		return "b" + it.StringValue()
	case xdm.TDate:
		return "t" + it.Date().String()
	}
	return "s" + it.S
}

// fnDocument returns the document node of a document registered with
// Functions.RegisterDocument under that URI (FODC0002 otherwise).
func fnDocument(f *frame, _ focus, _ *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
	href, err := f.anyStrArg(a[0], "document")
	if err != nil || len(a[0]) == 0 {
		return nil, err
	}
	if fs := f.prog.fns; fs != nil {
		if i, ok := fs.docIdx[href]; ok {
			return f.one(xdm.NodeItemIn(uint16(i+1), 0)), nil
		}
	}
	return nil, xdm.Errorf("FODC0002", "document %q is not available (register it with vm.Functions.RegisterDocument)", href)
}

// fullUpper holds the one-to-many upper-case mappings of Unicode's
// SpecialCasing that Java's String.toUpperCase (used by Saxon) applies and
// Go's simple case mapping does not (ß → SS, Latin ligatures).
var fullUpper = strings.NewReplacer("ß", "SS", "ﬀ", "FF", "ﬁ", "FI", "ﬂ", "FL", "ﬃ", "FFI", "ﬄ", "FFL", "ﬅ", "ST", "ﬆ", "ST", "ŉ", "ʼN")

// normalizeUpper is normalize-space(upper-case(s)), which equals
// upper-case(normalize-space(s)) (upper-casing neither makes nor removes
// whitespace): s itself, after one pass, when it is ASCII without a
// lower-case letter and normalized, as codes are ("VAT").
func normalizeUpper(s string) string {
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		sp := xdm.IsSpace(c)
		if c >= 0x80 || 'a' <= c && c <= 'z' || sp && (c != ' ' || prevSpace) {
			return NormalizeSpace(upperCase(s))
		}
		prevSpace = sp
	}
	if prevSpace && s != "" {
		return NormalizeSpace(upperCase(s)) // a trailing space
	}
	return s
}

func upperCase(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return strings.ToUpper(fullUpper.Replace(s))
		}
	}
	return strings.ToUpper(s)
}
