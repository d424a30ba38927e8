// Package vm owns the evaluator of compiled XPath expressions and
// Schematron match patterns, and the fn:* function library.
//
// A Program is an immutable tree of Expr nodes built by engine/xpath (the
// IR is exported so the compiler, which lives in its own package, can build
// it; nothing mutates it after NewProgram). We chose a typed op tree over a
// flat op array: the rule sets' expressions are small and shallow, a tree
// keeps each op's operands next to it, and the dispatch is one switch per
// node. Specialised ops for the common rule shapes (code-list set lookup,
// exists/empty/count of a child path, child-value-equals-literal) are chosen
// by the compiler and measured in vm_bench_test.go.
//
// Evaluation state lives in a frame owned by the Env (an append-only item
// arena reset per evaluation, scratch buffers per nesting depth, local
// variable slots, an argument stack), so a typical assertion allocates
// nothing once the Env is warm. An Env is therefore used by one goroutine
// at a time; Programs and Patterns are shared freely.
//
// Node items carry their document index (xdm.Item.Doc): 0 is Env.Doc, k the
// k-th document registered with Functions.RegisterDocument (fn:document).
// The frame keeps the focus node's document current, so axes work on ids
// of that document.
//
// Programs of one rule set share a Catalog (catalog.go): numbered name
// slots, resolved once per document, and the fingerprints of the
// sub-expressions the Env memoises per document (memo.go: variable-free
// absolute paths; predmemo.go: repeated predicates and relative paths, per
// node). Named descendant and child steps use the document's name index
// (xmltree.Document.NamedIn).
//
// The simplest tests, predicates, index keys and rule contexts (paths of
// named child steps compared with constants: most of what a validation
// evaluates) are also compiled at load into Go closures that read the
// document without a frame (fast.go, fastpattern.go). They answer only
// where the interpreter raises no error, and give up otherwise;
// fastcheck.go compares the two ways.
//
// Long evaluations check ctx every 1024 steps.
package vm
