package xslfunc

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// XSLFunction is one xsl:function read from a Schematron source (see
// engine.XSLFunction). Nothing of it is written into Go source by hand: the
// definitions are read from the official file when the rule set is
// generated, land in the generated tables (engine.Tables.Functions, a build
// output like the rules), and are compiled with engine/xpath at load.
type XSLFunction = engine.XSLFunction

// XSLBinding is an xsl:param (Expr empty) or xsl:variable.
type XSLBinding = engine.XSLBinding

// ErrXSLFunction marks an xsl:function this package cannot compile
// (unsupported instruction or type).
var ErrXSLFunction = errors.New("xslfunc: unsupported xsl:function")

const (
	nsXSL        = "http://www.w3.org/1999/XSL/Transform"
	nsSchematron = "http://purl.oclc.org/dsdl/schematron"
)

// ParseXSLFunctions reads every xsl:function of a Schematron document
// (commented-out ones are not read) and the namespaces its expressions see:
// the root's xmlns declarations and the Schematron <ns> elements (which the
// skeleton turns into stylesheet namespaces).
func ParseXSLFunctions(data []byte) ([]XSLFunction, map[string]string, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if strings.EqualFold(label, "utf-8") {
			return r, nil
		}
		return nil, fmt.Errorf("xslfunc: charset %s", label)
	}
	ns := map[string]string{}
	var out []XSLFunction
	var cur *XSLFunction
	depth, fnDepth := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("xslfunc: parse: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 1 {
				for _, a := range t.Attr {
					if a.Name.Space == "xmlns" {
						ns[a.Name.Local] = a.Value
					}
				}
			}
			attr := func(n string) string {
				for _, a := range t.Attr {
					if a.Name.Space == "" && a.Name.Local == n {
						return a.Value
					}
				}
				return ""
			}
			line, _ := d.InputPos()
			if t.Name.Space == nsSchematron && t.Name.Local == "ns" && cur == nil {
				ns[attr("prefix")] = attr("uri")
				continue
			}
			if t.Name.Space == nsXSL && t.Name.Local == "function" && cur == nil {
				qn := attr("name")
				prefix, local, ok := strings.Cut(qn, ":")
				if !ok {
					return nil, nil, fmt.Errorf("%w: line %d: function name %q without prefix", ErrXSLFunction, line, qn)
				}
				space := ""
				for _, a := range t.Attr {
					if a.Name.Space == "xmlns" && a.Name.Local == prefix {
						space = a.Value
					}
				}
				if space == "" {
					space = ns[prefix]
				}
				if space == "" {
					return nil, nil, fmt.Errorf("%w: line %d: undeclared prefix %s", ErrXSLFunction, line, prefix)
				}
				cur = &XSLFunction{Space: space, Local: local, As: attr("as"), Line: line}
				fnDepth = depth
				continue
			}
			if cur == nil {
				continue
			}
			if depth != fnDepth+1 || t.Name.Space != nsXSL {
				return nil, nil, fmt.Errorf("%w: line %d: %s in %s", ErrXSLFunction, line, t.Name.Local, cur.Local)
			}
			switch t.Name.Local {
			case "param":
				if len(cur.Vars) > 0 || cur.Result != "" || attr("select") != "" {
					return nil, nil, fmt.Errorf("%w: line %d: param after body or with default", ErrXSLFunction, line)
				}
				cur.Params = append(cur.Params, XSLBinding{Name: attr("name"), As: attr("as")})
			case "variable":
				if attr("select") == "" || cur.Result != "" {
					return nil, nil, fmt.Errorf("%w: line %d: variable without select or after the result", ErrXSLFunction, line)
				}
				cur.Vars = append(cur.Vars, XSLBinding{Name: attr("name"), As: attr("as"), Expr: attr("select")})
			case "sequence":
				if cur.Result != "" || attr("select") == "" {
					return nil, nil, fmt.Errorf("%w: line %d: second or empty xsl:sequence", ErrXSLFunction, line)
				}
				cur.Result = attr("select")
			default:
				return nil, nil, fmt.Errorf("%w: line %d: xsl:%s", ErrXSLFunction, line, t.Name.Local)
			}
		case xml.EndElement:
			if cur != nil && depth == fnDepth {
				if cur.Result == "" {
					return nil, nil, fmt.Errorf("%w: line %d: %s has no xsl:sequence", ErrXSLFunction, cur.Line, cur.Local)
				}
				out = append(out, *cur)
				cur = nil
			}
			depth--
		case xml.CharData:
			if cur != nil && strings.TrimSpace(string(t)) != "" {
				return nil, nil, fmt.Errorf("%w: text in %s", ErrXSLFunction, cur.Local)
			}
		}
	}
	return out, ns, nil
}

