// Package ops holds the transport-free operations of the service (validate now;
// generate, convert, repair, render, extract and embed as their capabilities
// land). The HTTP handlers in package httpapi and the einvoice CLI both call
// these functions, so a verdict never depends on the transport.
//
// ops owns: request checks that do not depend on HTTP (profile and syntax
// values), the fail-closed verdict rule applied to every report, the typed
// errors that the transports map to statuses (RequestError -> 422,
// NotImplementedError -> 501, context errors -> 503), and the SVRL rendering of
// a report.
//
// The engine is reached only through the Validator interface, so ops compiles
// and is testable before the engine exists; an engine-backed Validator is
// plugged in by the binary.
package ops
