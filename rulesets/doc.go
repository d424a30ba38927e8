// Package rulesets is the catalog: for each syntax and profile, the ordered
// rule sets (each a compiled engine.Ruleset named with its version, e.g.
// "EN16931 1.3.16") and the XSD roots the profile validates against (wired by
// the caller's XSD step). The catalog is built once at start-up with Load,
// which reports loudly when a rule set's generated tables are missing or do
// not compile; it is immutable afterwards and safe for concurrent use.
//
// Profiles come in versions (Catalog.Profile(syntax, name, version), newest
// by default); Profile.Validate selects the document's scenario (XRechnung:
// the official validator configuration with its severity overrides; Peppol
// 3.0.21: billing or self-billing) and reports effective and declared
// flags. A rule set that fails to load makes its profiles fail closed
// (Profile.Err, Result.Complete=false) instead of failing the whole
// catalog; Catalog.Info lists every set with source, sha256, counts and
// error. Schemas lists the XSD-only national formats (FatturaPA, Facturae,
// KSeF) with their catalogs. See docs/RULESETS.md.
//
// Each rule set lives in its own package (rulesets/<set>) holding a
// hand-written doc.go and set.go and the generated, git-ignored
// zz_generated_<syntax>.go files written by tools/rulegen (`make generate`).
package rulesets
