package vm

import (
	"bytes"
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
	case name == "concat" && len(args) <= maxConcatArgs:
		parts := make([]fastStr, len(args))
		for i, a := range args {
			if parts[i] = compileFastStr(ns, a); parts[i] == nil {
				return nil
			}
		}
		return func(fe *fastEnv, n xmltree.NodeID) (string, bool) {
			var buf [maxConcatArgs]string
			strs := buf[:len(parts)]
			for i, p := range parts {
				s, ok := p(fe, n)
				if !ok {
					return "", false
				}
				strs[i] = s
			}
			return joinStrings(strs, ""), true
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
	parts, sep := compileFastJoinParts(ns, a, sepExpr)
	if parts == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID) (string, bool) {
		strs, ok := parts(fe, n)
		if !ok {
			return "", false
		}
		s := joinStrings(strs, sep)
		fe.dropStrs(strs)
		return s, true
	}
}

// joinParts returns the strings string-join joins, in fe.strs (views of
// the document: fastEnv.dropStrs clears them after use); ok=false when it
// cannot decide.
type joinParts func(fe *fastEnv, n xmltree.NodeID) (strs []string, ok bool)

// compileFastJoinParts is compileFastStringJoin's parts and separator, or
// nil.
func compileFastJoinParts(ns *numShares, a, sepExpr *Expr) (joinParts, string) {
	sep, ok := fastLiteralString(sepExpr)
	if !ok {
		return nil, ""
	}
	if slot, first, ok := fastVarOperand(ns, a); ok && !first {
		return func(fe *fastEnv, _ xmltree.NodeID) ([]string, bool) {
			v, ok := fe.varValue(slot)
			if !ok {
				return nil, false
			}
			strs := fe.strs[:0]
			for _, it := range v {
				s, ok := fe.stringOf(it)
				if !ok {
					fe.dropStrs(strs)
					return nil, false
				}
				strs = append(strs, s)
			}
			return strs, true
		}, sep
	}
	p, ok := fastPathOf(a)
	if !ok || len(p.steps) == 0 {
		return nil, ""
	}
	return func(fe *fastEnv, n xmltree.NodeID) ([]string, bool) {
		nodes, ok := fe.collect(&p, n, fastMaxNodes)
		if !ok || len(nodes) == fastMaxNodes {
			return nil, false
		}
		strs := fe.strs[:0]
		for _, c := range nodes {
			strs = append(strs, fe.doc.StringValue(c))
		}
		return strs, true
	}, sep
}

// dropStrs clears the parts of a join, so that no document's text is held
// beyond it, and keeps their array for the next.
func (fe *fastEnv) dropStrs(strs []string) {
	clear(strs)
	fe.strs = strs[:0]
}

// maxConcatArgs bounds the arguments of a concat() compileFastStr
// compiles (their strings are kept on the stack).
const maxConcatArgs = 8

// joinStrings is strings.Join, without an allocation for none or one
// string (the string itself, a view of the document when it is one), and
// with one allocation of the joined size otherwise.
func joinStrings(strs []string, sep string) string {
	switch len(strs) {
	case 0:
		return ""
	case 1:
		return strs[0]
	}
	return strings.Join(strs, sep)
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

// bytesPairTests are strPairTests on bytes (compileFastStrFilter's joins).
var bytesPairTests = map[string]func(b, lit []byte) bool{
	"contains": bytes.Contains, "starts-with": bytes.HasPrefix, "ends-with": bytes.HasSuffix,
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
	if test == nil || !ok {
		return nil
	}
	if base.Builtin.Name == "string-join" && len(base.Args) == 2 {
		// The parts joined in fe's bytes and tested there: the string
		// is made only when the test keeps it.
		litb := []byte(lit)
		btest := bytesPairTests[pred.Builtin.Name]
		if parts, sep := compileFastJoinParts(ns, base.Args[0], base.Args[1]); parts != nil {
			return func(fe *fastEnv, n xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
				strs, ok := parts(fe, n)
				if !ok {
					return dst, false
				}
				b := fe.joined[:0]
				for i, s := range strs {
					if i > 0 {
						b = append(b, sep...)
					}
					b = append(b, s...)
				}
				fe.dropStrs(strs)
				fe.joined = b[:0]
				if btest(b, litb) {
					dst = append(dst, xdm.String(string(b)))
				}
				return dst, true
			}
		}
	}
	return fastStrValue(compileFastStr(ns, base), func(s string) bool { return test(s, lit) })
}

// fastStrValue is the value of a string function str computes: its one
// xs:string, kept only where keep holds on it when keep is not nil; nil
// for nil.
func fastStrValue(str fastStr, keep func(string) bool) fastValue {
	if str == nil {
		return nil
	}
	return func(fe *fastEnv, n xmltree.NodeID, dst xdm.Sequence) (xdm.Sequence, bool) {
		s, ok := str(fe, n)
		if !ok {
			return dst, false
		}
		if keep == nil || keep(s) {
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
