// Package engine owns the Schematron runtime: the flat Tables a compiled rule
// set is made of (emitted by the compiler into rulesets/<set>), Load, which
// compiles every XPath of the tables once with engine/xpath into an immutable,
// concurrency-safe Ruleset, and Ruleset.Validate, which applies the rule set
// to a parsed document with the semantics of the standard XSLT
// implementations of ISO Schematron (ISO skeleton XSLT2, SchXslt):
//
//   - patterns in schema order; each pattern visits the document node, every
//     element and every attribute in document order;
//   - within a pattern the first rule (in schema order) whose context matches
//     a node wins; the others are skipped for that node;
//   - schema and pattern lets are evaluated once per document (pattern lets
//     are global, as the skeleton's top-level xsl:variables), rule lets for
//     every node the rule fires on (context: the document node, resp. the
//     context node); a failing let aborts only where its value is needed,
//     like Saxon's lazy variables (lazy.go);
//   - an assert fires when the effective boolean value of its test is false,
//     a report when it is true; the message is the text with value-of and
//     name evaluated, whitespace-normalised (XML whitespace only, as
//     normalize-space), the location is the node's path in the reference's
//     form (/Invoice[1]/InvoiceLine[2] for xslt2 schemas, the skeleton's
//     XSLT 1 form for schemas without queryBinding: location.go).
//
// A dynamic error (or a cancelled context) aborts the validation: Validate
// returns the findings so far together with an *EvalError, and the caller
// must report the rule set as not completed, never as passed. This matches
// the reference, where Saxon aborts the whole stage on a dynamic error.
//
// Rules are looked up through a context index built at Load from the
// expanded names each rule context can match (xpath Pattern.ElementNames),
// so a node is only matched against rules that can match it. Per-document
// state (variable slots, the name index, the evaluator's scratch) is pooled.
// See docs/ENGINE.md.
package engine
