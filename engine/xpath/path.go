package xpath

import (
	"strconv"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
)

var kindTests = map[string]bool{"node": true, "text": true, "comment": true,
	"processing-instruction": true, "element": true, "attribute": true,
	"document-node": true, "schema-element": true, "schema-attribute": true}

var axes = map[string]vm.Axis{"child": vm.AxisChild, "descendant": vm.AxisDescendant,
	"descendant-or-self": vm.AxisDescendantOrSelf, "self": vm.AxisSelf, "parent": vm.AxisParent,
	"ancestor": vm.AxisAncestor, "ancestor-or-self": vm.AxisAncestorOrSelf,
	"following": vm.AxisFollowing, "following-sibling": vm.AxisFollowingSibling,
	"preceding": vm.AxisPreceding, "preceding-sibling": vm.AxisPrecedingSibling,
	"attribute": vm.AxisAttribute}

func descOrSelf() *vm.Expr {
	return &vm.Expr{Op: vm.OpStep, Axis: vm.AxisDescendantOrSelf, Test: vm.NodeTest{Kind: vm.TestNode}}
}

// startsStep reports whether t can start a relative path step.
func (ps *parser) startsStep(t token) bool {
	switch t.kind {
	case tName, tStar, tPrefixStar, tStarLocal, tString, tInteger, tDecimal, tDouble:
		return true
	case tSymbol:
		switch t.text {
		case "@", ".", "..", "(", "$":
			return true
		}
	}
	return false
}

// PathExpr ::= "/" RelativePath? | "//" RelativePath | RelativePath
func (ps *parser) parsePath() (*vm.Expr, error) {
	t := ps.peek()
	var steps []*vm.Expr
	switch {
	case t.is("/"):
		ps.next()
		root := &vm.Expr{Op: vm.OpRoot}
		// A lone "/" is the root; "/*" and "/ *" are paths (as XPath resolves
		// the leading-slash ambiguity).
		if !ps.startsStep(ps.peek()) {
			return root, nil
		}
		steps = append(steps, root)
	case t.is("//"):
		ps.next()
		steps = append(steps, &vm.Expr{Op: vm.OpRoot}, descOrSelf())
	}
	s, err := ps.parseStep()
	if err != nil {
		return nil, err
	}
	steps = append(steps, s)
	for {
		t := ps.peek()
		if t.is("/") {
			ps.next()
		} else if t.is("//") {
			ps.next()
			steps = append(steps, descOrSelf())
		} else {
			break
		}
		s, err := ps.parseStep()
		if err != nil {
			return nil, err
		}
		steps = append(steps, s)
	}
	if len(steps) == 1 {
		return steps[0], nil
	}
	return &vm.Expr{Op: vm.OpPath, Args: steps}, nil
}

func (ps *parser) parseStep() (*vm.Expr, error) {
	t := ps.peek()
	if err := ps.enter(t); err != nil {
		return nil, err
	}
	defer func() { ps.depth-- }()
	switch {
	case t.is(".."):
		ps.next()
		preds, err := ps.parsePredicates()
		if err != nil {
			return nil, err
		}
		return &vm.Expr{Op: vm.OpStep, Axis: vm.AxisParent, Test: vm.NodeTest{Kind: vm.TestNode}, Preds: preds}, nil
	case t.is("@"):
		ps.next()
		return ps.parseAxisStep(vm.AxisAttribute)
	case t.kind == tName && ps.peekN(1).is("::"):
		ax, ok := axes[t.text]
		if !ok {
			return nil, ps.errAt(t, "unsupported axis")
		}
		ps.next()
		ps.next()
		return ps.parseAxisStep(ax)
	case t.kind == tStar || t.kind == tPrefixStar || t.kind == tStarLocal:
		return ps.parseAxisStep(vm.AxisChild)
	case t.kind == tName && !ps.peekN(1).is("("):
		return ps.parseAxisStep(vm.AxisChild)
	case t.kind == tName && kindTests[t.text]:
		return ps.parseAxisStep(vm.AxisChild)
	}
	// Filter expression.
	prim, err := ps.parsePrimary()
	if err != nil {
		return nil, err
	}
	preds, err := ps.parsePredicates()
	if err != nil {
		return nil, err
	}
	if len(preds) == 0 {
		return prim, nil
	}
	return &vm.Expr{Op: vm.OpFilter, Args: []*vm.Expr{prim}, Preds: preds}, nil
}

