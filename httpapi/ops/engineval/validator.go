package engineval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xsd"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/rulesets"
)

// Validator validates UBL, CII, Order-X and FatturaPA documents with the
// catalog's profiles and schemas. It is safe for concurrent use; with Lazy,
// rule sets and schemas are compiled on first use (each exactly once).
type Validator struct {
	catalog *rulesets.Catalog
	shared  string
	fpaDef  rulesets.SchemaDef
	roots   []rulesets.XSDRoot // every schema root the catalog's profiles name
	limits  xmltree.Limits

	// sets maps the path of a schema compiled with others as one set
	// (xsd.LoadSet; see schemaSets) to that set; other paths are compiled
	// alone.
	sets map[string]*schemaSet

	mu      sync.Mutex
	schemas map[string]*schemaEntry // by schemaKey: XSDRoot.Path, a set's first path, or the FatturaPA path

	// slots bounds the validations running at once (see acquire).
	slots chan struct{}

	schemaPerDocument bool // see SchemaPerDocument

	// docs keeps the parse trees' node arrays from validation to validation.
	docs xmltree.Recycler

	// earlyXSD is the largest body whose XSD stage starts before the parse
	// (earlyXSDMax; tests set -1 to compare with the later start).
	earlyXSD int
	// lateXSD counts the validations whose early XSD run chose no schema
	// or another one than the parse's, so that the stage ran again after
	// the parse: never, for a document the parse accepts (TestEarlyXSD).
	lateXSD atomic.Int64

	// xsd runs the XSD stages beside the rule sets (see lane).
	xsd *lane
}

// acquire waits for a validation slot. Validation is CPU-bound (parse,
// libxml2, the rule engine), so running more documents at once than there
// are cores adds no throughput, only memory: every running validation
// holds its parse tree, libxml2's copy and a pooled engine state per rule
// set (per-document memos). With 32 connections on 2 cores that was
// ~290 MB RSS. Waiting ends with ctx (the request's deadline: 503).
func (v *Validator) acquire(ctx context.Context) (release func(), err error) {
	select {
	case v.slots <- struct{}{}:
		return func() { <-v.slots }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for a validation slot: %w", ctx.Err())
	}
}

// validationSlots is the number of validations run at once: one per core
// the Go scheduler uses, and at least 2 (so a large document does not
// hold back every small one on a single-core machine).
func validationSlots() int { return max(2, runtime.GOMAXPROCS(0)) }

// schemaSet is schemas compiled as one (xsd.LoadSet).
type schemaSet struct {
	key     string // the first path: the set's schemaEntry
	imports []xsd.Import
}

// schemaSets groups the schema roots: the files of one directory with
// distinct target namespaces (UBL's Invoice and CreditNote, which share all
// their common components) compile as one set, which costs about 60 % of
// compiling them one by one (engine/xsd BenchmarkLoadUBLSet) and gives every
// document the findings of its own root's schema (TestLoadSetSameFindingsAsEachSchema).
// A file named with two namespaces, or a directory with two files of one
// namespace (the Factur-X and Order-X profiles), stays alone.
func schemaSets(roots []rulesets.XSDRoot) map[string]*schemaSet {
	nsOf := map[string]string{}
	alone := map[string]bool{}
	for _, r := range roots {
		if ns, seen := nsOf[r.Path]; seen && ns != r.Namespace {
			alone[r.Path] = true
		}
		nsOf[r.Path] = r.Namespace
	}
	byDir := map[string][]string{}
	for _, r := range roots {
		if dir := path.Dir(r.Path); !alone[r.Path] && !slices.Contains(byDir[dir], r.Path) {
			byDir[dir] = append(byDir[dir], r.Path)
		}
	}
	sets := map[string]*schemaSet{}
	for _, paths := range byDir {
		slices.Sort(paths)
		namespaces := map[string]bool{}
		for _, p := range paths {
			namespaces[nsOf[p]] = true
		}
		if len(paths) < 2 || len(namespaces) != len(paths) || namespaces[""] {
			continue
		}
		set := &schemaSet{key: paths[0]}
		for _, p := range paths {
			set.imports = append(set.imports, xsd.Import{Namespace: nsOf[p], Path: p})
			sets[p] = set
		}
	}
	return sets
}