// FromSchematron reads the xsl:functions of a Schematron file (path
// relative to root) and compiles them into a fresh registry, on top of
// the functions of base (nil for none).
func FromSchematron(root, path string, base func() *vm.Functions) (*vm.Functions, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		return nil, fmt.Errorf("xslfunc: %w", err)
	}
	defs, ns, err := ParseXSLFunctions(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	fs := vm.NewFunctions()
	if base != nil {
		fs = base()
	}
	return compileInto(fs, defs, ns, path)
}

// compileInto compiles defs into fs; source names the file in errors.
func compileInto(fs *vm.Functions, defs []XSLFunction, ns map[string]string, source string) (*vm.Functions, error) {
	if err := CompileXSLFunctions(fs, defs, ns); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return fs, nil
}

// FromTables compiles the xsl:functions the compiler copied into t
// (FromSchematron without reading the source again) into a fresh registry.
// Tables generated from a source that declares xsl:functions always carry
// them (brfr TestFunctionsFromTables), so none is an error: a rule set whose
// functions are missing must not load without them.
func FromTables(t *engine.Tables) (*vm.Functions, error) {
	if len(t.Functions) == 0 {
		return nil, fmt.Errorf("xslfunc: %s %s: the tables carry no xsl:function (regenerate them: make generate)", t.Name, t.Source)
	}
	ns := make(map[string]string, len(t.FunctionNamespaces))
	for _, n := range t.FunctionNamespaces {
		ns[n.Prefix] = n.URI
	}
	return compileInto(vm.NewFunctions(), t.Functions, ns, t.Source)
}

// compiled is one compiled function: programs share one variable frame
// (params first, then variables).
type compiled struct {
	def    XSLFunction
	vars   []*vm.Program
	consts []xdm.Sequence // by variable: its value when it is a constant, else nil
	result *vm.Program
	nSlots int
	// scalarVars and scalarResult are vars and result as scalar closures
	// (vm.Program.Scalar), when every param is an xs:string and every
	// expression of the body compiles to one; nil otherwise.
	scalarVars   []vm.ScalarFunc
	scalarResult vm.ScalarFunc
	// envs keeps the evaluation contexts of finished calls: a call on a
	// fresh vm.Env would allocate its frame and scratch arena again
	// (~20 KB; BR-FR makes about a hundred calls per document).
	envs sync.Pool // of *callEnv
}

// callEnv is the evaluation context of one call, with one item slot per
// param and variable and one for the result: a single-item value lives
// in its slot instead of a sequence of its own.
type callEnv struct {
	vm.Env
	slots []xdm.Item
	sc    vm.ScalarEnv // the registers of the scalar closures
}

// env returns an evaluation context for one call on doc.
func (c *compiled) env(doc *xmltree.Document) *callEnv {
	env, _ := c.envs.Get().(*callEnv)
	if env == nil {
		env = &callEnv{Env: vm.Env{Vars: make([]xdm.Sequence, c.nSlots)}, slots: make([]xdm.Item, c.nSlots+1)}
	}
	env.Doc = doc
	return env
}

// slot returns slot i, empty, with room for one item.
func (env *callEnv) slot(i int) xdm.Sequence { return env.slots[i : i : i+1] }

