package rulesets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/rulesets/brfr"
	"github.com/einvoice-dev/einvoice/rulesets/en16931"
	"github.com/einvoice-dev/einvoice/rulesets/facturx"
	"github.com/einvoice-dev/einvoice/rulesets/orderx"
	"github.com/einvoice-dev/einvoice/rulesets/peppol"
	"github.com/einvoice-dev/einvoice/rulesets/rocius"
	"github.com/einvoice-dev/einvoice/rulesets/xrechnung"
	"github.com/einvoice-dev/einvoice/rulesets/xslfunc"
)

// Syntaxes.
const (
	SyntaxUBL    = "ubl"
	SyntaxCII    = "cii"
	SyntaxOrderX = "orderx"
	SyntaxCDAR   = "cdar" // UN/CEFACT CDAR lifecycle messages (BR-FR)
)

// XSDRoot is the schema a document with the given root element is validated
// against (Path is relative to the shared directory).
type XSDRoot struct {
	Namespace, Local string
	Path             string
}

// Profile is one validation profile of one version: the XSD roots and the
// rule sets applied in order (findings concatenated in that order).
//
// Rulesets are the sets of the profile's default scenario. A profile with
// scenarios (XRechnung: the official validator configuration; Peppol
// 3.0.21: billing or self-billing by CustomizationID) picks the sets and
// severity overrides per document: use Validate, which applies them.
type Profile struct {
	Name    string
	Syntax  string
	Version string // the profile's release, e.g. "3.0.21" (Peppol), "3.0.2" (XRechnung)
	XSD     []XSDRoot
	// Rulesets are the default scenario's rule sets (nil when Err is set).
	Rulesets []*engine.Ruleset
	// Err is set when a rule set of the profile could not be loaded: the
	// profile then fails closed (Validate reports incomplete and invalid).
	Err error

	scenarios *scenarioSet // nil: Rulesets apply to every document, no overrides
	build     func()       // assembles the fields above (once)
	once      sync.Once
}

// Catalog maps (syntax, profile, version) to a Profile. It is immutable
// after Load and safe for concurrent use.
type Catalog struct {
	// compileHits and compileMisses: expressions whose parse the eager
	// load shared through its compile cache, and those it parsed.
	compileHits, compileMisses int

	profiles map[key]*Profile
	// newest maps (syntax, profile) to its newest version (the default).
	newest   map[key]string
	defaults map[string]string
	jobs     []*job // every distinct rule set, sorted by name, version, syntax, source
	shared   string
}

type key struct{ syntax, profile, version string }

// tableSource yields the generated tables of one rule set and syntax.
type tableSource func() (*engine.Tables, error)

// setDef is one rule set of a profile: its tables and, when set, the
// extension-function registry it needs.
type setDef struct {
	tables    tableSource
	functions func() *vm.Functions
	// sharedFunctions, when set, builds the registry from the shared
	// directory (xsl:functions compiled from the official source: BR-FR).
	sharedFunctions func(shared string) (*vm.Functions, error)
}

type profileDef struct {
	syntax, name, version string
	xsd                   []XSDRoot
	sets                  []setDef
	// needsShared marks profiles whose rule sets read documents from the
	// shared directory at load (Factur-X code lists).
	needsShared bool
	// scenarios, when set, builds the profile's document-dependent
	// scenarios from its loaded rule sets (see scenarios.go).
	scenarios func(shared string, sets []*engine.Ruleset) (*scenarioSet, error)
}

// Option configures Load.
type Option func(*loadConfig)

type loadConfig struct {
	shared string
	lazy   bool
	// defs replaces the catalog table (tests).
	defs []profileDef
}

// defaultShared is the shared directory when WithShared is not given: env
// EINVOICE_SHARED, else ../shared when it exists, else "" (profiles that
// need it are then left out or fail closed).
func defaultShared() string {
	if s := os.Getenv("EINVOICE_SHARED"); s != "" {
		return s
	}
	if st, err := os.Stat(filepath.Join("..", "shared", "rulesets")); err == nil && st.IsDir() {
		return filepath.Join("..", "shared")
	}
	return ""
}