func (ps *parser) parsePredicates() ([]*vm.Expr, error) {
	var preds []*vm.Expr
	for ps.peek().is("[") {
		ps.next()
		e, err := ps.parseExpr()
		if err != nil {
			return nil, err
		}
		if _, err := ps.expect("]"); err != nil {
			return nil, err
		}
		preds = append(preds, e)
	}
	return preds, nil
}

func (ps *parser) parseAxisStep(ax vm.Axis) (*vm.Expr, error) {
	test, err := ps.parseNodeTest(ax)
	if err != nil {
		return nil, err
	}
	preds, err := ps.parsePredicates()
	if err != nil {
		return nil, err
	}
	return &vm.Expr{Op: vm.OpStep, Axis: ax, Test: test, Preds: preds}, nil
}

func (ps *parser) parseNodeTest(ax vm.Axis) (vm.NodeTest, error) {
	t := ps.peek()
	switch t.kind {
	case tStar:
		ps.next()
		return vm.NodeTest{Kind: vm.TestAnyName}, nil
	case tPrefixStar:
		ps.next()
		uri, err := ps.prefixURI(t.text, t)
		return vm.NodeTest{Kind: vm.TestSpace, Space: uri}, err
	case tStarLocal:
		ps.next()
		return vm.NodeTest{Kind: vm.TestLocal, Local: t.text}, nil
	case tName:
		if ps.peekN(1).is("(") {
			test, ok, err := ps.parseKindTest()
			if err != nil {
				return test, err
			}
			if !ok {
				return test, ps.errAt(t, "expected a node test")
			}
			return test, nil
		}
		ps.next()
		uri, local, err := ps.resolve(t, "")
		return vm.NodeTest{Kind: vm.TestName, Space: uri, Local: local}, err
	}
	return vm.NodeTest{}, ps.errAt(t, "expected a node test")
}

// parseKindTest parses node(), text(), element(N?), ... ok=false when the
// name is not a kind test (nothing consumed).
func (ps *parser) parseKindTest() (vm.NodeTest, bool, error) {
	t := ps.peek()
	if !kindTests[t.text] {
		return vm.NodeTest{}, false, nil
	}
	ps.next()
	ps.next() // (
	var test vm.NodeTest
	switch t.text {
	case "node":
		test.Kind = vm.TestNode
	case "text":
		test.Kind = vm.TestText
	case "comment":
		test.Kind = vm.TestComment
	case "document-node":
		test.Kind = vm.TestDocument
	case "processing-instruction":
		test.Kind = vm.TestPI
		if n := ps.peek(); n.kind == tName || n.kind == tString {
			ps.next()
			test.Named, test.Local = true, n.text
		}
	case "element", "attribute":
		test.Kind = vm.TestElement
		if t.text == "attribute" {
			test.Kind = vm.TestAttribute
		}
		n := ps.peek()
		switch n.kind {
		case tName:
			ps.next()
			uri, local, err := ps.resolve(n, "")
			if err != nil {
				return test, true, err
			}
			test.Named, test.Space, test.Local = true, uri, local
		case tStar:
			ps.next()
		}
		if ps.peek().is(",") {
			return test, true, ps.errAt(ps.peek(), "type annotations in kind tests are not supported")
		}
	default:
		return test, true, ps.errAt(t, "schema-aware kind tests are not supported")
	}
	if _, err := ps.expect(")"); err != nil {
		return test, true, err
	}
	return test, true, nil
}

func (ps *parser) parsePrimary() (*vm.Expr, error) {
	t := ps.next()
	switch t.kind {
	case tString:
		return constItem(xdm.String(t.text)), nil
	case tInteger, tDecimal, tDouble:
		return numLiteral(t)
	case tName:
		if ps.peek().is("(") {
			return ps.parseCall(t)
		}
	case tSymbol:
		switch t.text {
		case ".":
			return &vm.Expr{Op: vm.OpContext}, nil
		case "$":
			n := ps.next()
			if n.kind != tName {
				return nil, ps.errAt(n, "expected a variable name")
			}
			v, ok := ps.lookupVar(n.text)
			if !ok {
				return nil, &Error{Offset: t.pos, Construct: "$" + n.text, Msg: "unknown variable"}
			}
			return v, nil
		case "(":
			if ps.peek().is(")") {
				ps.next()
				return &vm.Expr{Op: vm.OpConst}, nil
			}
			e, err := ps.parseExpr()
			if err != nil {
				return nil, err
			}
			if _, err := ps.expect(")"); err != nil {
				return nil, err
			}
			return e, nil
		}
	}
	return nil, ps.errAt(t, "unexpected token")
}

