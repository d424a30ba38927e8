package vm

import (
	"strings"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// fastStr computes a string argument on node n: the empty sequence is "",
// as for the string functions it feeds; ok=false when it cannot decide.
type fastStr func(fe *fastEnv, n xmltree.NodeID) (s string, ok bool)

// compileFastStr compiles an argument of a string function (xs:string?)
// without a frame: a string literal; a fastOperand or, in a program
// reading variables (ns.vars), a variable, of at most one item, a string
// or untypedAtomic (a node is atomized so); string(), normalize-space(),
// upper-case(), lower-case(), substring*() with literal arguments,
// concat() and replace() with a literal pattern of no regular-expression
// metacharacter and a literal replacement without $ or \ (a plain
// replacement) of such arguments; string-join() of a path or a variable
// with a literal separator (BR-FR's $allNotes: the notes joined with no
// separator). Several items or another type (XPTY0004) give up, and the
// interpreter raises the error. nil for anything else.
func compileFastStr(ns *numShares, e *Expr) fastStr {
	if c, ok := fastConsts(e); ok {
		if len(c) > 1 || len(c) == 1 && c[0].T != xdm.TString {
			return nil
		}
		s := ""
		if len(c) == 1 {
			s = c[0].S
		}
		return func(*fastEnv, xmltree.NodeID) (string, bool) { return s, true }
	}
	if slot, first, ok := fastVarOperand(ns, e); ok {
		// $v, or $v[1] (BR-FR's substring($siret[1], 1, 9)): its first
		// item.
		return func(fe *fastEnv, _ xmltree.NodeID) (string, bool) {
			v, ok := fe.varValue(slot)
			if first && len(v) > 1 {
				v = v[:1]
			}
			if !ok || len(v) > 1 {
				return "", false
			}
			if len(v) == 0 {
				return "", true
			}
			return fe.stringOf(v[0])
		}
	}
	o, ok := fastOperandOf(e)
	if !ok || o.count {
		if e.Op == OpCall && e.Builtin != nil {
			return compileFastStrCall(ns, e)
		}
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (string, bool) {
		s, k := "", 0
		if !o.items(fe, n, func(it xdm.Item) bool {
			if k++; k > 1 || (it.T != xdm.TString && it.T != xdm.TUntyped) {
				return false
			}
			s = it.S
			return true
		}) {
			return "", false
		}
		return s, true
	}
}

// stringOf is the string an item passes to a string function's argument:
// a node of the validated document atomized (untypedAtomic), a string or
// untypedAtomic as it is; ok=false for another type (XPTY0004).
func (fe *fastEnv) stringOf(it xdm.Item) (string, bool) {
	switch it.T {
	case xdm.TNode:
		return fe.doc.StringValue(xmltree.NodeID(it.Node)), true
	case xdm.TString, xdm.TUntyped:
		return it.S, true
	}
	return "", false
}

// compileFastStrCall is compileFastStr for a call of a string function.
func compileFastStrCall(ns *numShares, e *Expr) fastStr {
	name, args := e.Builtin.Name, e.Args
	switch {
	case name == "string-join" && len(args) == 2:
		return compileFastStringJoin(ns, args[0], args[1])
	case name == "concat":
		parts := make([]fastStr, len(args))
		for i, a := range args {
			if parts[i] = compileFastStr(ns, a); parts[i] == nil {
				return nil
			}
		}
		return func(fe *fastEnv, n xmltree.NodeID) (string, bool) {
			var sb strings.Builder
			for _, p := range parts {
				s, ok := p(fe, n)
				if !ok {
					return "", false
				}
				sb.WriteString(s)
			}
			return sb.String(), true
		}
	case name == "replace" && len(args) == 3:
		pat, ok1 := fastLiteralString(args[1])
		rep, ok2 := fastLiteralString(args[2])
		if !ok1 || !ok2 || pat == "" || strings.ContainsAny(pat, `\.?*+|^${}()[]`) || strings.ContainsAny(rep, `$\`) {
			return nil
		}
		return fastStrChain(ns, args[0], func(s string) string { return strings.ReplaceAll(s, pat, rep) })
	case len(args) == 1 && fastStringFn(name) != nil:
		return fastStrChain(ns, args[0], fastStringFn(name))
	case len(args) > 1 && (name == "substring" || name == "substring-before" || name == "substring-after"):
		fn, ok := fastStringFnOf(name, args[1:])
		if !ok {
			return nil
		}
		return fastStrChain(ns, args[0], fn)
	}
	return nil
}

// fastStrChain is fn of the string arg computes, or nil.
func fastStrChain(ns *numShares, arg *Expr, fn func(string) string) fastStr {
	a := compileFastStr(ns, arg)
	if a == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (string, bool) {
		s, ok := a(fe, n)
		if !ok {
			return "", false
		}
		return fn(s), true
	}
}

// fastLiteralString is the value of a string literal.
func fastLiteralString(e *Expr) (string, bool) {
	c, ok := fastConsts(e)
	if !ok || len(c) != 1 || c[0].T != xdm.TString {
		return "", false
	}
	return c[0].S, true
}

// compileFastStringJoin compiles string-join(A, 'sep') for A a path
// (its nodes' string values, in document order) or, in a program reading
// variables, a variable (its nodes' string values, its strings and
// untypedAtomics; another type gives up, XPTY0004).
func compileFastStringJoin(ns *numShares, a, sepExpr *Expr) fastStr {
	sep, ok := fastLiteralString(sepExpr)
	if !ok {
		return nil
	}
	if slot, first, ok := fastVarOperand(ns, a); ok && !first {
		return func(fe *fastEnv, _ xmltree.NodeID) (string, bool) {
			v, ok := fe.varValue(slot)
			if !ok {
				return "", false
			}
			var sb strings.Builder
			for i, it := range v {
				s, ok := fe.stringOf(it)
				if !ok {
					return "", false
				}
				if i > 0 {
					sb.WriteString(sep)
				}
				sb.WriteString(s)
			}
			return sb.String(), true
		}
	}
	p, ok := fastPathOf(a)
	if !ok || len(p.steps) == 0 {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (string, bool) {
		nodes, ok := fe.collect(&p, n, fastMaxNodes)
		if !ok || len(nodes) == fastMaxNodes {
			return "", false
		}
		var sb strings.Builder
		for i, c := range nodes {
			if i > 0 {
				sb.WriteString(sep)
			}
			sb.WriteString(fe.doc.StringValue(c))
		}
		return sb.String(), true
	}
}

// compileFastStrLen compiles string-length(X) for X a compileFastStr
// argument: an xs:integer.
func compileFastStrLen(ns *numShares, e *Expr) fastNum {
	if e.Op != OpCall || e.Builtin == nil || e.Builtin.Name != "string-length" || len(e.Args) != 1 {
		return nil
	}
	a := compileFastStr(ns, e.Args[0])
	if a == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (xdm.Item, bool, bool) {
		s, ok := a(fe, n)
		if !ok {
			return xdm.Item{}, false, false
		}
		return xdm.Integer(int64(utf8.RuneCountInString(s))), false, true
	}
}

// fastVarOperand reports whether e is a variable, $v, or its first item,
// $v[1] (first), in a program reading variables.
func fastVarOperand(ns *numShares, e *Expr) (slot int, first, ok bool) {
	if ns == nil || !ns.vars {
		return 0, false, false
	}
	if e.Op == OpFilter && len(e.Args) == 1 && len(e.Preds) == 1 && e.Preds[0].ConstPos() == 1 {
		e, first = e.Args[0], true
	}
	if e.Op != OpVar {
		return 0, false, false
	}
	return e.Slot, first, true
}

// fastStrEBV are the string functions whose effective boolean value
// compileFastOne takes from compileFastStr: one xs:string, true when not
// empty (BR-FR's if (string(cac:DeliveryParty/…/cbc:CompanyID)) then …).
var fastStrEBV = map[string]bool{
	"string": true, "concat": true, "substring": true, "substring-before": true, "substring-after": true,
	"upper-case": true, "lower-case": true, "string-join": true, "replace": true,
}

// compileFastStrEBV is the effective boolean value of a string function
// of fastStrEBV, or nil.
func compileFastStrEBV(ns *numShares, e *Expr) fastBool {
	if e.Op != OpCall || e.Builtin == nil || !fastStrEBV[e.Builtin.Name] {
		return nil
	}
	str := compileFastStr(ns, e)
	if str == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (bool, bool) {
		s, ok := str(fe, n)
		return s != "", ok
	}
}

// compileFastStrFilter compiles S[contains(., 'lit')] (or starts-with,
// ends-with) for S a string function's one xs:string (BR-FR's $allNotes:
// the notes joined, filtered by contains(., '#BAR#')): S when the test
// holds on it, else the empty sequence. nil for other filters.
func compileFastStrFilter(ns *numShares, e *Expr) fastValue {
	if e.Op != OpFilter || len(e.Args) != 1 || len(e.Preds) != 1 {
		return nil
	}
	base, pred := e.Args[0], e.Preds[0]
	if base.Op != OpCall || base.Builtin == nil || !fastStrEBV[base.Builtin.Name] ||
		pred.Op != OpCall || pred.Builtin == nil || len(pred.Args) != 2 || pred.Args[0].Op != OpContext {
		return nil
	}
	test := strPairTests[pred.Builtin.Name]
	lit, ok := fastLiteralString(pred.Args[1])
	str := compileFastStr(ns, base)
	if test == nil || !ok || str == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
		s, ok := str(fe, n)
		if !ok {
			return dst, false
		}
		if test(s, lit) {
			dst = append(dst, xdm.String(s))
		}
		return dst, true
	}
}

// compileFastVarStrCmp compiles $v = 'lit' or $v != 'lit' (or a sequence
// of literals: BR-FR's $docType = ('389', '501', ...)), a general
// comparison of a variable with string literals: true when some pair of
// items compares so, each item of the variable a string, an untypedAtomic
// or a node (atomized: untypedAtomic, compared as a string); another type
// gives up (the interpreter's casts and errors).
func compileFastVarStrCmp(ns *numShares, e *Expr) fastBool {
	if e.Op != OpGenCmp || len(e.Args) != 2 || (e.Cmp != xdm.OpEq && e.Cmp != xdm.OpNe) {
		return nil
	}
	v, c := e.Args[0], e.Args[1]
	if v.Op != OpVar {
		v, c = c, v
	}
	slot, first, ok := fastVarOperand(ns, v)
	lits, isConst := fastConsts(c)
	if !ok || first || !isConst {
		return nil
	}
	for _, l := range lits {
		if l.T != xdm.TString {
			return nil
		}
	}
	eq := e.Cmp == xdm.OpEq
	return func(fe *fastEnv, _ xmltree.NodeID) (bool, bool) {
		vals, ok := fe.varValue(slot)
		if !ok || len(vals) > maxVarItems {
			return false, false
		}
		res := false
		for _, it := range vals {
			s, ok := fe.stringOf(it)
			if !ok {
				return false, false
			}
			for _, l := range lits {
				if (s == l.S) == eq {
					res = true
				}
			}
		}
		return res, true
	}
}