// WithShared gives the shared directory (default: see defaultShared). Profiles whose rule sets read
// official data at load (the Factur-X code list databases, the XRechnung
// validator configuration) need it: without it the Factur-X profiles are
// left out and the XRechnung profiles fail closed.
func WithShared(dir string) Option { return func(c *loadConfig) { c.shared = dir } }

const (
	ublInvoiceXSD    = "rulesets/ubl/2.1/maindoc/UBL-Invoice-2.1.xsd"
	ublCreditNoteXSD = "rulesets/ubl/2.1/maindoc/UBL-CreditNote-2.1.xsd"
	ciiXSD           = "rulesets/en16931/1.3.16/cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd"
)

func tables(f func() (*engine.Tables, error)) setDef { return setDef{tables: f} }

// definitions is the catalog table. UBL Invoice and CreditNote share the
// UBL rule set (the Schematron covers both roots). Defaults follow
// DECISIONS.md: peppol for UBL, en16931 for CII, basic for Order-X; the
// newest version of a profile is its default.
func definitions() []profileDef {
	en := en16931.Set{}
	ublXSD := []XSDRoot{
		{"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2", "Invoice", ublInvoiceXSD},
		{"urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2", "CreditNote", ublCreditNoteXSD},
	}
	ciiRoot := []XSDRoot{{"urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100", "CrossIndustryInvoice", ciiXSD}}
	ro := rocius.Set{}
	ox := orderx.Set{}
	orderXSD := func(p string) []XSDRoot {
		return []XSDRoot{{"urn:un:unece:uncefact:data:SCRDMCCBDACIOMessageStructure:100", "SCRDMCCBDACIOMessageStructure",
			"rulesets/order-x/1.0/" + p + "/SCRDMCCBDACIOMessageStructure_100pD20B.xsd"}}
	}
	orderXSet := func(p string) []setDef {
		return []setDef{tables(func() (*engine.Tables, error) { return ox.Tables(p) })}
	}
	pp := peppol.Set{}
	peppolSet := func(k string, fns bool) setDef {
		d := tables(func() (*engine.Tables, error) { return pp.Tables(k) })
		if fns {
			d.functions = xslfunc.Peppol
		}
		return d
	}
	xr := xrechnung.Set{}
	xrSets := func(syntax string) []setDef {
		return []setDef{
			tables(func() (*engine.Tables, error) { return en.Tables(syntax) }),
			{tables: func() (*engine.Tables, error) { return xr.Tables(syntax) }, functions: xslfunc.XRechnung},
		}
	}
	defs := []profileDef{
		// Peppol BIS Billing 3.0.19: its EN 16931 copy, then the Peppol rules.
		{syntax: SyntaxUBL, name: "peppol", version: "3.0.19", xsd: ublXSD,
			sets: []setDef{peppolSet("cen_ubl", false), peppolSet("ubl", true)}},
		{syntax: SyntaxCII, name: "peppol", version: "3.0.19", xsd: ciiRoot,
			sets: []setDef{peppolSet("cen_cii", false), peppolSet("cii", true)}},
		// Peppol BIS Billing 3.0.21 (UBL only): EN 16931 1.3.16, then the
		// billing rules, or the self-billing rules for a self-billing
		// CustomizationID (scenario, see peppolScenarios).
		{syntax: SyntaxUBL, name: "peppol", version: "3.0.21", xsd: ublXSD,
			sets:      []setDef{peppolSet("cen_ubl_3_0_21", false), peppolSet("ubl_3_0_21", true), peppolSet("ubl_sb_3_0_21", true)},
			scenarios: peppolScenarios},
		// XRechnung 3.0.2: EN 16931 1.3.16, then the XRechnung rules, with
		// the scenarios and severity overrides of the official validator
		// configuration.
		{syntax: SyntaxUBL, name: "xrechnung", version: "3.0.2", xsd: ublXSD, sets: xrSets(SyntaxUBL), scenarios: xrechnungScenarios},
		{syntax: SyntaxCII, name: "xrechnung", version: "3.0.2", xsd: ciiRoot, sets: xrSets(SyntaxCII), scenarios: xrechnungScenarios},
		{syntax: SyntaxUBL, name: "en16931", version: "1.3.16", xsd: ublXSD,
			sets: []setDef{tables(func() (*engine.Tables, error) { return en.Tables(SyntaxUBL) })}},
		// RO_CIUS carries its own EN 16931 base: one set.
		{syntax: SyntaxUBL, name: "ro_cius", version: "1.0.9", xsd: ublXSD,
			sets: []setDef{tables(func() (*engine.Tables, error) { return ro.Tables(SyntaxUBL) })}},
		{syntax: SyntaxCII, name: "en16931", version: "1.3.16", xsd: ciiRoot,
			sets: []setDef{tables(func() (*engine.Tables, error) { return en.Tables(SyntaxCII) })}},
		{syntax: SyntaxOrderX, name: "basic", version: "1.0", xsd: orderXSD("basic"), sets: orderXSet("basic")},
		{syntax: SyntaxOrderX, name: "comfort", version: "1.0", xsd: orderXSD("comfort"), sets: orderXSet("comfort")},
		{syntax: SyntaxOrderX, name: "extended", version: "1.0", xsd: orderXSD("extended"), sets: orderXSet("extended")},
	}
	// BR-FR 1.4.0.03 (France CTC): UBL EN16931 profile = the package's EN
	// 16931 copy, then Flux 2; CDAR lifecycle messages. The custom:*
	// functions are compiled from the official files at load.
	bf := brfr.Set{}
	brfrSet := func(k string) setDef {
		d := tables(func() (*engine.Tables, error) { return bf.Tables(k) })
		if brfr.HasFunctions(k) {
			d.sharedFunctions = func(shared string) (*vm.Functions, error) {
				if shared == "" {
					return nil, fmt.Errorf("brfr %s: the custom:* functions are read from the shared directory: load with WithShared", k)
				}
				return brfr.Functions(shared, k)
			}
		}
		return d
	}
	// BR-FR CII is D22B (the package's uncoupled XSD).
	brfrCII := []XSDRoot{{"urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100", "CrossIndustryInvoice",
		"rulesets/br-fr/1.4.0.03/CII/1xsd-CII_D22B_uncoupled/CrossIndustryInvoice_100pD22B.xsd"}}
	defs = append(defs,
		profileDef{syntax: SyntaxUBL, name: "br_fr", version: "1.4.0.03", xsd: ublXSD,
			sets: []setDef{brfrSet("en16931_ubl"), brfrSet("flux2_ubl")}},
		profileDef{syntax: SyntaxCII, name: "br_fr", version: "1.4.0.03", xsd: brfrCII,
			sets: []setDef{brfrSet("en16931_cii"), brfrSet("flux2_cii")}},
		profileDef{syntax: SyntaxUBL, name: "br_fr_extended", version: "1.4.0.03", xsd: ublXSD,
			sets: []setDef{brfrSet("extended_ubl"), brfrSet("flux2_ubl")}},
		profileDef{syntax: SyntaxCII, name: "br_fr_extended", version: "1.4.0.03", xsd: brfrCII,
			sets: []setDef{brfrSet("extended_cii"), brfrSet("flux2_cii")}},
		profileDef{syntax: SyntaxCDAR, name: "br_fr", version: "1.4.0.03",
			xsd: []XSDRoot{{"urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100", "CrossDomainAcknowledgementAndResponse",
				"rulesets/br-fr/1.4.0.03/CDAR/1xsd-CDAR_D22B_uncoupled/CrossDomainAcknowledgementAndResponse_100pD22B.xsd"}},
			sets: []setDef{brfrSet("cdar")}},
	)
	fx := facturx.Set{}
	for _, p := range []struct{ profile, key string }{
		{"facturx_minimum", "minimum"}, {"facturx_basicwl", "basic_wl"}, {"facturx_basic", "basic"},
		{"facturx_en16931", "en16931"}, {"facturx_extended", "extended"},
	} {
		key := p.key
		defs = append(defs, profileDef{syntax: SyntaxCII, name: p.profile, version: "1.09.2", needsShared: true,
			xsd:  []XSDRoot{{"urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100", "CrossIndustryInvoice", facturx.XSD(key)}},
			sets: []setDef{tables(func() (*engine.Tables, error) { return fx.Tables(key) })}})
	}
	return defs
}

