// Package xdm owns the XPath 2.0 data model used by the rule engine: items
// (nodes referenced by id, atomic values), sequences, the atomic types the
// official rule sets need (xs:string, xs:untypedAtomic, xs:boolean,
// xs:decimal, xs:integer, xs:double, xs:date), casting and castable rules,
// value and general comparisons, arithmetic with exact decimals, the
// effective boolean value and typed dynamic errors (*Error with the standard
// F&O codes).
//
// xdm is a leaf package: a node item carries only its xmltree node id; the
// evaluator (engine/vm) owns the document and atomizes nodes before calling
// into this package.
//
// Decimals are exact: an int64 coefficient with a decimal scale, falling back
// to math/big when a result does not fit. Division of decimals is computed
// like Saxon: max(18, scale(a) - scale(b) + 18) fractional digits with the
// operands' Java scales (trailing zeros stripped; 0 for xs:integer),
// rounded half-down, trailing zeros removed.
package xdm
