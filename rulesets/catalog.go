package rulesets

import (
	"fmt"
	"sort"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/vm"
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
)

// XSDRoot is the schema a document with the given root element is validated
// against (Path is relative to the shared directory).
type XSDRoot struct {
	Namespace, Local string
	Path             string
}

// Profile is one validation profile: the XSD roots and the rule sets applied
// in order (findings concatenated in that order).
type Profile struct {
	Name     string
	Syntax   string
	XSD      []XSDRoot
	Rulesets []*engine.Ruleset
}

// Catalog maps (syntax, profile) to a Profile.
type Catalog struct {
	profiles map[key]*Profile
	defaults map[string]string
}

type key struct{ syntax, profile string }

// tableSource yields the generated tables of one rule set and syntax.
type tableSource func() (*engine.Tables, error)

type profileDef struct {
	syntax, name string
	xsd          []XSDRoot
	sets         []tableSource
	// functions[i], when set, is the extension-function registry of sets[i].
	functions map[int]func() *vm.Functions
	// needsShared marks profiles whose rule sets read documents from the
	// shared directory at load (Factur-X code lists).
	needsShared bool
}

// Option configures Load.
type Option func(*loadConfig)

type loadConfig struct{ shared string }

// WithShared gives the shared directory. Profiles whose rule sets read
// official data at load (the Factur-X code list databases) are loaded only
// when it is given.
func WithShared(dir string) Option { return func(c *loadConfig) { c.shared = dir } }

const (
	ublInvoiceXSD    = "rulesets/ubl/2.1/maindoc/UBL-Invoice-2.1.xsd"
	ublCreditNoteXSD = "rulesets/ubl/2.1/maindoc/UBL-CreditNote-2.1.xsd"
	ciiXSD           = "rulesets/en16931/1.3.16/cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd"
)

// definitions is the catalog table. UBL Invoice and CreditNote share the
// UBL rule set (the Schematron covers both roots). Defaults follow
// DECISIONS.md: peppol for UBL, en16931 for CII, basic for Order-X.
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
	orderXSet := func(p string) []tableSource {
		return []tableSource{func() (*engine.Tables, error) { return ox.Tables(p) }}
	}
	pp := peppol.Set{}
	peppolSets := func(cen, rules string) []tableSource {
		return []tableSource{
			func() (*engine.Tables, error) { return pp.Tables(cen) },
			func() (*engine.Tables, error) { return pp.Tables(rules) },
		}
	}
	peppolFns := map[int]func() *vm.Functions{1: xslfunc.Peppol}
	xr := xrechnung.Set{}
	xrSets := func(syntax string) []tableSource {
		return []tableSource{
			func() (*engine.Tables, error) { return en.Tables(syntax) },
			func() (*engine.Tables, error) { return xr.Tables(syntax) },
		}
	}
	xrFns := map[int]func() *vm.Functions{1: xslfunc.XRechnung}
	defs := []profileDef{
		// Peppol BIS Billing 3.0.19: its EN 16931 copy, then the Peppol rules.
		{SyntaxUBL, "peppol", ublXSD, peppolSets("cen_ubl", "ubl"), peppolFns, false},
		{SyntaxCII, "peppol", ciiRoot, peppolSets("cen_cii", "cii"), peppolFns, false},
		// XRechnung 3.0.2: EN 16931 1.3.16, then the XRechnung rules.
		{SyntaxUBL, "xrechnung", ublXSD, xrSets(SyntaxUBL), xrFns, false},
		{SyntaxCII, "xrechnung", ciiRoot, xrSets(SyntaxCII), xrFns, false},
		{SyntaxUBL, "en16931", ublXSD, []tableSource{func() (*engine.Tables, error) { return en.Tables(SyntaxUBL) }}, nil, false},
		// RO_CIUS carries its own EN 16931 base: one set.
		{SyntaxUBL, "ro_cius", ublXSD, []tableSource{func() (*engine.Tables, error) { return ro.Tables(SyntaxUBL) }}, nil, false},
		{SyntaxCII, "en16931", ciiRoot, []tableSource{func() (*engine.Tables, error) { return en.Tables(SyntaxCII) }}, nil, false},
		{SyntaxOrderX, "basic", orderXSD("basic"), orderXSet("basic"), nil, false},
		{SyntaxOrderX, "comfort", orderXSD("comfort"), orderXSet("comfort"), nil, false},
		{SyntaxOrderX, "extended", orderXSD("extended"), orderXSet("extended"), nil, false},
	}
	fx := facturx.Set{}
	for _, p := range []struct{ profile, key string }{
		{"facturx_minimum", "minimum"}, {"facturx_basicwl", "basic_wl"}, {"facturx_basic", "basic"},
		{"facturx_en16931", "en16931"}, {"facturx_extended", "extended"},
	} {
		key := p.key
		defs = append(defs, profileDef{syntax: SyntaxCII, name: p.profile, needsShared: true,
			xsd:  []XSDRoot{{"urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100", "CrossIndustryInvoice", facturx.XSD(key)}},
			sets: []tableSource{func() (*engine.Tables, error) { return fx.Tables(key) }}})
	}
	return defs
}