// schemaKey is the schemaEntry that compiles the schema at rel.
func (v *Validator) schemaKey(rel string) string {
	if set := v.sets[rel]; set != nil {
		return set.key
	}
	return rel
}

// setSize is the number of schemas compiled with the one at rel (1 alone).
func (v *Validator) setSize(rel string) int {
	if set := v.sets[rel]; set != nil {
		return len(set.imports)
	}
	return 1
}

// schemaEntry is one compiled schema, loaded at most once.
type schemaEntry struct {
	once sync.Once
	s    *xsd.Schema
	err  error
}

var _ ops.Validator = (*Validator)(nil)

// Option configures New.
type Option func(*config)

type config struct {
	lazy, shareSchemas, schemaPerDocument bool
	spin                                  time.Duration
}

// Lazy defers compiling rule sets and schemas to their first use: a
// one-document CLI run then compiles only the profile and schema that
// document needs. Without it New compiles everything before returning.
func Lazy() Option { return func(c *config) { c.lazy = true } }

// SchemaPerDocument compiles, for each UBL, CII or Order-X document, its
// schema pruned for that document alone (xsd.Options.Instance: the
// declarations of elements it does not contain are dropped), instead of
// the whole schema once: about 3 times cheaper for UBL (11-13 against
// 36-38 ms), so it is for a process that validates one document (the CLI
// with one file), where the schema compile is the longest task of the run.
// Findings are the whole schema's (engine/xsd TestPrunedSameFindingsAsFull).
func SchemaPerDocument() Option { return func(c *config) { c.schemaPerDocument = true } }

// ShareSchemas compiles the schema files that share their components as
// one libxml2 schema (see schemaSets): cheaper when every schema gets
// compiled (a server that calls Warm), a little dearer for a one-shot
// process that needs only one of them. New without Lazy implies it.
func ShareSchemas() Option { return func(c *config) { c.shareSchemas = true } }

// XSDSpin sets how long a worker that has run an XSD stage keeps polling
// for the next one before it sleeps (see lane; DefaultXSDSpin without
// this option, 0: never). Negative durations count as 0.
func XSDSpin(d time.Duration) Option { return func(c *config) { c.spin = d } }

// New loads the rule-set catalog (with the shared directory, so that the
// profiles reading official data at load are available) and, unless Lazy is
// given, compiles every rule set and every XSD the UBL, CII and Order-X
// profiles name, plus the FatturaPA schema (see Warm). It fails when the
// catalog, or (eagerly) any schema, cannot be loaded.
func New(sharedDir string, opts ...Option) (_ *Validator, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("engineval.New(%s): %w", sharedDir, err)
		}
	}()
	cfg := config{spin: DefaultXSDSpin}
	for _, o := range opts {
		o(&cfg)
	}
	ropts := []rulesets.Option{rulesets.WithShared(sharedDir)}
	if cfg.lazy {
		ropts = append(ropts, rulesets.WithLazy())
	}
	cat, err := rulesets.Load(ropts...)
	if err != nil {
		return nil, err
	}
	v := &Validator{catalog: cat, shared: sharedDir, schemas: map[string]*schemaEntry{}, roots: cat.XSDRoots(), limits: xmltree.DefaultLimits(),
		slots: make(chan struct{}, validationSlots()), schemaPerDocument: cfg.schemaPerDocument, earlyXSD: earlyXSDMax, xsd: newLane(cfg.spin)}
	for _, d := range rulesets.Schemas() {
		if d.Name == ops.SyntaxFatturaPA {
			v.fpaDef = d
		}
	}
	if v.fpaDef.Path == "" {
		return nil, errors.New("the catalog has no FatturaPA schema")
	}
	if cfg.shareSchemas || !cfg.lazy {
		v.sets = schemaSets(v.roots)
	}
	if cfg.lazy {
		// Fail early and clearly when the official data is not there, instead
		// of on the first document: every schema file must exist.
		for _, r := range v.roots {
			if _, err := os.Stat(v.abs(r.Path)); err != nil {
				return nil, fmt.Errorf("schema %s: %w", r.Path, err)
			}
		}
		if _, err := os.Stat(v.abs(v.fpaDef.Path)); err != nil {
			return nil, fmt.Errorf("schema %s: %w", v.fpaDef.Path, err)
		}
	} else {
		if err := v.Warm(context.Background()); err != nil {
			v.Close()
			return nil, err
		}
		ReleaseWarmGarbage()
	}
	return v, nil
}