// done hands env back. Nothing a call returns points into it (the
// result is one of boolSeq's shared sequences, or a copy); its variables
// are dropped, the scalar closures' registers too (strings of the
// document: a pooled env must not keep the document's text alive).
func (c *compiled) done(env *callEnv) {
	clear(env.Vars)
	clear(env.slots)
	c.release(env)
}

// release is done for a call that set the scalar registers only.
func (c *compiled) release(env *callEnv) {
	if c.scalarResult != nil {
		clear(env.sc.Val[:c.nSlots]) // Scalar compiled: at most maxScalarRegs
	}
	env.Doc = nil
	c.envs.Put(env)
}

// CompileXSLFunctions registers defs in fs. Every function is registered
// before any body is compiled, so bodies may call each other.
func CompileXSLFunctions(fs *vm.Functions, defs []XSLFunction, ns map[string]string) error {
	_, err := compileAll(fs, defs, ns)
	return err
}

// compileAll is CompileXSLFunctions returning the compiled functions.
func compileAll(fs *vm.Functions, defs []XSLFunction, ns map[string]string) ([]*compiled, error) {
	cs := make([]*compiled, len(defs))
	for i, def := range defs {
		for _, p := range def.Params {
			if !supportedParamType(p.As) {
				return nil, fmt.Errorf("%w: %s param $%s as %q", ErrXSLFunction, def.Local, p.Name, p.As)
			}
		}
		if def.As != "xs:boolean" && def.As != "" {
			return nil, fmt.Errorf("%w: %s as %q", ErrXSLFunction, def.Local, def.As)
		}
		c := &compiled{def: def, nSlots: len(def.Params) + len(def.Vars)}
		cs[i] = c
		fs.RegisterPure(def.Space, def.Local, len(def.Params), c.call) // no context item, no state: pure
	}
	for _, c := range cs {
		vars := map[string]int{}
		for i, p := range c.def.Params {
			vars[p.Name] = i
		}
		// A variable whose expression folds to a value (a code list
		// 'AN AQ ...', a sequence of literals) is that value in every
		// call: it is not evaluated, and the expressions after it see a
		// constant (so $code = tokenize($codes, '\s+') is a set lookup).
		consts := map[int]xdm.Sequence{}
		sc := func() *xpath.StaticContext {
			m := make(map[string]int, len(vars))
			for k, v := range vars {
				m[k] = v
			}
			return &xpath.StaticContext{Namespaces: ns, Variables: m, Functions: fs, Constants: consts}
		}
		c.consts = make([]xdm.Sequence, len(c.def.Vars))
		for i, v := range c.def.Vars {
			p, err := xpath.Compile(v.Expr, sc())
			if err != nil {
				return nil, fmt.Errorf("%s: variable $%s: %w", c.def.Local, v.Name, err)
			}
			c.vars = append(c.vars, p)
			slot := len(c.def.Params) + i
			vars[v.Name] = slot
			if val, ok := p.Constant(); ok && (v.As == "" || v.As == "xs:string" && len(val) == 1 && val[0].T == xdm.TString) {
				consts[slot], c.consts[i] = val, val
			}
		}
		p, err := xpath.Compile(c.def.Result, sc())
		if err != nil {
			return nil, fmt.Errorf("%s: result: %w", c.def.Local, err)
		}
		c.result = p
		if c.compileScalar(); c.scalarResult != nil {
			// Only then: a frame-free test must not atomize arguments
			// (an element's whole text) for a call that cannot answer.
			fs.RegisterScalar(c.def.Space, c.def.Local, len(c.def.Params), c.scalarCall)
			// Its params are strings and it has no context item: its
			// answer is its arguments' atomized values'.
			fs.MemoScalar(c.def.Space, c.def.Local, len(c.def.Params))
		}
	}
	return cs, nil
}

