package vm

import (
	"context"
	"slices"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Document guards of patterns.
//
// Peppol and XRechnung rule contexts carry conditions on global variables:
// ubl-invoice:Invoice[$DKSupplierCountry = 'DK' and $DKCustomerCountry =
// 'DK']/cac:InvoiceLine, cac:PartyIdentification/cbc:ID[@schemeID and
// $isExtension]. Such a condition has one value for the whole document
// (a pattern sees only the global variables, bound before any rule is
// matched), so when it is false no node matches that alternative. A
// predicate, or a conjunct of one, built only of constants, variables,
// absolute paths and operators or functions of those (docConstant) is a
// guard of its alternative; Pattern.GuardsFail evaluates the guards once
// per document, and a rule whose alternatives all fail is not matched
// against any node of it.
//
// The answer is the match's: a false guard filters every node out of its
// step, positional or not (a single number is a position test, and one
// whose effective boolean value is false, 0 or NaN, is no position
// either); a guard that raises an error makes every match of the
// alternative raise it, which is no match (the XSLT recovery the engine
// applies to rule contexts).

// docConstant reports whether e has the same value for every focus in a
// document, given the global variables.
func docConstant(e *Expr) bool { return sameForEveryFocus(e, true) }

// DocConstant reports whether the program's value is the same on every
// node of a document, given its variables' values: constants, variables,
// absolute paths (closed: reading no binding from outside) and operators
// or functions of those, such as /rsm:CrossIndustryInvoice/.../ram:ID[
// @schemeID = ('VA', 'FC')] or a let compared with a literal.
func (p *Program) DocConstant() bool { return p.root != nil && docConstant(p.root) }

// AtMostOneNode reports whether the pattern matches at most one node of a
// document: every alternative is "/" or "/name" (the document element),
// without descendant steps.
func (pt *Pattern) AtMostOneNode() bool {
	for _, a := range pt.alts {
		if !a.Absolute || len(a.Steps) > 1 || (len(a.Steps) == 1 && (a.Steps[0].Desc || a.Steps[0].Attr)) {
			return false
		}
	}
	return true
}

// closedPath: an absolute path whose steps and predicates read no local
// binding from outside it (global variables are fine).
func closedPath(e *Expr) bool {
	var ok = true
	var walk func(x *Expr)
	walk = func(x *Expr) {
		if x.Op == OpLocal || len(x.Bindings()) > 0 {
			ok = false
			return
		}
		for _, a := range x.Args {
			walk(a)
		}
		for _, p := range x.Preds {
			walk(p)
		}
	}
	walk(e)
	return ok
}

// prepareGuards collects, per alternative, the guards of its steps: the
// docConstant predicates and docConstant conjuncts of predicates.
func (pt *Pattern) prepareGuards() {
	guards := make([][]*Expr, len(pt.alts))
	for i, a := range pt.alts {
		for _, st := range a.Steps {
			for _, p := range st.Preds {
				guards[i] = appendGuards(guards[i], p)
			}
		}
		if len(guards[i]) == 0 {
			return // an alternative without a guard: the pattern has none
		}
	}
	pt.guards = guards
}

func appendGuards(dst []*Expr, p *Expr) []*Expr {
	if docConstant(p) {
		return append(dst, p)
	}
	if p.Op == OpAnd && len(p.Args) == 2 {
		dst = appendGuards(dst, p.Args[0])
		dst = appendGuards(dst, p.Args[1])
	}
	return dst
}

// GuardKey is a canonical form of the pattern's guards: patterns with the
// same key fail their guards in the same documents (GuardsFail is a
// conjunction over the alternatives of disjunctions over their guards,
// so the order and repetition of either do not matter). Peppol's country
// rules repeat one guard over many rules ($supplierCountryIsNL nine
// times, [$supplierCountryIsDE and $customerCountryIsDE] eleven). A
// guard binds no variable (docConstant) and reads global variables by
// name, one slot per name in every rule context (engine Tables.VarScope),
// so its fingerprint is the whole of it. "" when the pattern has no
// guards.
func (pt *Pattern) GuardKey() string {
	if pt.guards == nil {
		return ""
	}
	alts := make([]string, 0, len(pt.guards))
	for _, gs := range pt.guards {
		fps := make([]string, 0, len(gs))
		for _, g := range gs {
			fps = append(fps, string(fingerprint(nil, g)))
		}
		slices.Sort(fps)
		alts = append(alts, strings.Join(slices.Compact(fps), ";"))
	}
	slices.Sort(alts)
	return strings.Join(slices.Compact(alts), "|")
}

// Guarded reports whether every alternative of the pattern has a guard
// (GuardsFail can then rule the pattern out for a document).
func (pt *Pattern) Guarded() bool { return pt.guards != nil }

// GuardsFail reports whether, in env's document, every alternative has a
// guard that is false or raises an error: then no node matches the
// pattern. False when the pattern has no guards.
func (pt *Pattern) GuardsFail(ctx context.Context, env *Env) bool {
	if pt.guards == nil {
		return false
	}
	f := env.acquire(ctx, pt.prog)
	defer f.release()
	fc := focus{item: f.node(xmltree.NodeID(0)), pos: 1, size: 1}
	for _, gs := range pt.guards {
		failed := false
		for _, g := range gs {
			if f.guardFails(g, fc) {
				failed = true
				break
			}
		}
		if !failed {
			return false
		}
	}
	return true
}

// guardFails evaluates guard g: false (by its effective boolean value) or
// an error.
func (f *frame) guardFails(g *Expr, fc focus) bool {
	b, err := f.evalBool(g, fc)
	return err != nil || !b
}