// Warm compiles every profile's rule sets and every schema now, so that no
// request pays for it. The server calls it in the background after it starts
// listening. Rule sets that fail to load are not an error here: their
// profiles answer errors (fail closed) and /v1/rulesets lists why. A schema
// that fails to compile is.
func (v *Validator) Warm(ctx context.Context) error {
	// Tasks run on every core, in this order: the largest rule set, the
	// schemas (libxml2; the UBL set, the largest, first), the other rule
	// sets largest first (rulesets.Catalog.CompileTasks), then the profiles
	// (assembly only, their sets compiled by then) and the FatturaPA
	// schema. A rule set shared by several profiles is compiled once (the
	// catalog's sync.Once), and so is a schema (schemaEntry.once); compiling
	// whole profiles instead had a core wait whenever two of them shared a
	// rule set compiling on the other. Sequentially the warm-up took the
	// sum, 0.47-0.64 s on 2 idle cores.
	var tasks []func() error
	sets := v.catalog.CompileTasks()
	first := min(1, len(sets))
	for _, t := range sets[:first] {
		tasks = append(tasks, func() error { t(); return nil })
	}
	seen := map[string]bool{}
	var schemas []string
	for _, r := range v.roots {
		if key := v.schemaKey(r.Path); !seen[key] {
			seen[key] = true
			schemas = append(schemas, r.Path)
		}
	}
	slices.SortStableFunc(schemas, func(a, b string) int { return v.setSize(b) - v.setSize(a) })
	for _, path := range schemas {
		tasks = append(tasks, func() error { _, err := v.schema(path); return err })
	}
	for _, t := range sets[first:] {
		tasks = append(tasks, func() error { t(); return nil })
	}
	for _, syntax := range []string{rulesets.SyntaxUBL, rulesets.SyntaxCII, rulesets.SyntaxOrderX, rulesets.SyntaxCDAR} {
		for _, name := range v.catalog.Profiles(syntax) {
			for _, version := range v.catalog.Versions(syntax, name) {
				syntax, name, version := syntax, name, version
				tasks = append(tasks, func() error {
					p, _ := v.catalog.Profile(syntax, name, version) // compiles a lazy profile
					if p == nil {
						return nil
					}
					for _, root := range p.XSD {
						if _, err := v.schema(root.Path); err != nil {
							return err
						}
					}
					return nil
				})
			}
		}
	}
	tasks = append(tasks, func() error { _, err := v.fatturaPA(); return err })
	defer warmGC()()
	return runTasks(ctx, runtime.GOMAXPROCS(0), tasks)
}

// ReleaseWarmGarbage hands the warm-up's garbage back to the OS. Compiling
// every rule set allocates about twice what stays live (parse trees,
// fingerprints, the generated table literals); without this the idle RSS
// keeps it until the scavenger gets to it. It is a full collection (~80 ms
// of CPU), so a server calls it after it has reported the rule sets ready,
// not before.
func ReleaseWarmGarbage() { debug.FreeOSMemory() }

// warmGC switches the collector off for the warm-up and returns what
// restores the process's own setting. The compile's garbage is short-lived
// and the live heap grows from nothing to ~75 MB: at the default GOGC the
// collector ran again and again over the growing heap (~30 % of the
// warm-up's CPU); at 800 (sessions 5-8) it still ran once, mid-way, marking
// ~20-30 MB of pointer-dense trees. Off, a server start to the "compiled"
// line takes 1,545 M -> 1,428 M instructions (-7.6 %; callgrind, one core),
// for a peak RSS of 180 MB instead of 170 and the same idle RSS (~150 MB
// once ReleaseWarmGarbage has run); docs/PERFORMANCE.md. A memory limit
// (GOMEMLIMIT) is still honoured: the collector runs near it whatever GOGC.
func warmGC() (restore func()) {
	old := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(old) }
}