var reservedFunctionNames = map[string]bool{"if": true, "typeswitch": true, "item": true, "empty-sequence": true}

func (ps *parser) parseCall(name token) (*vm.Expr, error) {
	if reservedFunctionNames[name.text] {
		return nil, ps.errAt(name, "reserved name used as a function")
	}
	ps.next() // (
	var args []*vm.Expr
	if !ps.peek().is(")") {
		for {
			a, err := ps.parseSingle()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if !ps.peek().is(",") {
				break
			}
			ps.next()
		}
	}
	if _, err := ps.expect(")"); err != nil {
		return nil, err
	}
	uri, local, err := ps.resolve(name, NSFn)
	if err != nil {
		return nil, err
	}
	switch uri {
	case NSFn:
		b, ok := vm.LookupBuiltin(local, len(args))
		if !ok {
			if fn, ok := ps.sc.Functions.Lookup(uri, local, len(args)); ok {
				ps.usesFns = true
				// A host-provided fn:* function (e.g. fn:document for code-list files).
				return &vm.Expr{Op: vm.OpExtCall, Aux: &vm.ExprAux{Ext: fn, Name: name.text}, Args: args}, nil
			}
			msg := "unknown function"
			if vm.BuiltinExists(local) {
				msg = "wrong number of arguments for function"
			}
			return nil, &Error{Offset: name.pos, Construct: name.text + "#" + itoa(len(args)), Msg: msg}
		}
		e := &vm.Expr{Op: vm.OpCall, Builtin: b, Args: args}
		if err := ps.precompileRegex(e, name); err != nil {
			return nil, err
		}
		return e, nil
	case NSXS:
		typ, ok := xdm.TypeByName(local)
		if !ok {
			return nil, &Error{Offset: name.pos, Construct: name.text, Msg: "unsupported constructor function"}
		}
		if len(args) != 1 {
			return nil, &Error{Offset: name.pos, Construct: name.text + "#" + itoa(len(args)), Msg: "constructor functions take one argument"}
		}
		return &vm.Expr{Op: vm.OpCast, Type: typ, Optional: true, Args: args}, nil
	}
	fn, ok := ps.sc.Functions.Lookup(uri, local, len(args))
	if !ok {
		return nil, &Error{Offset: name.pos, Construct: name.text + "#" + itoa(len(args)), Msg: "unknown extension function"}
	}
	ps.usesFns = true
	return &vm.Expr{Op: vm.OpExtCall, Aux: &vm.ExprAux{Ext: fn, Name: name.text}, Args: args,
		Pure: ps.sc.Functions.Pure(uri, local, len(args)), Str: "{" + uri + "}" + local}, nil
}

func itoa(i int) string { return strconv.Itoa(i) }

func constString(e *vm.Expr) (string, bool) {
	if e.Op == vm.OpConst && len(e.Seq) == 1 && e.Seq[0].T == xdm.TString {
		return e.Seq[0].S, true
	}
	return "", false
}

// precompileRegex compiles literal patterns of matches/replace/tokenize at
// compile time; a bad literal pattern is a compile error.
func (ps *parser) precompileRegex(e *vm.Expr, name token) error {
	var patIdx, flagIdx int
	switch e.FuncName() {
	case "matches":
		patIdx, flagIdx = 1, 2
	case "tokenize":
		if len(e.Args) < 2 {
			return nil
		}
		patIdx, flagIdx = 1, 2
	case "replace":
		patIdx, flagIdx = 1, 3
	default:
		return nil
	}
	pat, ok := constString(e.Args[patIdx])
	if !ok {
		return nil
	}
	flags := ""
	if flagIdx < len(e.Args) {
		if flags, ok = constString(e.Args[flagIdx]); !ok {
			return nil
		}
	}
	re, err := ps.sc.Cache.regex(pat, flags)
	if err != nil {
		return &Error{Offset: name.pos, Construct: e.FuncName(), Msg: err.Error()}
	}
	if e.FuncName() == "replace" {
		if rep, ok := constString(e.Args[2]); ok {
			if _, err := vm.TranslateReplacement(rep, re.NumSubexp()); err != nil {
				return &Error{Offset: name.pos, Construct: e.FuncName(), Msg: err.Error()}
			}
		}
	}
	e.AuxOf().Re = re
	return nil
}
