// Package compiler turns ISO Schematron (.sch, queryBinding xslt2) into the flat
// engine.Tables that the runtime loads, as a fixed sequence of named, timed
// and individually dumpable stages:
//
//	load      read the main .sch with encoding/xml into a node tree with file:line
//	include   splice every sch:include (hrefs relative to the including file)
//	model     build the Schematron model (schema, phases, patterns, rules, checks)
//	abstract  instantiate abstract patterns (is-a + param, textual $name
//	          substitution, longest name first, as the ISO skeleton) and
//	          abstract rules (extends)
//	phase     keep the patterns of the selected phase (#ALL unless defaultPhase)
//	lets      bind schema, pattern and rule lets to variable slots; record
//	          the files literal document('uri') calls load (documents.go)
//	xpath     parse and statically check every expression with engine/xpath
//	rewrite   optimisations, one per file (none yet)
//	index     context index: element names each rule context can match
//	emit      deterministic Go source (go/format) holding the tables
//
// The compiler runs offline (tools/rulegen, conformance); it is never linked
// into the server. It owns the mapping from Schematron to engine.Tables; the
// runtime semantics live in package engine.
package compiler