// runTasks runs tasks on n goroutines and returns the first error (in task
// order); it stops starting tasks when ctx ends or a task fails.
func runTasks(ctx context.Context, n int, tasks []func() error) error {
	errs := make([]error, len(tasks))
	next := make(chan int)
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range max(1, min(n, len(tasks))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if errs[i] = tasks[i](); errs[i] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	for i := range tasks {
		if ctx.Err() != nil || failed.Load() {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// schema returns the compiled schema at path (relative to the shared
// directory), compiling it on first use.
func (v *Validator) schema(rel string, opts ...xsd.Options) (*xsd.Schema, error) {
	key := v.schemaKey(rel)
	v.mu.Lock()
	e := v.schemas[key]
	if e == nil {
		e = &schemaEntry{}
		v.schemas[key] = e
	}
	v.mu.Unlock()
	e.once.Do(func() {
		var o xsd.Options
		if len(opts) > 0 {
			o = opts[0]
		}
		if set := v.sets[rel]; set != nil {
			imports := slices.Clone(set.imports)
			for i := range imports {
				imports[i].Path = v.abs(imports[i].Path)
			}
			e.s, e.err = xsd.LoadSet(imports, o)
		} else {
			e.s, e.err = xsd.Load(v.abs(rel), o)
		}
		if e.err != nil {
			e.err = fmt.Errorf("schema %s: %w", rel, e.err)
		}
	})
	return e.s, e.err
}

// prefetchSchema starts compiling, in the background, the one schema whose
// root element is {ns}local, when exactly one known schema has it and it is
// not compiled yet: a lazy validator (a one-shot CLI run) then compiles the
// schema on one core while the profile's rule sets compile on the other.
// The schema's once makes the later lookup wait for this result.
func (v *Validator) prefetchSchema(ns, local string) {
	path := v.rootSchema(ns, local)
	if path == "" {
		return
	}
	v.mu.Lock()
	_, started := v.schemas[v.schemaKey(path)]
	v.mu.Unlock()
	if !started {
		go func() { _, _ = v.schema(path) }()
	}
}

// rootSchema is the one schema whose root element is {ns}local, or "" when
// none or several are.
func (v *Validator) rootSchema(ns, local string) string {
	path := ""
	for _, r := range v.roots {
		if r.Namespace == ns && r.Local == local {
			if path != "" && path != r.Path {
				return "" // several candidates: let the profile decide
			}
			path = r.Path
		}
	}
	return path
}

// rootSchemaOf is the schema of a profile's XSD roots for the root element
// {ns}local (the last one that names it), or "".
func rootSchemaOf(roots []rulesets.XSDRoot, ns, local string) string {
	path := ""
	for _, r := range roots {
		if r.Namespace == ns && r.Local == local {
			path = r.Path
		}
	}
	return path
}

// docSchema is a schema being compiled for one document (SchemaPerDocument).
type docSchema struct {
	path string
	done chan struct{}
	s    *xsd.Schema
	err  error
}

// startDocSchema starts compiling, in the background, the schema of the
// profile of req for doc's root element {ns}local, pruned for doc
// (SchemaPerDocument); nil when the profile names no schema for that root,
// or that schema compiles as part of a set. The caller must call close.
func (v *Validator) startDocSchema(req ops.ValidateRequest, ns, local string, doc *xmltree.Document) *docSchema {
	path := rootSchemaOf(v.catalog.ProfileXSD(req.Syntax, req.Profile, req.Version), ns, local)
	if path == "" || v.sets[path] != nil {
		return nil
	}
	ds := &docSchema{path: path, done: make(chan struct{})}
	inst := instanceOf(doc)
	go func() {
		defer close(ds.done)
		ds.s, ds.err = xsd.Load(v.abs(path), xsd.Options{Instance: inst})
		if ds.err != nil {
			ds.err = fmt.Errorf("schema %s: %w", path, ds.err)
		}
	}()
	return ds
}

func (ds *docSchema) wait() (*xsd.Schema, error) {
	<-ds.done
	return ds.s, ds.err
}

func (ds *docSchema) close() {
	if s, _ := ds.wait(); s != nil {
		s.Close()
	}
}

// instanceOf lists what xsd.Options.Instance needs of doc: the local names
// of its elements and whether it has an xsi:type attribute.
func instanceOf(doc *xmltree.Document) *xsd.Instance {
	inst := &xsd.Instance{Elements: map[string]bool{}}
	for n := range doc.Len() {
		id := xmltree.NodeID(n)
		switch doc.Kind(id) {
		case xmltree.KindElement:
			inst.Elements[doc.NameLocal(doc.Name(id))] = true
		case xmltree.KindAttribute:
			name := doc.Name(id)
			inst.XsiType = inst.XsiType || (doc.NameLocal(name) == "type" && doc.NameSpace(name) == xsiNamespace)
		}
	}
	return inst
}

const xsiNamespace = "http://www.w3.org/2001/XMLSchema-instance"

func (v *Validator) fatturaPA() (*xsd.Schema, error) {
	return v.schema(v.fpaDef.Path, xsd.Options{CatalogFiles: []string{v.abs(v.fpaDef.Catalog)}, Root: v.abs(v.fpaDef.Dir)})
}

func (v *Validator) abs(rel string) string { return filepath.Join(v.shared, filepath.FromSlash(rel)) }

// Close releases the compiled schemas.
func (v *Validator) Close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, e := range v.schemas {
		e.once.Do(func() {}) // a schema never loaded stays unloaded
		if e.s != nil {
			e.s.Close()
		}
	}
}

// Rulesets lists every loaded rule set and the FatturaPA schema.
func (v *Validator) Rulesets() []wire.RulesetRef {
	var out []wire.RulesetRef
	for _, rs := range v.catalog.Rulesets() {
		out = append(out, wire.RulesetRef{Name: rs.Name + " " + strings.ToUpper(rs.Syntax), Version: rs.Version})
	}
	return append(out, wire.RulesetRef{Name: "FatturaPA XSD", Version: v.fpaDef.Version})
}

// RulesetInfo describes every rule set the catalog tried to load.
func (v *Validator) RulesetInfo() []wire.RulesetInfo {
	info := v.catalog.Info()
	out := make([]wire.RulesetInfo, len(info))
	for i, r := range info {
		profiles := r.Profiles
		if profiles == nil {
			profiles = []string{}
		}
		out[i] = wire.RulesetInfo{Name: r.Name, Version: r.Version, Syntax: r.Syntax, Source: r.Source, SHA256: r.SHA256,
			Phase: r.Phase, Patterns: r.Patterns, Rules: r.Rules, Asserts: r.Asserts, Reports: r.Reports,
			Profiles: profiles, Error: r.Error}
	}
	return out
}

var _ ops.RulesetLister = (*Validator)(nil)

// profile resolves syntax/name/version, answering 422s that name what is
// available.
func (v *Validator) profile(req ops.ValidateRequest) (*rulesets.Profile, error) {
	p, ok := v.catalog.Profile(req.Syntax, req.Profile, req.Version)
	switch {
	case ok:
		return p, nil
	case p != nil && p.Err != nil:
		// Shipped but failed to load on this instance: a server fault.
		return nil, fmt.Errorf("profile %s/%s %s failed to load: %w", req.Syntax, p.Name, p.Version, p.Err)
	}
	avail := v.catalog.Profiles(req.Syntax)
	if req.Profile != "" && !slices.Contains(avail, req.Profile) {
		return nil, &ops.RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"query", "profile"}, Type: wire.TypeNotLanded, Input: req.Profile,
			Msg: fmt.Sprintf("Profile '%s' is not available yet for %s; available now: %s", req.Profile, req.Syntax, strings.Join(avail, ", ")),
			Ctx: map[string]any{"available": avail},
		}}}
	}
	versions := v.catalog.Versions(req.Syntax, req.Profile)
	return nil, &ops.RequestError{Fields: []wire.ValidationError{{
		Loc: []any{"query", "version"}, Type: wire.TypeEnum, Input: req.Version,
		Msg: "Version not loaded for this profile; available: " + strings.Join(versions, ", "),
		Ctx: map[string]any{"expected": versions},
	}}}
}

