// Package depcheck enforces the import arrows of docs/ARCHITECTURE.md with a
// test over `go list -deps`:
//
//	engine/xdm <- engine/xmltree <- engine/vm <- engine/xpath <- engine (+ engine/xsd)
//	  <- rulesets <- httpapi/wire, httpapi/ops <- httpapi <- tools/einvoice
//
// A package may import only packages of its own layer or lower ones. In
// addition: compiler and conformance never link into tools/einvoice; pdf
// imports none of engine, formats, rulesets, httpapi; formats uses only the
// leaf engine packages (xdm, xmltree) and never rulesets or httpapi.
//
// The package has no non-test code beyond the rules table; run it with
// `go test ./tools/depcheck`.
package depcheck
