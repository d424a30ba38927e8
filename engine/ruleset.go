package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// Ruleset is a compiled rule set: immutable after Load and safe for
// concurrent use by any number of goroutines.
type Ruleset struct {
	Name    string // e.g. "EN16931"
	Version string // e.g. "1.3.16"
	Syntax  string // e.g. "ubl"

	tables *Tables
	lets   []*vm.Program
	rules  []*vm.Pattern
	// letRefs and ruleRefs list the variable slots each let / rule context
	// references (see lazy.go).
	letRefs  [][]int32
	ruleRefs [][]int32
	// deadLet[i]: no expression of the rule set reads let i, directly or
	// through other lets (liveLets); it is not evaluated.
	deadLet []bool
	checks  []compiledCheck
	// hot[ci] is what fire reads of check ci when its test holds, as most
	// do: the test, its frame-free form and whether it is a report, side
	// by side instead of in a Check and a compiledCheck.
	hot []hotCheck
	// staticPlan[ri] is rule ri's plan (validation.plan) when none of its
	// checks has an absence verdict: all of them, whatever the document;
	// nil otherwise.
	staticPlan [][]int32
	// planNames[ri] (rules without a static plan): the names their plan
	// depends on (planNames), besides parent-child pairs (liveEdges).
	planNames   [][]int32
	diags       [][]compiledPart
	nSchemaLets int
	locForm     locationForm

	// Context index. names are the distinct expanded names rule contexts can
	// match; byName[q][p] lists, in rule order, the rules of pattern p that
	// can match a node named names[q] (including the rules that can match any
	// node); anyRules[p] lists the rules of pattern p that can match any node.
	names    []xdm.QName
	byName   [][][]int32
	anyRules [][]int32
	// patNames[p] lists the names q with rules of pattern p (byName[q][p]
	// not empty). For a pattern without anyRules these are the only names
	// whose nodes can fire a rule: the validation visits just those nodes
	// (Factur-X and Order-X have 47-173 patterns of one rule each, and
	// visiting every node once per pattern was 18 % of the Factur-X
	// EN16931 step).
	patNames [][]int32
	// gatedAny[p] is, for a pattern with anyRules that all have a gate,
	// whether names[q] has rules of p other than those (indexed by q);
	// nil for other patterns. A node of such a pattern whose name has
	// none and passes none of the gates cannot fire a rule of it, so it
	// is not visited (validation.anyMay).
	gatedAny [][]bool
	// leafOnly[p]: every rule of pattern p matches only empty leaves
	// (vm.Pattern.EmptyLeafOnly: the rule sets' //*[not(*) and
	// not(normalize-space())]), so only the document's empty leaves
	// (xmltree.Document.EmptyLeaves, found once for all the rule sets
	// that ask) are visited, not every node.
	leafOnly []bool
	// rootOnly[p]: every rule of pattern p matches only children of the
	// document node (vm.Pattern.RootChildOnly: "/*", the scenario matches
	// of rulesets/scenarios.go); the validation visits just those, not
	// every node as for a rule that can match any node.
	rootOnly []bool
	// guardGroup[ri] numbers the distinct guards of the guarded rules
	// (vm.Pattern.GuardKey): rules of one group share one evaluation of
	// them per document. nGuardGroups counts the groups.
	guardGroup   []int32
	nGuardGroups int
	// sure[q][p][k] is set when rule byName[q][p][k] matches every element
	// named names[q] that has a parent (vm.Pattern.MatchesEveryElement):
	// its context is then not evaluated for such an element.
	sure [][][]bool
	// byParent[q][p], when some rule of byName[q][p] has a parent gate,
	// holds byName[q][p] and sure[q][p] filtered by each parent the gates
	// name (parentCands): visitNode then tries only the rules whose gate
	// allows the node's parent. nil otherwise.
	byParent [][]*parentCands
	// ctx[ri] is what visitNode reads of rule ri when it tries its
	// context (ruleCtx), side by side; nGates counts the rules with a
	// gate (ruleCtx.gate).
	ctx    []ruleCtx
	nGates int
	// dispatchLits[d] maps the literals of dispatch key d to their bits
	// (ruleCtx.dispatch).
	dispatchLits []map[string]uint64
	dispatchers  []*vm.Pattern // one rule's context per key, to evaluate K

	// absNames are the names of the checks' absence verdicts; absIdx maps
	// them back to their index. absEdges are the parent-child pairs of
	// their paths and of their contexts' names and their paths' first
	// steps (vm.Program.AbsenceEdges), whose names are in absNames;
	// edgeIdx maps them back to their index.
	absNames    []xdm.QName
	absIdx      map[xdm.QName]int32
	absEdges    []absEdge
	edgeParents []int32
	edgeIdx     map[string]int32

	// cat is the rule set's catalog; nameSlots[q] and absSlots[i] are the
	// catalog slots of names[q] and absNames[i].
	cat       *vm.Catalog
	nameSlots []int32
	absSlots  []int32

	pool sync.Pool // *state
}