// Validate implements ops.Validator.
func (v *Validator) Validate(ctx context.Context, req ops.ValidateRequest) (*wire.Report, error) {
	start := time.Now()
	release, err := v.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if req.Syntax == ops.SyntaxFatturaPA {
		return v.validateFatturaPA(ctx, req.Body, start)
	}
	if req.Syntax == ops.SyntaxOrderX && req.Profile == "" {
		req.Profile = orderXProfile(req.Body)
	}
	var early *xsdRun
	if !v.schemaPerDocument && len(req.Body) <= v.earlyXSD {
		early = v.startXSD(ctx, req, "", nil)
		defer early.wait() // on every return: the slot covers the run
	}
	parse := v.docs.Parse
	if req.Owned {
		parse = v.docs.ParseOwned
	}
	doc, err := parse(req.Body, v.limits)
	if err != nil {
		return nil, xmlError(err)
	}
	// The report holds strings only: the tree's array goes to the next
	// parse once everything that reads it (the per-document schema's
	// pruning, deferred below, and the rule sets) has returned.
	defer v.docs.Release(doc)
	root := doc.Root()
	ns, local := doc.NameSpace(doc.Name(root)), doc.NameLocal(doc.Name(root))
	var ds *docSchema
	if v.schemaPerDocument {
		if ds = v.startDocSchema(req, ns, local, doc); ds != nil {
			defer ds.close()
		}
	} else {
		v.prefetchSchema(ns, local)
	}
	p, err := v.profile(req)
	if err != nil {
		return nil, err
	}
	schemaPath := rootSchemaOf(p.XSD, ns, local)
	if schemaPath == "" {
		var want []string
		for _, r := range p.XSD {
			want = append(want, "{"+r.Namespace+"}"+r.Local)
		}
		return nil, &ops.RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"body"}, Type: wire.TypeValueError, Input: "{" + ns + "}" + local,
			Msg: fmt.Sprintf("Value error, root element {%s}%s is not a %s document; expected %s", ns, local, strings.ToUpper(req.Syntax), strings.Join(want, " or ")),
			Ctx: map[string]any{"expected": want, "line": doc.Line(root)},
		}}}
	}
	var schema *xsd.Schema
	if ds != nil && ds.path == schemaPath {
		schema, err = ds.wait()
	} else {
		schema, err = v.schema(schemaPath)
	}
	if err != nil {
		return nil, err
	}
	rep := &wire.Report{Profile: p.Name, Syntax: req.Syntax, Complete: true,
		Rulesets: []wire.RulesetRef{{Name: "XSD", Version: schemaPath}}}
	// The XSD stage (libxml2, on the bytes) and the rule sets (on the
	// parse) share nothing: they run side by side, so a request waits for
	// the longer of the two instead of their sum. Validate returns only
	// after both have ended (the per-document schema is freed on return).
	xr := early
	if xr == nil {
		xr = v.startXSD(ctx, req, schemaPath, schema)
	}
	res, err := p.Validate(ctx, doc)
	xr.wait()
	if xr.path != schemaPath {
		// The early run chose no schema or another one: impossible for a
		// document the parse accepts (RootName is the parse's own reading
		// of the root), but never a reason to skip the stage.
		if early != nil {
			v.lateXSD.Add(1)
		}
		xr = &xsdRun{path: schemaPath}
		xr.findings, xr.err = xsdFindings(ctx, schema, req.Body)
	}
	if xr.err != nil {
		return nil, xr.err
	}
	rep.Findings = xr.findings
	if err != nil {
		return nil, err // only ctx ends
	}
	if err := resultError(res); err != nil {
		return nil, err
	}
	for _, rs := range res.Rulesets {
		rep.Rulesets = append(rep.Rulesets, wire.RulesetRef{Name: rs.Name, Version: rs.Version})
	}
	for _, f := range res.Findings {
		rep.Findings = append(rep.Findings, finding(f))
	}
	rep.DurationMS = time.Since(start).Milliseconds()
	rep.Recount()
	// res.Valid is the Schematron stage's verdict; the report adds the XSD
	// stage. If the two verdict rules ever disagree, answer no verdict.
	xsdFatal := false
	for _, f := range rep.Findings {
		xsdFatal = xsdFatal || (f.Source == "xsd" && f.Flag == wire.FlagFatal)
	}
	if rep.Valid != (res.Valid && !xsdFatal) {
		return nil, fmt.Errorf("verdict mismatch for profile %s: report valid=%v, rulesets valid=%v, xsd fatal=%v", p.Name, rep.Valid, res.Valid, xsdFatal)
	}
	return rep, nil
}