// compileScalar sets c's scalar closures when the body allows them: every
// param an xs:string (one or none, as the registers hold), a boolean
// result, and every variable and the result a scalar expression; the
// variables whose constant value is a list (inlined where they are read)
// have no register.
func (c *compiled) compileScalar() {
	if c.def.As != "xs:boolean" {
		return
	}
	for _, p := range c.def.Params {
		if p.As != "xs:string" && p.As != "xs:string?" {
			return
		}
	}
	np := len(c.def.Params)
	noReg := func(slot int) bool { return slot >= np && len(c.consts[slot-np]) > 1 }
	vars := make([]vm.ScalarFunc, len(c.vars))
	for i, p := range c.vars {
		if c.consts[i] != nil {
			continue // set from the constant at each call
		}
		if vars[i] = p.Scalar(np+i, noReg); vars[i] == nil {
			return
		}
	}
	res := c.result.Scalar(c.nSlots, noReg)
	if res == nil {
		return
	}
	c.scalarVars, c.scalarResult = vars, res
}

// callScalar is call by the scalar closures; ok=false when they do not
// answer (an argument that is not one string or none, an error, a
// refusal): the interpreted call then gives the value or the error.
func (c *compiled) callScalar(doc *xmltree.Document, env *callEnv, args []xdm.Sequence) (_ xdm.Sequence, ok bool) {
	r := &env.sc
	for i, p := range c.def.Params {
		s, empty, err := stringParam(doc, args[i], p.As == "xs:string?", c.def.Local)
		if err != nil {
			return nil, false
		}
		r.Has[i], r.Val[i] = !empty, xdm.String(s)
	}
	np := len(c.def.Params)
	for i, fn := range c.scalarVars {
		k := np + i
		if fn == nil {
			r.Set(k, c.consts[i]) // a list is inlined: no register reads it
			continue
		}
		v, has, err := fn(r)
		if err != nil {
			return nil, false
		}
		if c.def.Vars[i].As == "xs:string" {
			if !has || (v.T != xdm.TString && v.T != xdm.TUntyped) {
				return nil, false
			}
			v = xdm.String(v.S)
		}
		r.Has[k], r.Val[k] = has, v
	}
	v, has, err := c.scalarResult(r)
	if err != nil || !has || v.T != xdm.TBoolean {
		return nil, false
	}
	return boolSeq(v.B), true
}

func supportedParamType(as string) bool {
	switch as {
	case "", "xs:string", "xs:string?", "element()?", "element()":
		return true
	}
	return false
}

// call evaluates the function: arguments converted by the param types
// (XSLT 2.0 function conversion rules), variables in order, the result
// checked against as="xs:boolean". There is no context item inside.
func (c *compiled) call(ctx context.Context, doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, error) {
	env := c.env(doc)
	defer c.done(env)
	if c.scalarResult != nil {
		if res, ok := c.callScalar(doc, env, args); ok {
			return res, nil
		}
	}
	return c.interpret(ctx, doc, env, args)
}

// scalarCall is call by the scalar closures alone (vm.ExtScalar): the
// engine's frame-free tests call it; ok=false where call must run.
func (c *compiled) scalarCall(doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, bool) {
	env := c.env(doc)
	res, ok := c.callScalar(doc, env, args)
	// Only the registers hold anything of this call: done would clear
	// the interpreter's variables and slots too (~290 instructions a
	// call, for nothing).
	c.release(env)
	return res, ok
}