// job is one distinct rule set: its tables, how to load it, and the
// result (set once, by load).
type job struct {
	t        *engine.Tables
	opts     []engine.Option
	fns      func(shared string) (*vm.Functions, error)
	profiles []string

	once sync.Once
	rs   *engine.Ruleset
	err  error
}

func (j *job) load(shared string) {
	j.once.Do(func() {
		opts := j.opts
		if j.fns != nil {
			fns, err := j.fns(shared)
			if err != nil {
				j.err = fmt.Errorf("rule set %s %s (%s): functions: %w", j.t.Name, j.t.Version, j.t.Source, err)
				return
			}
			opts = append(slices.Clip(opts), engine.WithFunctions(fns))
		}
		j.rs, j.err = engine.Load(j.t, opts...)
		j.opts = nil // the compile cache is released with the last job loaded
		if j.err != nil {
			j.err = fmt.Errorf("rule set %s %s (%s): %w", j.t.Name, j.t.Version, j.t.Source, j.err)
		}
	})
}

// WithLazy defers compiling a profile's rule sets to its first use
// (Catalog.Profile); Info and Rulesets compile everything. Start-up then
// only resolves the generated tables (missing tables are still reported at
// once, on the profile). For one-shot processes (CLI) that use one profile.
func WithLazy() Option { return func(c *loadConfig) { c.lazy = true } }