// earlyXSDMax is the largest document whose XSD stage starts before the
// parse. On a small document the stage's start on the second core (the
// wake-up of an idle core and its thread: ~90 µs on the two-core VMs we
// measure on, docs/PERFORMANCE.md) costs as much as the parse, so it
// starts first and the wake-up passes during the parse. An invoice with
// attachments (XRechnung's comprehensive test case: 420 KB, most of it
// base64, 1.9 ms in libxml2 against 0.44 ms for our parse) gains more: its
// XSD stage, the longest part, no longer waits for the parse. Past 2 MiB
// the stage starts after the parse as before, so that a document the parse
// rejects (a limit exceeded, say) does not first wait for libxml2 to read
// megabytes of it; at 2 MiB that wait is ~10 ms at most.
const earlyXSDMax = 2 << 20

// xsdRun is one XSD stage running beside the rule sets.
type xsdRun struct {
	done     chan struct{}
	path     string // the schema validated against; "" if none was
	findings []wire.Finding
	err      error
}

// startXSD starts the XSD stage of req on another goroutine (v.xsd): against
// schema (at schemaPath) when given, else against the schema that
// req.Profile has for the root element of req.Body, read with
// xmltree.RootName before the parse. A run that finds no schema that way
// (the document is not one of the profile's, or not well-formed there)
// ends with an empty path; Validate then reports the parse's error or
// validates itself.
func (v *Validator) startXSD(ctx context.Context, req ops.ValidateRequest, schemaPath string, schema *xsd.Schema) *xsdRun {
	r := &xsdRun{done: make(chan struct{})}
	v.xsd.run(func() {
		defer close(r.done)
		if schema == nil {
			p, err := v.profile(req)
			if err != nil {
				return
			}
			ns, local, err := xmltree.RootName(req.Body, v.limits)
			if err != nil {
				return
			}
			if schemaPath = rootSchemaOf(p.XSD, ns, local); schemaPath == "" {
				return
			}
			if schema, err = v.schema(schemaPath); err != nil {
				return // Validate's own lookup reports it
			}
		}
		r.findings, r.err = xsdFindings(ctx, schema, req.Body)
		r.path = schemaPath
	})
	return r
}

