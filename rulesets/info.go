package rulesets

import (
	"slices"
	"strconv"
	"strings"

	"github.com/einvoice-dev/einvoice/engine"
)

// RulesetInfo describes one rule set of the catalog (for GET /v1/rulesets).
type RulesetInfo struct {
	Name    string `json:"name"`    // e.g. "Peppol BIS Billing"
	Version string `json:"version"` // e.g. "3.0.21"
	Syntax  string `json:"syntax"`  // ubl, cii, or an Order-X / Factur-X flavour
	// Source is the main .sch relative to the shared directory and SHA256
	// the digest of it and every file it includes (stamped at generation).
	Source   string `json:"source"`
	SHA256   string `json:"sha256"`
	Phase    string `json:"phase"`
	Patterns int    `json:"patterns"`
	Rules    int    `json:"rules"`
	Asserts  int    `json:"asserts"`
	Reports  int    `json:"reports"`
	// Profiles lists the profiles using it, as "syntax/name version".
	Profiles []string `json:"profiles"`
	// Error is set when the rule set could not be loaded (its profiles
	// fail closed).
	Error string `json:"error,omitempty"`
}

func newInfo(t *engine.Tables, err error) RulesetInfo {
	in := RulesetInfo{Name: t.Name, Version: t.Version, Syntax: t.Syntax, Source: t.Source, SHA256: t.SHA256,
		Phase: t.Phase, Patterns: len(t.Patterns), Rules: len(t.Rules), Profiles: []string{}}
	for _, c := range t.Checks {
		if c.Kind == engine.KindReport {
			in.Reports++
		} else {
			in.Asserts++
		}
	}
	if err != nil {
		in.Error = err.Error()
	}
	return in
}

// Info lists every rule set the catalog knows, loaded or not (with
// WithLazy, this compiles the ones not used yet), sorted by name, version,
// syntax and source.
func (c *Catalog) Info() []RulesetInfo {
	out := make([]RulesetInfo, 0, len(c.jobs))
	for _, j := range c.jobs {
		j.load(c.shared)
		in := newInfo(j.t, j.err)
		in.Profiles = slices.Clone(j.profiles)
		out = append(out, in)
	}
	return out
}

// compareVersions orders dotted versions numerically where both parts are
// numbers ("3.0.21" > "3.0.19" > "3.0.2"), else as strings.
func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil:
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
		case pa[i] != pb[i]:
			return strings.Compare(pa[i], pb[i])
		}
	}
	return len(pa) - len(pb)
}

// XSDRoots lists every distinct XSD root of every profile, sorted by path,
// without compiling any rule set (for callers that compile schemas at
// start-up while the catalog is lazy).
func (c *Catalog) XSDRoots() []XSDRoot {
	seen := map[XSDRoot]bool{}
	var out []XSDRoot
	for _, p := range c.profiles {
		for _, x := range p.XSD {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	slices.SortFunc(out, func(a, b XSDRoot) int { return strings.Compare(a.Path+"\x00"+a.Local, b.Path+"\x00"+b.Local) })
	return out
}
