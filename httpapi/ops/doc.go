// Package ops holds the transport-free operations of the service: validate
// (UBL, CII, Order-X, FatturaPA), generate (UBL, CII, FatturaPA) behind the
// rule gate, convert (lossless or refused with the exact losses) and repair.
// Render, extract and embed join as their capabilities land. The HTTP
// handlers in package httpapi and the einvoice CLI both call these functions,
// so a verdict or a generated document never depends on the transport.
//
// ops owns: request checks that do not depend on HTTP (profile and syntax
// values, strict decoding of the invoice JSON), the fail-closed verdict rule
// applied to every report, the gate every generated or converted document
// passes through (the same Validator as validate/*, never a second path), the
// typed errors that the transports map to statuses (RequestError -> 422,
// NotImplementedError -> 501, context errors -> 503), and the SVRL rendering
// of a report.
//
// The engine is reached only through the Validator interface, so ops compiles
// and is testable without cgo; the engine-backed Validator (package
// engineval) is plugged in by the binary.
package ops