// wait returns when the run has ended.
func (r *xsdRun) wait() { <-r.done }

// resultError turns an incomplete Schematron stage into an error response:
// a dynamic evaluation error is a 422 evaluation_error per failed rule set; a
// document that matches no scenario of the profile's validator
// configuration is a 422 no_scenario. An engine error is never a verdict.
func resultError(res *rulesets.Result) error {
	var fields []wire.ValidationError
	for _, e := range res.Errors {
		var ee *engine.EvalError
		switch {
		case errors.Is(e, rulesets.ErrNoScenario):
			fields = append(fields, wire.ValidationError{Loc: []any{"body"}, Type: "no_scenario",
				Msg: "no scenario of the " + res.Profile + " validator configuration matches the document (check its CustomizationID)"})
		case errors.As(e, &ee) && ee.Code() == xdm.ErrDecimalTooLarge:
			// Hostile input, not a rule-set failure: a number longer than
			// the engine evaluates (xdm.MaxDecimalDigits).
			fields = append(fields, wire.ValidationError{Loc: []any{"body"}, Type: wire.TypeLimitExceeded,
				Msg: fmt.Sprintf("document has a number of more than %d digits at %s", xdm.MaxDecimalDigits, ee.Location),
				Ctx: map[string]any{"line": ee.Line, "limit": "MaxDecimalDigits", "max": xdm.MaxDecimalDigits, "location": ee.Location, "ruleset": ee.Ruleset, "rule_id": ee.RuleID}})
		case errors.As(e, &ee):
			fields = append(fields, wire.ValidationError{Loc: []any{"body"}, Type: "evaluation_error",
				Msg: fmt.Sprintf("rule set %s could not be applied to the document: %v", ee.Ruleset, ee.Err),
				Ctx: map[string]any{"ruleset": ee.Ruleset, "rule_id": ee.RuleID, "location": ee.Location, "code": ee.Code()}})
		default:
			return fmt.Errorf("profile %s: %w", res.Profile, e)
		}
	}
	if len(fields) > 0 {
		return &ops.RequestError{Fields: fields}
	}
	if !res.Complete {
		return fmt.Errorf("profile %s: incomplete result without an error", res.Profile)
	}
	return nil
}