// interpret is call in the interpreter.
func (c *compiled) interpret(ctx context.Context, doc *xmltree.Document, env *callEnv, args []xdm.Sequence) (xdm.Sequence, error) {
	for i, p := range c.def.Params {
		v, err := convertParam(doc, args[i], p.As, c.def.Local, env.slot(i))
		if err != nil {
			return nil, err
		}
		env.Vars[i] = v
	}
	for i, p := range c.vars {
		k := len(c.def.Params) + i
		if c.consts[i] != nil {
			env.Vars[k] = c.consts[i]
			continue
		}
		v, err := p.EvalAppend(ctx, &env.Env, xmltree.NodeID(0), env.slot(k))
		if err != nil {
			return nil, err
		}
		if c.def.Vars[i].As == "xs:string" {
			s, _, err := stringParam(doc, v, false, c.def.Local)
			if err != nil {
				return nil, err
			}
			v = append(env.slot(k), xdm.String(s))
		}
		env.Vars[k] = v
	}
	res, err := c.result.EvalAppend(ctx, &env.Env, xmltree.NodeID(0), env.slot(c.nSlots))
	if err != nil {
		return nil, err
	}
	if c.def.As != "xs:boolean" {
		return slices.Clone(res), nil
	}
	b := xdm.Item{}
	if len(res) == 1 {
		b = res[0]
	}
	if len(res) != 1 || b.T != xdm.TBoolean {
		if len(res) != 1 || atom(doc, b).T != xdm.TUntyped {
			return nil, xdm.Errorf(xdm.ErrType, "%s: result is not a single xs:boolean", c.def.Local)
		}
		if b, err = xdm.Cast(atom(doc, b), xdm.TBoolean); err != nil {
			return nil, err
		}
	}
	return boolSeq(b.B), nil
}

// convertParam converts the argument s to the param type as; a string
// goes into slot (empty, with room for one item).
func convertParam(doc *xmltree.Document, s xdm.Sequence, as, fn string, slot xdm.Sequence) (xdm.Sequence, error) {
	switch as {
	case "":
		return s, nil
	case "xs:string", "xs:string?":
		str, empty, err := stringParam(doc, s, as == "xs:string?", fn)
		if err != nil {
			return nil, err
		}
		if empty {
			return nil, nil
		}
		return append(slot, xdm.String(str)), nil
	case "element()?", "element()":
		if len(s) == 0 && as == "element()?" {
			return nil, nil
		}
		if len(s) != 1 || !s[0].IsNode() || (s[0].Doc == 0 && doc.Kind(xmltree.NodeID(s[0].Node)) != xmltree.KindElement) {
			return nil, xdm.Errorf(xdm.ErrType, "%s: expected %s, got %d items", fn, as, len(s))
		}
		return s, nil
	}
	return nil, fmt.Errorf("%w: param type %q", ErrXSLFunction, as)
}

// ScalarAgrees compiles defs and calls each function whose body runs as
// scalar closures (compiled) with every combination of the strings in
// inputs (and the empty sequence) for its params, by the closures and in
// the interpreter; the first call whose value or error differs is an
// error; answered counts the calls the closures answered. A test hook.
func ScalarAgrees(defs []XSLFunction, ns map[string]string, inputs []string) (compiled, answered int, err error) {
	cs, err := compileAll(vm.NewFunctions(), defs, ns)
	if err != nil {
		return 0, 0, err
	}
	vals := []xdm.Sequence{nil}
	for _, in := range inputs {
		vals = append(vals, xdm.Sequence{xdm.String(in)}, xdm.Sequence{xdm.Untyped(in)})
	}
	ctx := context.Background()
	for _, c := range cs {
		if c.scalarResult == nil {
			continue
		}
		compiled++
		args := make([]xdm.Sequence, len(c.def.Params))
		var each func(k int) error
		each = func(k int) error {
			if k < len(args) {
				for _, v := range vals {
					args[k] = v
					if err := each(k + 1); err != nil {
						return err
					}
				}
				return nil
			}
			env := c.env(nil)
			got, ok := c.callScalar(nil, env, args)
			c.done(env)
			env = c.env(nil)
			want, werr := c.interpret(ctx, nil, env, args)
			c.done(env)
			if !ok {
				return nil
			}
			answered++
			if werr != nil || len(got) != 1 || len(want) != 1 || got[0] != want[0] {
				return fmt.Errorf("%s%v: closures %v, interpreter %v %v", c.def.Local, args, got, want, werr)
			}
			return nil
		}
		if err := each(0); err != nil {
			return compiled, answered, err
		}
	}
	return compiled, answered, nil
}
