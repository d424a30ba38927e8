// Package rulesets is the catalog: for each syntax and profile, the ordered
// rule sets (each a compiled engine.Ruleset named with its version, e.g.
// "EN16931 1.3.16") and the XSD roots the profile validates against (wired by
// the caller's XSD step). The catalog is built once at start-up with Load,
// which fails loudly when a rule set's generated tables are missing or do
// not compile; it is immutable afterwards and safe for concurrent use.
//
// Each rule set lives in its own package (rulesets/<set>) holding a
// hand-written doc.go and set.go and the generated, git-ignored
// zz_generated_<syntax>.go files written by tools/rulegen (`make generate`).
package rulesets