// absEdge is a parent-child pair of an absence verdict: elements (or
// attributes, when attr) named absNames[child] whose parent element is
// named absNames[p] for one of the parents edgeParents[first:first+n]
// (several for a rule context that matches several names:
// "cac:InvoiceLine | cac:CreditNoteLine"). One array holds every edge's
// parents: a document's plans read a few hundred edges.
type absEdge struct {
	first, n int32
	child    int32
	attr     bool
}

// planNames returns the absNames indexes the absence verdicts of rule's
// checks read, sorted (a plan is kept across documents by their presence
// bits; validation.plan), or nil when there are none.
func planNames(checks []compiledCheck, rule Rule) []int32 {
	var names []int32
	for ci := rule.FirstCheck; ci < rule.FirstCheck+rule.NumChecks; ci++ {
		names = append(names, checks[ci].absent...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// staticPlan returns the plan of rule when no check of it has an absence
// verdict (every check is evaluated, in order), or nil.
func staticPlan(checks []compiledCheck, rule Rule) []int32 {
	p := make([]int32, 0, rule.NumChecks)
	for ci := rule.FirstCheck; ci < rule.FirstCheck+rule.NumChecks; ci++ {
		if len(checks[ci].absent) > 0 {
			return nil
		}
		p = append(p, planEntry(ci, &checks[ci]))
	}
	return p
}

// planConst marks a plan entry whose check has a document-constant test
// (validation.plan): check indexes stay far below it.
const planConst = 1 << 30

// planEntry is the plan entry that evaluates check ci.
func planEntry(ci int32, cc *compiledCheck) int32 {
	if cc.docConst {
		return ci + planConst
	}
	return ci
}

// parentGate: a node can match the rule only when its parent is the
// document node (root) or an element whose name is one of names (indexes
// into Ruleset.names).
type parentGate struct {
	root  bool
	names []int32
}

// allows reports whether a node whose parent is parent (visitNode.parent)
// may match.
func (g *parentGate) allows(parent int32) bool {
	switch parent {
	case parentNone:
		return true // the document node: the gate does not apply
	case parentRoot:
		return g.root
	case parentOther:
		return false
	}
	return slices.Contains(g.names, parent)
}

// parentCands is a candidate list (Ruleset.byName) split by the parent of
// the node: lists[i] and sures[i] are the rules, and their sure flags, that
// a node whose parent is keys[i] (visitNode.parent: a names index,
// parentRoot or parentNone; ascending) may match, other those of any
// other parent (the rules without a parent gate).
type parentCands struct {
	keys      []int32
	lists     [][]int32
	sures     [][]bool
	other     []int32
	otherSure []bool
}

// parentCandsOf returns the split of candidate list l (sure its flags), or
// nil when no rule of l has a parent gate.
func (r *Ruleset) parentCandsOf(l []int32, sure []bool) *parentCands {
	if !slices.ContainsFunc(l, func(ri int32) bool { return r.ctx[ri].parents != nil }) {
		return nil
	}
	keys := []int32{parentNone, parentOther} // parentOther: the other parents' list
	for _, ri := range l {
		if g := r.ctx[ri].parents; g != nil {
			keys = append(keys, g.names...)
			if g.root {
				keys = append(keys, parentRoot)
			}
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	pc := &parentCands{}
	for _, parent := range keys {
		var list []int32
		var sures []bool
		for k, ri := range l {
			if g := r.ctx[ri].parents; g == nil || g.allows(parent) {
				list = append(list, ri)
				sures = append(sures, sure[k])
			}
		}
		if parent == parentOther {
			pc.other, pc.otherSure = list, sures
			continue
		}
		pc.keys = append(pc.keys, parent)
		pc.lists = append(pc.lists, list)
		pc.sures = append(pc.sures, sures)
	}
	return pc
}

// lookup returns the candidates, and their sure flags, for a node whose
// parent is parent.
func (pc *parentCands) lookup(parent int32) ([]int32, []bool) {
	for i, k := range pc.keys {
		if k == parent {
			return pc.lists[i], pc.sures[i]
		}
		if k > parent {
			break
		}
	}
	return pc.other, pc.otherSure
}

type compiledCheck struct {
	test *vm.Program
	refs []int32 // variable slots referenced by the test or the message
	msg  []compiledPart
	// static is the finished message and terms when msg has no dynamic part.
	static      bool
	staticMsg   string
	staticTerms []string
	// absent lists indexes into Ruleset.absNames whose absence from the
	// document decides the test (vm.Program.AbsenceVerdict), absentEdges
	// indexes into Ruleset.absEdges whose absence decides it likewise
	// (vm.Program.AbsenceEdges); absentFires tells whether that verdict
	// makes the check fire (a false assert, a true report). Only for
	// checks that reference no variable.
	absent      []int32
	absentEdges []int32
	absentFires bool
	// docConst: the test has one value per document (vm.Program.
	// DocConstant, reading only global lets, listed in testRefs) and its
	// rule may fire on several nodes (not only on the document element):
	// fireConst evaluates it on the check's first node and keeps the value
	// (state.constRes).
	docConst bool
	testRefs []int32
}

// ruleCtx is what visitNode reads of a rule, side by side (one slice
// index instead of one per array: 0.2-0.8 % of the profile steps'
// instructions; the simulated cache misses did not change).
type ruleCtx struct {
	pat *vm.Pattern
	// parents is the rule's necessary condition on the parent of the
	// element or attribute it is tried on (vm.Pattern.ParentNames), or
	// nil when it has none.
	parents *parentGate
	// gate is, for a rule that can match any element or attribute and
	// whose context has a name-only necessary condition
	// (vm.Pattern.MatchesName), its index into state.gates; -1 otherwise.
	gate int32
	// dispatch is, for a rule whose context's first predicate is
	// K = 'literal' with a K shared by other rules of its pattern
	// (vm.Pattern.DispatchKey), the index of that key in
	// Ruleset.dispatchers; -1 otherwise. dispatchBit is the bit of the
	// rule's literal among its key's (Ruleset.dispatchLits[dispatch]; at
	// most 64 per key).
	dispatch    int32
	dispatchBit uint64
	// plain: the context is named child steps without predicates
	// (vm.Pattern.PlainContext), matched by names up the parent chain
	// without the matching machinery (visitNode). gateDecides: once the
	// gate holds (vm.NameGated), the node test and a parent decide the
	// context (vm.Pattern.GateDecides). guarded: the context has document
	// guards (vm.Pattern.Guarded), conditions on global variables that can
	// rule it out for a whole document (validation.guardFails).
	plain, gateDecides, guarded bool
}

// hotCheck is Ruleset.hot's entry: fast is the test's frame-free form
// (hasFast when it has one), or its form reading variables (vars:
// vm.Program.FastVarTest), which runs only when none of the lets the
// test reads failed.
type hotCheck struct {
	test    *vm.Program
	fast    vm.FastTest
	hasFast bool
	vars    bool
	report  bool
}

type compiledPart struct {
	kind PartKind
	text string
	prog *vm.Program // value-of select or name path (nil: the context node)
}

// Option configures Load.
type Option func(*loadConfig)

type loadConfig struct {
	functions *vm.Functions
	docRoot   string
	cache     *xpath.Cache
}

// CompileCache shares the parsing of identical expressions between the
// Loads given it (xpath.Cache): one per catalog load.
type CompileCache = xpath.Cache

// NewCompileCache returns an empty compile cache.
func NewCompileCache() *CompileCache { return xpath.NewCache() }

// WithCompileCache shares the parsing of identical expressions with every
// other Load given the same cache (the rule sets of one catalog load). The
// compiled rule set does not depend on the cache, which can be dropped
// once the Loads are done.
func WithCompileCache(c *CompileCache) Option { return func(cfg *loadConfig) { cfg.cache = c } }

// WithDocumentRoot gives the directory the tables' Documents paths are
// relative to (the shared directory). Load reads and parses each document
// once and registers it for fn:document in the function registry (a new one
// if WithFunctions was not given; the given registry is extended).
func WithDocumentRoot(dir string) Option { return func(c *loadConfig) { c.docRoot = dir } }

// WithFunctions provides the extension functions (xsl:function
// implementations) the rule set's expressions call.
func WithFunctions(f *vm.Functions) Option { return func(c *loadConfig) { c.functions = f } }

// LoadError is a failure to compile one expression of the tables.
type LoadError struct {
	File string
	Line int
	Item string // e.g. `assert BR-01 test`, `rule context`, `let $x`
	Expr string
	Err  error // typically *xpath.Error
}

func (e *LoadError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %v (in %q)", e.File, e.Line, e.Item, e.Err, e.Expr)
}

func (e *LoadError) Unwrap() error { return e.Err }

// Load compiles every expression of t (once) and builds the context index.
// It fails if t is nil or empty or if any expression does not compile.
func Load(t *Tables, opts ...Option) (*Ruleset, error) {
	if t == nil || len(t.Patterns) == 0 {
		return nil, errors.New("engine.Load: no tables (run `make generate`?)")
	}
	var cfg loadConfig
	for _, o := range opts {
		o(&cfg)
	}
	if len(t.Documents) > 0 {
		if err := loadDocuments(t, &cfg); err != nil {
			return nil, fmt.Errorf("engine.Load %s %s: %w", t.Name, t.Syntax, err)
		}
	}
	r := &Ruleset{Name: t.Name, Version: t.Version, Syntax: t.Syntax, tables: t, nSchemaLets: int(t.NumSchemaLets()), locForm: formFor(t.QueryBinding)}
	ns := make(map[string]string, len(t.Namespaces))
	for _, n := range t.Namespaces {
		ns[n.Prefix] = n.URI
	}
	cat := vm.NewCatalog() // one per rule set: names resolved once per document
	// The lets that folded to a constant (code lists), by slot: what
	// refers to them compiles to the value itself.
	consts := map[int]xdm.Sequence{}
	// Variable scopes are read-only maps: one per distinct scope. Every
	// rule without lets of its own sees exactly the pattern scope (pattern
	// lets are global), so most rules share one map instead of building
	// their own (Factur-X EXTENDED: 1,218 rules x 210 lets).
	scopes := map[[3]int32]map[string]int{}
	sc := func(p, rule, limit int32) *xpath.StaticContext {
		k := [3]int32{p, rule, limit}
		if p >= 0 && limit < 0 && (rule < 0 || t.Rules[rule].NumLets == 0) {
			k = [3]int32{0, -1, -1}
		}
		vars, ok := scopes[k]
		if !ok {
			vars = t.VarScope(k[0], k[1], k[2])
			scopes[k] = vars
		}
		return &xpath.StaticContext{Namespaces: ns, Variables: vars, Functions: cfg.functions, Catalog: cat, Cache: cfg.cache, Constants: consts}
	}
	wrap := func(pos SourcePos, item, expr string, err error) error {
		file := ""
		if int(pos.File) < len(t.Files) {
			file = t.Files[pos.File]
		}
		return fmt.Errorf("engine.Load %s %s: %w", t.Name, t.Syntax, &LoadError{File: file, Line: int(pos.Line), Item: item, Expr: expr, Err: err})
	}

	// Lets: find each let's owner to compute its scope.
	r.lets = make([]*vm.Program, len(t.Lets))
	r.letRefs = make([][]int32, len(t.Lets))
	compileLet := func(i, p, rule int32) error {
		l := t.Lets[i]
		lsc := sc(p, rule, i)
		prog, err := xpath.Compile(l.Expr, lsc)
		if err != nil {
			return wrap(l.Pos, "let $"+l.Name, l.Expr, err)
		}
		r.lets[i] = prog
		r.letRefs[i] = varRefs(l.Expr, lsc.Variables)
		if c, ok := prog.Constant(); ok {
			consts[int(i)] = c
		}
		return nil
	}
	for i := int32(0); i < int32(r.nSchemaLets); i++ {
		if err := compileLet(i, -1, -1); err != nil {
			return nil, err
		}
	}
	r.rules = make([]*vm.Pattern, len(t.Rules))
	r.ctx = make([]ruleCtx, len(t.Rules))
	r.ruleRefs = make([][]int32, len(t.Rules))
	r.checks = make([]compiledCheck, len(t.Checks))
	r.staticPlan = make([][]int32, len(t.Rules))
	r.planNames = make([][]int32, len(t.Rules))
	for pi, p := range t.Patterns {
		for i := p.FirstLet; i < p.FirstLet+p.NumLets; i++ {
			if err := compileLet(i, int32(pi), -1); err != nil {
				return nil, err
			}
		}
		for ri := p.FirstRule; ri < p.FirstRule+p.NumRules; ri++ {
			rule := t.Rules[ri]
			for i := rule.FirstLet; i < rule.FirstLet+rule.NumLets; i++ {
				if err := compileLet(i, int32(pi), ri); err != nil {
					return nil, err
				}
			}
			psc := sc(int32(pi), -1, -1)
			pat, err := xpath.CompilePattern(rule.Context, psc)
			if err != nil {
				return nil, wrap(rule.Pos, "rule context", rule.Context, err)
			}
			r.rules[ri] = pat
			r.ctx[ri].pat = pat
			r.ruleRefs[ri] = varRefs(rule.Context, psc.Variables)
			rsc := sc(int32(pi), ri, -1)
			// The context is an element of one of ctxNames: a check whose
			// path starts with a child step has that pair. It is kept for
			// a rule that can fire on several nodes, where a missing pair
			// skips the check on each; on the document element alone
			// (/ubl:Invoice) looking it up costs about what the check does.
			var ctxNames []xdm.QName
			if names, any := pat.ElementNames(); !any && !pat.AtMostOneNode() {
				ctxNames = names
			}
			tsc := *rsc
			tsc.Test = true // read by EvalBool only
			for ci := rule.FirstCheck; ci < rule.FirstCheck+rule.NumChecks; ci++ {
				c := t.Checks[ci]
				prog, err := xpath.Compile(c.Test, &tsc)
				if err != nil {
					return nil, wrap(c.Pos, c.Kind.String()+" "+c.ID+" test", c.Test, err)
				}
				cc := compiledCheck{test: prog, refs: varRefs(messageSource(c.Test, c.Message), rsc.Variables)}
				cc.msg, err = compileMessage(c.Message, rsc)
				if err != nil {
					return nil, wrap(c.Pos, c.Kind.String()+" "+c.ID+" message", "", err)
				}
				if prog.DocConstant() && !pat.AtMostOneNode() {
					cc.testRefs = varRefs(c.Test, rsc.Variables)
					cc.docConst = !slices.ContainsFunc(cc.testRefs, func(s int32) bool {
						return s >= rule.FirstLet && s < rule.FirstLet+rule.NumLets // a rule's own let
					})
				}
				if names, val, ok := prog.AbsenceVerdict(); ok && len(cc.refs) == 0 {
					cc.absent, cc.absentFires = r.absenceIndexes(names), val == (c.Kind == KindReport)
					cc.absentEdges = r.edgeIndexes(prog.AbsenceEdges(), ctxNames)
				}
				if isStatic(cc.msg) {
					cc.static = true
					cc.staticMsg = NormalizeSpace(joinText(cc.msg))
					cc.staticTerms = Terms(cc.staticMsg)
				}
				r.checks[ci] = cc
			}
			r.staticPlan[ri] = staticPlan(r.checks, rule)
			if r.staticPlan[ri] == nil {
				r.planNames[ri] = planNames(r.checks, rule)
			}
		}
	}
	r.hot = make([]hotCheck, len(t.Checks))
	for ci := range r.hot {
		h := hotCheck{test: r.checks[ci].test, report: t.Checks[ci].Kind == KindReport}
		if h.test != nil {
			h.fast, h.hasFast = h.test.FastTest()
			if !h.hasFast {
				h.fast, h.vars = h.test.FastVarTest()
			}
		}
		r.hot[ci] = h
	}
	r.diags = make([][]compiledPart, len(t.Diagnostics))
	diagRefs := make([][]int32, len(t.Diagnostics))
	for i, d := range t.Diagnostics {
		// Diagnostics are evaluated in the context of the firing rule; they
		// see the schema lets only (as in the skeleton, where they are
		// expanded outside the rule template's variables).
		msg, err := compileMessage(d.Message, sc(-1, -1, -1))
		if err != nil {
			return nil, wrap(d.Pos, "diagnostic "+d.ID, "", err)
		}
		r.diags[i] = msg
		diagRefs[i] = varRefs(messageSource("", d.Message), sc(-1, -1, -1).Variables)
	}
	r.deadLet = r.liveLets(diagRefs)
	r.buildIndex()
	r.buildDispatch()
	// The names the validation looks up per document, numbered in the
	// catalog: one resolution per document serves the programs, the
	// context index and the absence verdicts (state.reset).
	r.cat = cat
	r.nameSlots = make([]int32, len(r.names))
	for q, n := range r.names {
		r.nameSlots[q] = cat.Slot(n)
	}
	r.absSlots = make([]int32, len(r.absNames))
	for i, n := range r.absNames {
		r.absSlots[i] = cat.Slot(n)
	}
	r.pool.New = func() any { return &state{} }
	return r, nil
}

// messageSource is test followed by the expressions of a message's
// value-of and name parts, for varRefs.
func messageSource(test string, parts []MessagePart) string {
	src := test
	for _, m := range parts {
		if m.Kind != PartText {
			src += " " + m.Text
		}
	}
	return src
}

// liveLets marks the lets no expression reads: a let is live when a check
// (test or message), a rule context, a diagnostic or a live let references
// it, by name in its source (varRefs; diagRefs for the diagnostics) or by
// slot in its compiled program. Lets raise their errors only where their
// value is needed (lazy.go), so leaving a dead one unevaluated changes no
// result: the reference (Saxon) does not evaluate an unused xsl:variable
// either.
func (r *Ruleset) liveLets(diagRefs [][]int32) (dead []bool) {
	live := make([]bool, len(r.lets))
	var work []int32
	set := func(s int32) {
		if !live[s] {
			live[s] = true
			work = append(work, s)
		}
	}
	mark := func(refs []int32, slots []int) {
		for _, s := range refs {
			set(s)
		}
		for _, s := range slots {
			set(int32(s))
		}
	}
	markMsg := func(parts []compiledPart) {
		for _, m := range parts {
			if m.prog != nil {
				mark(nil, m.prog.VarSlots())
			}
		}
	}
	for i := range r.checks {
		cc := &r.checks[i]
		if cc.test != nil {
			mark(cc.refs, cc.test.VarSlots())
		}
		markMsg(cc.msg)
	}
	for ri, refs := range r.ruleRefs {
		mark(refs, r.rules[ri].VarSlots())
	}
	for i, refs := range diagRefs {
		mark(refs, nil)
		markMsg(r.diags[i])
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		mark(r.letRefs[s], r.lets[s].VarSlots())
	}
	dead = make([]bool, len(live))
	for i, l := range live {
		dead[i] = !l
	}
	return dead
}

func compileMessage(parts []MessagePart, sc *xpath.StaticContext) ([]compiledPart, error) {
	out := make([]compiledPart, len(parts))
	for i, p := range parts {
		out[i] = compiledPart{kind: p.Kind, text: p.Text}
		if p.Kind == PartText || (p.Kind == PartName && p.Text == "") {
			continue
		}
		prog, err := xpath.Compile(p.Text, sc)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", p.Text, err)
		}
		out[i].prog = prog
	}
	return out, nil
}

func isStatic(parts []compiledPart) bool {
	for _, p := range parts {
		if p.kind != PartText {
			return false
		}
	}
	return true
}

func joinText(parts []compiledPart) string {
	s := ""
	for _, p := range parts {
		s += p.text
	}
	return s
}

// edgeIndexes interns edges into r.absEdges (and their names into
// r.absNames); nil for none. An edge from the context node has the rule
// context's names as parents (ctxNames: the element names it can match,
// nil when it can match other nodes); it is left out without them.
func (r *Ruleset) edgeIndexes(edges []vm.NameEdge, ctxNames []xdm.QName) []int32 {
	var out []int32
	for _, e := range edges {
		parents := []xdm.QName{e.Parent}
		if e.FromContext {
			if parents = ctxNames; len(parents) == 0 {
				continue
			}
		}
		ps, child := r.absenceIndexes(parents), r.absenceIndexes([]xdm.QName{e.Child})[0]
		key := fmt.Sprint(ps, child, e.Attr)
		i, ok := r.edgeIdx[key]
		if !ok {
			if r.edgeIdx == nil {
				r.edgeIdx = map[string]int32{}
			}
			i = int32(len(r.absEdges))
			r.edgeIdx[key] = i
			r.absEdges = append(r.absEdges, absEdge{first: int32(len(r.edgeParents)), n: int32(len(ps)), child: child, attr: e.Attr})
			r.edgeParents = append(r.edgeParents, ps...)
		}
		out = append(out, i)
	}
	return out
}

// absenceIndexes interns names into r.absNames.
func (r *Ruleset) absenceIndexes(names []xdm.QName) []int32 {
	if r.absIdx == nil {
		r.absIdx = map[xdm.QName]int32{}
	}
	out := make([]int32, 0, len(names))
	for _, q := range names {
		i, ok := r.absIdx[q]
		if !ok {
			i = int32(len(r.absNames))
			r.absIdx[q] = i
			r.absNames = append(r.absNames, q)
		}
		out = append(out, i)
	}
	return out
}

// buildDispatch groups, within each pattern, the rules whose contexts start
// with K = 'literal' for the same K (vm.Pattern.DispatchKey): EN 16931 tries
// nine VAT-category rules, cac:ClassifiedTaxCategory[normalize-space(cbc:ID)
// = 'S'] to [... = 'O'], on every category of every line, and eight of them
// cannot match. A key with a single rule is not kept (K would be evaluated
// for nothing), nor one with more than 64 literals (a bit each: visitNode
// turns K's values into the bits of the rules they let through).
func (r *Ruleset) buildDispatch() {
	t := r.tables
	for ri := range r.ctx {
		r.ctx[ri].dispatch = -1
	}
	lits := make([]string, len(t.Rules))
	for _, p := range t.Patterns {
		members := map[string][]int32{}
		var order []string
		for ri := p.FirstRule; ri < p.FirstRule+p.NumRules; ri++ {
			key, lit, ok := r.rules[ri].DispatchKey()
			if !ok {
				continue
			}
			if members[key] == nil {
				order = append(order, key)
			}
			members[key] = append(members[key], ri)
			lits[ri] = lit
		}
		for _, key := range order {
			rs := members[key]
			bits := map[string]uint64{}
			for _, ri := range rs {
				if _, ok := bits[lits[ri]]; !ok {
					bits[lits[ri]] = 1 << len(bits)
				}
			}
			if len(rs) < 2 || len(bits) > 64 {
				continue
			}
			for _, ri := range rs {
				r.ctx[ri].dispatch = int32(len(r.dispatchers))
				r.ctx[ri].dispatchBit = bits[lits[ri]]
			}
			r.dispatchers = append(r.dispatchers, r.rules[rs[0]])
			r.dispatchLits = append(r.dispatchLits, bits)
		}
	}
}

// buildIndex builds the context index from the compiled patterns.
func (r *Ruleset) buildIndex() {
	t := r.tables
	qidx := map[xdm.QName]int{}
	intern := func(q xdm.QName) int {
		i, ok := qidx[q]
		if !ok {
			i = len(r.names)
			qidx[q] = i
			r.names = append(r.names, q)
		}
		return i
	}
	ruleNames := make([][]int, len(t.Rules))
	anyRule := make([]bool, len(t.Rules))
	for ri, pat := range r.rules {
		r.ctx[ri].plain = pat.PlainContext() && len(r.ruleRefs[ri]) == 0
		r.ctx[ri].gateDecides = pat.GateDecides() && len(r.ruleRefs[ri]) == 0
		if pn, root, ok := pat.ParentNames(); ok {
			g := &parentGate{root: root}
			for _, q := range pn {
				g.names = append(g.names, int32(intern(q)))
			}
			r.ctx[ri].parents = g
		}
		names, any := pat.ElementNames()
		if any || len(names) == 0 {
			// A pattern that names nothing (e.g. "/") is treated as "any":
			// the index only filters, Matches decides.
			anyRule[ri] = true
			continue
		}
		for _, q := range names {
			ruleNames[ri] = append(ruleNames[ri], intern(q))
		}
	}
	r.byName = make([][][]int32, len(r.names))
	for q := range r.byName {
		r.byName[q] = make([][]int32, len(t.Patterns))
	}
	for ri := range r.ctx {
		r.ctx[ri].gate = -1
		if anyRule[ri] && r.rules[ri].NameFiltered() {
			r.ctx[ri].gate = int32(r.nGates)
			r.nGates++
		}
	}
	r.anyRules = make([][]int32, len(t.Patterns))
	for pi, p := range t.Patterns {
		for ri := p.FirstRule; ri < p.FirstRule+p.NumRules; ri++ {
			if anyRule[ri] {
				r.anyRules[pi] = append(r.anyRules[pi], ri)
				for q := range r.byName {
					r.byName[q][pi] = append(r.byName[q][pi], ri)
				}
				continue
			}
			for _, q := range ruleNames[ri] {
				l := r.byName[q][pi]
				if len(l) == 0 || l[len(l)-1] != ri {
					r.byName[q][pi] = append(l, ri)
				}
			}
		}
	}
	r.patNames = make([][]int32, len(t.Patterns))
	for q := range r.byName {
		for pi, l := range r.byName[q] {
			if len(l) > 0 {
				r.patNames[pi] = append(r.patNames[pi], int32(q))
			}
		}
	}
	r.gatedAny = make([][]bool, len(t.Patterns))
	for pi, any := range r.anyRules {
		if len(any) == 0 || slices.ContainsFunc(any, func(ri int32) bool { return r.ctx[ri].gate < 0 }) {
			continue
		}
		named := make([]bool, len(r.names))
		for q := range r.byName {
			named[q] = len(r.byName[q][pi]) > len(any)
		}
		r.gatedAny[pi] = named
	}
	r.guardGroup = make([]int32, len(r.rules))
	groups := map[string]int32{}
	for ri, pt := range r.rules {
		r.ctx[ri].guarded = pt.Guarded()
		if !r.ctx[ri].guarded {
			continue
		}
		key := pt.GuardKey()
		g, ok := groups[key]
		if !ok {
			g = int32(r.nGuardGroups)
			r.nGuardGroups++
			groups[key] = g
		}
		r.guardGroup[ri] = g
	}
	r.leafOnly = everyRule(t, r.rules, (*vm.Pattern).EmptyLeafOnly)
	r.rootOnly = everyRule(t, r.rules, (*vm.Pattern).RootChildOnly)
	r.sure = make([][][]bool, len(r.names))
	for q := range r.byName {
		r.sure[q] = make([][]bool, len(t.Patterns))
		for pi, l := range r.byName[q] {
			r.sure[q][pi] = make([]bool, len(l))
			for k, ri := range l {
				r.sure[q][pi][k] = r.rules[ri].MatchesEveryElement(r.names[q])
			}
		}
	}
	r.byParent = make([][]*parentCands, len(r.names))
	for q := range r.byName {
		r.byParent[q] = make([]*parentCands, len(t.Patterns))
		for pi, l := range r.byName[q] {
			r.byParent[q][pi] = r.parentCandsOf(l, r.sure[q][pi])
		}
	}
}

// everyRule returns, per pattern of t, whether it has rules and each of
// their contexts (rules, by rule index) has the property holds.
func everyRule(t *Tables, rules []*vm.Pattern, holds func(*vm.Pattern) bool) []bool {
	out := make([]bool, len(t.Patterns))
	for pi, p := range t.Patterns {
		out[pi] = p.NumRules > 0
		for ri := p.FirstRule; ri < p.FirstRule+p.NumRules && out[pi]; ri++ {
			out[pi] = holds(rules[ri])
		}
	}
	return out
}

// Tables returns the tables r was loaded from (read-only).
func (r *Ruleset) Tables() *Tables { return r.tables }

// Label returns "Name Version", e.g. "EN16931 1.3.16".
func (r *Ruleset) Label() string { return r.Name + " " + r.Version }

// IndexStats reports the context index: the number of distinct names and,
// per rule, the names it is filed under ("*" for any).
func (r *Ruleset) IndexStats() (names int, perRule []string) {
	perRule = make([]string, len(r.rules))
	for ri, pat := range r.rules {
		ns, any := pat.ElementNames()
		if any || len(ns) == 0 {
			perRule[ri] = "*"
			continue
		}
		s := ""
		for i, q := range ns {
			if i > 0 {
				s += " "
			}
			s += q.String()
		}
		perRule[ri] = s
	}
	return len(r.names), perRule
}

// loadDocuments parses the tables' documents and registers them.
func loadDocuments(t *Tables, cfg *loadConfig) error {
	if cfg.docRoot == "" {
		return errors.New("the rule set loads documents (fn:document); give engine.WithDocumentRoot")
	}
	if cfg.functions == nil {
		cfg.functions = vm.NewFunctions()
	}
	for _, d := range t.Documents {
		data, err := os.ReadFile(filepath.Join(cfg.docRoot, filepath.FromSlash(d.Path)))
		if err != nil {
			return fmt.Errorf("document %q: %w", d.URI, err)
		}
		doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			return fmt.Errorf("document %q (%s): %w", d.URI, d.Path, err)
		}
		cfg.functions.RegisterDocument(d.URI, doc)
	}
	return nil
}

// FastAgrees runs vm.Program.FastAgrees for every check with a part
// evaluated without a frame, and vm.Pattern.FastAgrees for every such rule
// context, on every element and attribute of doc (those that read lets
// with the document's lets bound), and returns how many check evaluations
// were decided wholly without a frame and the first disagreement. A test
// hook.
func (r *Ruleset) FastAgrees(ctx context.Context, doc *xmltree.Document) (decided int, err error) {
	st := r.pool.Get().(*state)
	defer r.release(st)
	st.reset(r, doc)
	v := validation{r: r, st: st, doc: doc}
	// The schema and pattern lets, bound for the whole document (rule lets
	// are bound per firing: tests that read them are left out).
	global := make([]bool, len(r.lets))
	for i := 0; i < r.nSchemaLets; i++ {
		v.evalLet(ctx, i, 0)
		global[i] = true
	}
	for pi := range r.tables.Patterns {
		p := &r.tables.Patterns[pi]
		for i := p.FirstLet; i < p.FirstLet+p.NumLets; i++ {
			v.evalLet(ctx, int(i), 0)
			global[i] = true
		}
	}
	bound := func(refs []int32) bool {
		for _, s := range refs {
			if !global[s] || st.letErr[s] != nil {
				return false
			}
		}
		return true
	}
	env := &st.env
	nodes := func(each func(n xmltree.NodeID) error) error {
		for n := xmltree.NodeID(0); int(n) < doc.Len(); n++ {
			if k := doc.Kind(n); k == xmltree.KindElement || k == xmltree.KindAttribute {
				if err := each(n); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for ci := range r.checks {
		p := r.checks[ci].test
		if p == nil || !p.HasFast() || !bound(r.checks[ci].refs) {
			continue
		}
		err := nodes(func(n xmltree.NodeID) error {
			ok, err := p.FastAgrees(ctx, env, n)
			if ok {
				decided++
			}
			return err
		})
		if err != nil {
			return decided, fmt.Errorf("%s %s: %w", r.Label(), r.tables.Checks[ci].ID, err)
		}
	}
	for ri, pat := range r.rules {
		if !pat.HasFast() || !bound(r.ruleRefs[ri]) {
			continue
		}
		if err := nodes(func(n xmltree.NodeID) error { return pat.FastAgrees(ctx, env, n) }); err != nil {
			return decided, fmt.Errorf("%s rule context %s: %w", r.Label(), r.tables.Rules[ri].Context, err)
		}
	}
	return decided, r.absenceAgrees(ctx, &v, nodes, bound)
}

// absenceAgrees is FastAgrees for the absence verdicts: each check that
// the document's missing names or parent-child pairs decide (validation.
// plan) is evaluated on every node its rule matches, and must give the
// verdict's value without an error.
func (r *Ruleset) absenceAgrees(ctx context.Context, v *validation, nodes func(func(xmltree.NodeID) error) error, bound func([]int32) bool) error {
	env := &v.st.env
	for ri := range r.tables.Rules {
		rule, pat := &r.tables.Rules[ri], r.rules[ri]
		if !bound(r.ruleRefs[ri]) {
			continue
		}
		var matched []xmltree.NodeID
		listed := false
		for ci := rule.FirstCheck; ci < rule.FirstCheck+rule.NumChecks; ci++ {
			cc, c := &r.checks[ci], &r.tables.Checks[ci]
			if len(cc.absent) == 0 || !v.absent(cc.absent) && !v.edgeAbsent(cc.absentEdges) {
				continue
			}
			if !listed {
				listed = true
				_ = nodes(func(n xmltree.NodeID) error {
					if ok, err := pat.Matches(ctx, env, n); ok && err == nil {
						matched = append(matched, n)
					}
					return nil
				})
			}
			want := cc.absentFires == (c.Kind == KindReport)
			for _, n := range matched {
				if got, err := cc.test.EvalBool(ctx, env, n); err != nil || got != want {
					return fmt.Errorf("%s %s: decided %v by absence, evaluated on node %d (%s): %v, %v", r.Label(), c.ID, want, n, v.doc.Path(n), got, err)
				}
			}
		}
	}
	return nil
}