// Load compiles every rule set of every profile. A rule set shared by
// several profiles is loaded once. Without WithShared, the profiles that
// need the shared directory at load (facturx_*) are left out.
func Load(opts ...Option) (*Catalog, error) {
	var cfg loadConfig
	for _, o := range opts {
		o(&cfg)
	}
	c := &Catalog{profiles: map[key]*Profile{}, defaults: map[string]string{SyntaxUBL: "peppol", SyntaxCII: "en16931", SyntaxOrderX: "basic"}}
	loaded := map[*engine.Tables]*engine.Ruleset{}
	byID := map[string]*engine.Ruleset{}
	for _, d := range definitions() {
		if d.needsShared && cfg.shared == "" {
			continue
		}
		p := &Profile{Name: d.name, Syntax: d.syntax, XSD: d.xsd}
		for i, src := range d.sets {
			t, err := src()
			if err != nil {
				return nil, fmt.Errorf("rulesets: profile %s/%s: %w", d.syntax, d.name, err)
			}
			rs, ok := loaded[t]
			if !ok {
				id := t.Name + " " + t.Version + " " + t.Syntax
				if rs, ok = byID[id]; !ok {
					var opts []engine.Option
					if cfg.shared != "" {
						opts = append(opts, engine.WithDocumentRoot(cfg.shared))
					}
					if fns := d.functions[i]; fns != nil {
						opts = append(opts, engine.WithFunctions(fns()))
					}
					if rs, err = engine.Load(t, opts...); err != nil {
						return nil, fmt.Errorf("rulesets: profile %s/%s: %w", d.syntax, d.name, err)
					}
					byID[id] = rs
				}
				loaded[t] = rs
			}
			p.Rulesets = append(p.Rulesets, rs)
		}
		c.profiles[key{d.syntax, d.name}] = p
	}
	return c, nil
}

// Profile returns the profile of a syntax; name "" means the syntax's default.
func (c *Catalog) Profile(syntax, name string) (*Profile, bool) {
	if name == "" {
		name = c.defaults[syntax]
	}
	p, ok := c.profiles[key{syntax, name}]
	return p, ok
}

// Profiles lists the profile names of a syntax, sorted.
func (c *Catalog) Profiles(syntax string) []string {
	var names []string
	for k := range c.profiles {
		if k.syntax == syntax {
			names = append(names, k.profile)
		}
	}
	sort.Strings(names)
	return names
}

// Rulesets lists every distinct loaded rule set (for /health), sorted by label and syntax.
func (c *Catalog) Rulesets() []*engine.Ruleset {
	seen := map[*engine.Ruleset]bool{}
	var out []*engine.Ruleset
	for _, p := range c.profiles {
		for _, rs := range p.Rulesets {
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
		return out[i].Syntax < out[j].Syntax
	})
	return out
}
