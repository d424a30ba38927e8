// Package mutate derives invalid-ish variants ("mutants") of valid invoice
// documents for the differential test against the reference oracle.
//
// It works on the raw XML bytes, located with encoding/xml, and never uses
// our engine's packages (engine/xmltree, engine/xpath ...), so a bug there
// cannot hide itself from the harness. Every mutant is determined by its
// source document and a seed, and carries a name of the form
//
//	<source>#<seed>:<op>:<path>[=<new value>]
//
// (path: local names with 1-based positions among same-name siblings, as the
// reference writes locations, e.g. /Invoice[1]/InvoiceLine[2]/Price[1] or
// /…/PayableAmount[1]/@currencyID), so a disagreement is reproducible with
// Document.Mutate(seed).
//
// Operations: remove, empty or duplicate an element; swap a code for another
// value of its code list or for an invalid code (the lists are harvested
// from the code-list Schematron's contains(' A B C ', …) tests); perturb an
// amount (±0.01, scale, negate, many digits, bad format), a date (invalid
// day, other format, shifted) or a percentage; change an attribute value
// (currencyID, schemeID, unitCode, listID, mimeCode …) to another listed or
// an invalid value.
package mutate
