// Package xpath owns the XPath 2.0 subset compiler used by the rule engine:
// lexer, recursive-descent parser with static checks (unknown namespace
// prefix, unknown function or arity, unknown variable, unsupported type or
// construct: each a *Error naming the construct and its byte offset), and
// the rewrites that pick the evaluator's fast paths. It emits the vm IR
// directly from the parser (the vm.Expr tree is the AST; the rewrites in
// optimize.go run on it before it is frozen in a vm.Program).
//
// Compile compiles an expression; CompilePattern an XSLT 2.0 match pattern
// (a Schematron rule context).
package xpath