// Load compiles every rule set of every profile (distinct sets in parallel;
// a set shared by several profiles is loaded once), or with WithLazy each
// profile's on first use. Without a shared directory, the profiles that
// need it at load (facturx_*) are left out.
//
// Load fails closed per profile: a rule set that cannot be loaded (tables
// missing, an expression that does not compile, a document it reads is
// absent) sets Err on every profile using it, which then reports every
// document incomplete and invalid, and is listed by Info with its error.
// The returned error is nil unless no profile at all could be loaded
// (eager mode).
func Load(opts ...Option) (*Catalog, error) {
	cfg := loadConfig{}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.shared == "" {
		cfg.shared = defaultShared()
	}
	defs := cfg.defs
	if defs == nil {
		defs = definitions()
	}
	c := &Catalog{profiles: map[key]*Profile{}, newest: map[key]string{},
		defaults: map[string]string{SyntaxUBL: "peppol", SyntaxCII: "en16931", SyntaxOrderX: "basic", SyntaxCDAR: "br_fr"}}
	// Pass 1: resolve every profile's tables; a rule set shared by several
	// profiles (same name, version, syntax and source) is one job.
	byID := map[string]*job{}
	cache := engine.NewCompileCache() // identical expressions of different rule sets parse once
	for _, d := range defs {
		if d.needsShared && cfg.shared == "" {
			continue
		}
		p := &Profile{Name: d.name, Syntax: d.syntax, Version: d.version, XSD: d.xsd}
		label := d.syntax + "/" + d.name + " " + d.version
		var mine []*job
		var resolveErr error
		for _, sd := range d.sets {
			t, err := sd.tables()
			if err != nil {
				resolveErr = errors.Join(resolveErr, fmt.Errorf("rulesets: profile %s: %w", label, err))
				continue
			}
			id := t.Name + " " + t.Version + " " + t.Syntax + " " + t.Source
			j, seen := byID[id]
			if !seen {
				j = &job{t: t, opts: []engine.Option{engine.WithCompileCache(cache)}}
				if cfg.shared != "" {
					j.opts = append(j.opts, engine.WithDocumentRoot(cfg.shared))
				}
				if sd.functions != nil {
					j.opts = append(j.opts, engine.WithFunctions(sd.functions()))
				}
				j.fns = sd.sharedFunctions
				byID[id] = j
				c.jobs = append(c.jobs, j)
			}
			if !slices.Contains(j.profiles, label) {
				j.profiles = append(j.profiles, label)
			}
			mine = append(mine, j)
		}
		shared, scen := cfg.shared, d.scenarios
		p.build = func() {
			p.Err = resolveErr
			var sets []*engine.Ruleset
			for _, j := range mine {
				j.load(shared)
				if j.err != nil {
					p.Err = errors.Join(p.Err, fmt.Errorf("rulesets: profile %s: %w", label, j.err))
					continue
				}
				sets = append(sets, j.rs)
			}
			if p.Err == nil && scen != nil {
				sc, err := scen(shared, sets)
				if err != nil {
					p.Err = fmt.Errorf("rulesets: profile %s: scenarios: %w", label, err)
				} else {
					p.scenarios = sc
					sets = sc.defaultSets(sets)
				}
			}
			if p.Err == nil {
				p.Rulesets = sets
			}
		}
		c.profiles[key{d.syntax, d.name, d.version}] = p
		nk := key{d.syntax, d.name, ""}
		if cur, has := c.newest[nk]; !has || compareVersions(d.version, cur) > 0 {
			c.newest[nk] = d.version
		}
	}
	c.shared = cfg.shared
	sort.Slice(c.jobs, func(i, j int) bool {
		a, b := c.jobs[i].t, c.jobs[j].t
		if a.Name+" "+a.Version != b.Name+" "+b.Version {
			return a.Name+" "+a.Version < b.Name+" "+b.Version
		}
		return a.Syntax+a.Source < b.Syntax+b.Source
	})
	if cfg.lazy {
		return c, nil
	}
	// Pass 2: compile the distinct rule sets in parallel (start-up time),
	// then assemble the profiles.
	work := make(chan *job)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(c.jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				j.load(cfg.shared)
			}
		}()
	}
	for _, j := range c.largestFirst() {
		work <- j
	}
	close(work)
	wg.Wait()
	c.compileHits, c.compileMisses = cache.Stats()
	ok := 0
	for _, p := range c.profiles {
		if p.ensure(); p.Err == nil {
			ok++
		}
	}
	if ok == 0 && len(c.profiles) > 0 {
		var all []error
		for _, p := range c.profiles {
			all = append(all, p.Err)
		}
		return nil, fmt.Errorf("rulesets: no profile could be loaded: %w", errors.Join(all...))
	}
	return c, nil
}