// validateFatturaPA is XSD-only: no official business-rule set exists.
func (v *Validator) validateFatturaPA(ctx context.Context, body []byte, start time.Time) (*wire.Report, error) {
	if _, err := xmltree.Parse(body, v.limits); err != nil {
		return nil, xmlError(err)
	}
	schema, err := v.fatturaPA()
	if err != nil {
		return nil, err
	}
	fs, err := xsdFindings(ctx, schema, body)
	if err != nil {
		return nil, err
	}
	rep := &wire.Report{Profile: "fatturapa", Syntax: ops.SyntaxFatturaPA, Complete: true, Findings: fs,
		Rulesets: []wire.RulesetRef{{Name: "FatturaPA XSD", Version: v.fpaDef.Version}}}
	rep.DurationMS = time.Since(start).Milliseconds()
	rep.Recount()
	return rep, nil
}

// xsdFindings validates body against schema; errors are findings with
// rule_id XSD, in libxml2's (document) order.
func xsdFindings(ctx context.Context, schema *xsd.Schema, body []byte) ([]wire.Finding, error) {
	xerrs, err := schema.Validate(ctx, body)
	switch {
	case errors.Is(err, xsd.ErrTooLarge):
		return nil, &ops.RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeLimitExceeded, Msg: "document too large for schema validation"}}}
	case errors.Is(err, xsd.ErrDoctype):
		return nil, &ops.RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeXMLSyntax, Msg: "DOCTYPE declarations are not allowed"}}}
	case err != nil:
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, fmt.Errorf("xsd %s: %w", schema.Path(), err)
	}
	out := []wire.Finding{}
	for _, e := range xerrs {
		flag := wire.FlagFatal
		if e.Level == xsd.LevelWarning {
			flag = wire.FlagWarning
		}
		out = append(out, wire.Finding{RuleID: "XSD", Flag: flag, Message: e.Message,
			Source: "xsd", Line: e.Line, Terms: []string{}})
	}
	return out, nil
}

// orderXProfile reads the Order-X profile from the guideline URN
// (urn:order-x.eu:1p0:basic|comfort|extended); "" (the catalog default)
// when there is none.
func orderXProfile(body []byte) string {
	const urn = "urn:order-x.eu:1p0:"
	i := bytes.Index(body, []byte(urn))
	if i < 0 {
		return ""
	}
	rest := body[i+len(urn):]
	for _, p := range []string{"basic", "comfort", "extended"} {
		if bytes.HasPrefix(rest, []byte(p)) {
			return p
		}
	}
	return ""
}

// finding converts a profile finding. Flags are normalised to fatal,
// warning and information: "error" is fatal, "info" information; an assert
// without a flag is fatal (fail closed), a report without one information.
func finding(f rulesets.Finding) wire.Finding {
	terms := f.Terms
	if terms == nil {
		terms = []string{}
	}
	out := wire.Finding{RuleID: f.RuleID, Flag: normFlag(f.Flag, f.Kind), Message: f.Message, Location: f.Location,
		Test: f.Test, Source: f.Source, Line: f.Line, Terms: terms}
	if f.DeclaredFlag != "" {
		out.DeclaredFlag = normFlag(f.DeclaredFlag, f.Kind)
	}
	return out
}

func normFlag(flag, kind string) string {
	switch flag {
	case wire.FlagFatal, "error":
		return wire.FlagFatal
	case wire.FlagWarning:
		return wire.FlagWarning
	case wire.FlagInformation, "info":
		return wire.FlagInformation
	}
	if kind == "report" {
		return wire.FlagInformation
	}
	return wire.FlagFatal
}

// xmlError turns a parse failure into a 422 with the line in ctx.
func xmlError(err error) error {
	var se *xmltree.SyntaxError
	if errors.As(err, &se) {
		return &ops.RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"body"}, Type: wire.TypeXMLSyntax, Msg: se.Msg,
			Ctx: map[string]any{"line": se.Line, "column": se.Col},
		}}}
	}
	var le *xmltree.LimitError
	if errors.As(err, &le) {
		return &ops.RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"body"}, Type: wire.TypeLimitExceeded, Msg: fmt.Sprintf("document exceeds %s (%d)", le.Limit, le.Max),
			Ctx: map[string]any{"line": le.Line, "limit": le.Limit, "max": le.Max},
		}}}
	}
	return fmt.Errorf("parse: %w", err)
}
