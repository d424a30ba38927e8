// Command rulegen compiles the official Schematron rule sets under the shared
// directory into Go tables (rulesets/<set>/zz_generated_<syntax>.go), using the
// staged compiler in package compiler.
//
//	go run ./tools/rulegen -shared ../shared -out rulesets
//	go run ./tools/rulegen -dump index -set en16931 -syntax ubl   # stop after a stage, print it
//
// The sets it knows are the rows of the table in sets.go; adding a rule set
// (Peppol, XRechnung, ...) is one row there, plus its xsl:function
// implementations in the function registry (functions.go) when it needs any.
// Generated files are build outputs: git-ignored, never committed.
package main