// ensure assembles the profile (compiling its rule sets if still needed).
func (p *Profile) ensure() {
	if p.build != nil {
		p.once.Do(p.build)
	}
}

// Profile returns a profile of a syntax; name "" means the syntax's default
// profile and version "" (or no version argument) the profile's newest
// version. ok is false for an unknown name or version, and for a profile
// whose rule sets failed to load: that profile is still returned, with Err
// set, so callers that only check ok answer an error (fail closed) and
// callers that look can say why; its Validate reports incomplete/invalid.
func (c *Catalog) Profile(syntax, name string, version ...string) (*Profile, bool) {
	p := c.lookup(syntax, name, version)
	if p == nil {
		return nil, false
	}
	p.ensure()
	return p, p.Err == nil
}

// ProfileXSD returns the XSD roots of the profile Profile would return,
// without compiling its rule sets (nil for an unknown profile): a lazy
// caller can start compiling the document's schema while the rule sets
// compile.
func (c *Catalog) ProfileXSD(syntax, name string, version ...string) []XSDRoot {
	if p := c.lookup(syntax, name, version); p != nil {
		return p.XSD
	}
	return nil
}

// lookup resolves a profile as Profile does, without assembling it.
func (c *Catalog) lookup(syntax, name string, version []string) *Profile {
	if name == "" {
		name = c.defaults[syntax]
	}
	v := ""
	if len(version) > 0 {
		v = version[0]
	}
	if v == "" {
		v = c.newest[key{syntax, name, ""}]
	}
	return c.profiles[key{syntax, name, v}]
}

