package xpath

import (
	"sync"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// Cache shares the front end of compilation (lexing, parsing, static
// checks and rewrites) between identical expressions compiled in the same
// static context: the EN 16931 base is part of the Peppol, XRechnung,
// BR-FR and Factur-X sets, the Factur-X and Order-X profiles share most of
// their rules, and a rule set repeats many tests. An entry is the
// rewritten tree before it is wrapped in a program, with its
// common-subexpression plan (vm.PlanShared: it depends on the tree alone,
// so it is made once per entry and the copies carry it); each compilation wraps
// its own copy (vm.ExprArena.Clone) with its own catalog, so programs of
// different rule sets stay independent and the cache is never read by an
// evaluation. A repeat in the same catalog and registry (the same test in
// two rules of one rule set) shares the program itself: programs are
// immutable once built and depend on nothing else. One cache serves one catalog load (rulesets.Load) and is
// safe for concurrent compilations; it holds no state between loads.
//
// An entry is keyed by the source text and records what its parse read
// from the static context: the namespace prefixes and the variables it
// resolved (with the answers), and whether it called a function of the
// registry (sc.Functions). It is reused only in a context that gives the
// same answers (and the same registry when it calls one), so the cost of
// a lookup does not grow with the number of variables in scope.
type Cache struct {
	mu     sync.Mutex
	m      map[cacheKey][]*cacheEntry
	hits   int
	misses int
	same   int // hits that shared the previous program (same catalog)
	// arena holds the copies: they live as long as the load's rule sets,
	// the entries' trees only as long as the cache (vm.ExprArena).
	arena vm.ExprArena
	// regexes: the literal patterns compiled so far, by pattern and
	// flags. A start-up compiles 203 of them, 58 distinct (the EN 16931
	// base in several rule sets, in expressions that differ).
	regexes map[[2]string]*vm.Regex
}

// regex is vm.CompileRegex, each pattern and flags compiled once per
// cache (c may be nil: no sharing). A vm.Regex is immutable.
func (c *Cache) regex(pattern, flags string) (*vm.Regex, error) {
	if c == nil {
		return vm.CompileRegex(pattern, flags)
	}
	k := [2]string{pattern, flags}
	c.mu.Lock()
	re := c.regexes[k]
	c.mu.Unlock()
	if re != nil {
		return re, nil
	}
	re, err := vm.CompileRegex(pattern, flags)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.regexes == nil {
		c.regexes = map[[2]string]*vm.Regex{}
	}
	c.regexes[k] = re
	c.mu.Unlock()
	return re, nil
}

type cacheKey struct {
	src     string
	pattern bool
}

type cacheEntry struct {
	root    *vm.Expr         // Compile: the rewritten tree, never wrapped itself
	cse     vm.CSEPlan       // Compile: root's shared subexpressions, planned once
	alts    []vm.PathPattern // CompilePattern: the rewritten patterns
	nLocals int
	deps    []scopeDep
	usesFns bool // the tree calls sc.Functions (fns)
	fns     *vm.Functions
	// last is the latest program or pattern wrapped from this entry and
	// the catalog and registry it was wrapped with: a compilation with
	// the same ones (a test repeated in one rule set) shares it.
	last    any // *vm.Program or *vm.Pattern
	lastCat *vm.Catalog
	lastFns *vm.Functions
}

// scopeDep is one answer of the static context read by a parse: the URI
// of a prefix or the slot of a variable (ok: it was declared) and, for a
// variable known at compile time, its value (isConst, val).
type scopeDep struct {
	isVar   bool
	name    string
	uri     string
	slot    int
	ok      bool
	isConst bool
	val     xdm.Sequence
}

func (d scopeDep) holds(sc *StaticContext) bool {
	if d.isVar {
		slot, ok := sc.Variables[d.name]
		if ok != d.ok || slot != d.slot {
			return false
		}
		c, isConst := sc.Constants[slot]
		isConst = isConst && ok
		return isConst == d.isConst && sameSeq(c, d.val)
	}
	uri, ok := sc.Namespaces[d.name]
	return ok == d.ok && uri == d.uri
}

func (e *cacheEntry) fits(sc *StaticContext) bool {
	if e.usesFns && e.fns != sc.Functions {
		return false
	}
	for _, d := range e.deps {
		if !d.holds(sc) {
			return false
		}
	}
	return true
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: map[cacheKey][]*cacheEntry{}} }

// Stats returns how many compilations reused an entry and how many parsed.
func (c *Cache) Stats() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// lookup returns an entry for k that fits sc, if any.
func (c *Cache) lookup(k cacheKey, sc *StaticContext) *cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.m[k] {
		if e.fits(sc) {
			c.hits++
			return e
		}
	}
	c.misses++
	return nil
}

// store adds a variant of k (a context that answered differently).
func (c *Cache) store(k cacheKey, e *cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = append(c.m[k], e)
}

// compile is Compile through the cache (the optimised path only).
func (c *Cache) compile(src string, sc *StaticContext) (*vm.Program, error) {
	return cacheGet(c, cacheKey{src: src}, sc, func() (*parser, *cacheEntry, error) {
		ps, root, err := parseOptimized(src, sc, true)
		if err != nil {
			return nil, nil, err
		}
		return ps, &cacheEntry{root: root, cse: vm.PlanShared(root)}, nil
	}, func(e *cacheEntry) *vm.Program {
		return vm.NewProgramPlanned(src, c.arena.Clone(e.root), e.nLocals, sc.Functions, sc.Catalog, e.cse, sc.use())
	})
}

// compilePattern is CompilePattern through the cache.
func (c *Cache) compilePattern(src string, sc *StaticContext) (*vm.Pattern, error) {
	return cacheGet(c, cacheKey{src: src, pattern: true}, sc, func() (*parser, *cacheEntry, error) {
		ps, alts, err := parsePattern(src, sc, true)
		return ps, &cacheEntry{alts: alts}, err
	}, func(e *cacheEntry) *vm.Pattern {
		return vm.NewPatternIn(src, c.arena.ClonePatterns(e.alts), e.nLocals, sc.Functions, sc.Catalog)
	})
}

// cacheGet returns the program or pattern of k in sc: the previous one when
// it was wrapped for the same catalog and registry, else wrap of a fitting
// entry, parsed now (and stored) when there is none. A parse error is not
// stored.
func cacheGet[T any](c *Cache, k cacheKey, sc *StaticContext, parse func() (*parser, *cacheEntry, error), wrap func(*cacheEntry) T) (T, error) {
	e := c.lookup(k, sc)
	if e == nil {
		ps, ne, err := parse()
		if err != nil {
			var zero T
			return zero, err
		}
		ne.nLocals, ne.deps, ne.usesFns, ne.fns = ps.nLocals, ps.deps, ps.usesFns, sc.Functions
		c.store(k, ne)
		e = ne
	}
	c.mu.Lock()
	if sc.Catalog != nil && e.last != nil && e.lastCat == sc.Catalog && e.lastFns == sc.Functions {
		v := e.last.(T)
		c.same++
		c.mu.Unlock()
		return v, nil
	}
	c.mu.Unlock()
	v := wrap(e)
	c.mu.Lock()
	e.last, e.lastCat, e.lastFns = v, sc.Catalog, sc.Functions
	c.mu.Unlock()
	return v, nil
}

// sameSeq reports whether a and b are the same shared sequence (a constant
// is compiled into the tree as it is, so only the identical one fits).
func sameSeq(a, b xdm.Sequence) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0]
}