// Profiles lists the profile names of a syntax, sorted.
func (c *Catalog) Profiles(syntax string) []string {
	var names []string
	for k := range c.newest {
		if k.syntax == syntax {
			names = append(names, k.profile)
		}
	}
	sort.Strings(names)
	return names
}

// Versions lists the versions of a profile, newest first ("" name: the
// syntax's default profile).
func (c *Catalog) Versions(syntax, name string) []string {
	if name == "" {
		name = c.defaults[syntax]
	}
	var vs []string
	for k := range c.profiles {
		if k.syntax == syntax && k.profile == name {
			vs = append(vs, k.version)
		}
	}
	sort.Slice(vs, func(i, j int) bool { return compareVersions(vs[i], vs[j]) > 0 })
	return vs
}

// CompileTasks returns one task per distinct rule set, largest first
// (checks and lets: what its compile costs, roughly): run on n cores in
// that order, the long compiles (Factur-X EXTENDED, ~1,700 expressions)
// start at once and the short ones fill in at the end, so no core waits
// for another's last task. A task compiles its rule set (once, as
// Profile would; errors are the profiles'); Profile then only assembles.
// Compiling profile by profile instead left a core blocked whenever two
// profiles shared a rule set that was compiling on the other.
func (c *Catalog) CompileTasks() []func() {
	var tasks []func()
	for _, j := range c.largestFirst() {
		tasks = append(tasks, func() { j.load(c.shared) })
	}
	return tasks
}

// largestFirst orders the jobs by estimated compile cost, descending
// (ties by name, for a deterministic order).
func (c *Catalog) largestFirst() []*job {
	jobs := slices.Clone(c.jobs)
	cost := func(j *job) int { return len(j.t.Checks) + len(j.t.Lets) }
	slices.SortStableFunc(jobs, func(a, b *job) int { return cost(b) - cost(a) })
	return jobs
}

// Rulesets lists every distinct loaded rule set (for /health), sorted by
// label and syntax. Rule sets that failed to load are not in it (see Info).
func (c *Catalog) Rulesets() []*engine.Ruleset {
	for _, p := range c.profiles {
		p.ensure()
	}
	seen := map[*engine.Ruleset]bool{}
	var out []*engine.Ruleset
	for _, p := range c.profiles {
		for _, rs := range p.allSets() {
			if !seen[rs] {
				seen[rs] = true
				out = append(out, rs)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Label() != out[j].Label() {
			return out[i].Label() < out[j].Label()
		}
		if out[i].Syntax != out[j].Syntax {
			return out[i].Syntax < out[j].Syntax
		}
		return out[i].Tables().Source < out[j].Tables().Source
	})
	return out
}

// allSets lists the rule sets of every scenario of the profile.
func (p *Profile) allSets() []*engine.Ruleset {
	if p.scenarios == nil {
		return p.Rulesets
	}
	var out []*engine.Ruleset
	for _, s := range p.scenarios.list {
		for _, rs := range s.Rulesets {
			if !slices.Contains(out, rs) {
				out = append(out, rs)
			}
		}
	}
	return out
}
