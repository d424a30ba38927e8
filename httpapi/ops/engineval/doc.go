// Package engineval is the engine-backed ops.Validator: it joins the XML
// parser (engine/xmltree), XML Schema validation (engine/xsd) and the compiled
// Schematron rule sets of the catalog (rulesets) into one validation report.
//
// It lives apart from package ops so that ops (and the HTTP layer and its
// tests) build without cgo and libxml2; the binary plugs it in when the rule
// tables and schemas are available.
//
// Order of work for one document: the profile is resolved (unknown or not yet
// landed profiles are 422s naming the available ones); the document is parsed
// once with hard limits (syntax errors and exceeded limits are 422s with the
// line in ctx); its root element selects the XSD (UBL Invoice vs CreditNote);
// XSD findings come first with rule_id "XSD" and source "xsd", then the
// Schematron findings of each rule set in catalog order.
//
// The XSD stage (libxml2 on the request's bytes) runs on another goroutine
// beside the rule sets (on the parse). For a document up to 2 MiB it
// starts before the parse, choosing its schema from xmltree.RootName; a
// larger document starts it after the parse. The goroutine is a lane
// worker (lane.go) that polls for the next stage for a while after one
// ends, so that back-to-back validations do not wait for an idle core to
// wake up (~100 µs on our VMs) before their stage starts. The parse
// tree's node array is recycled from validation to validation
// (xmltree.Recycler) once the report, which holds only strings, is built. A rule set that
// raises a dynamic XPath error makes the request fail (422 evaluation_error
// naming the rule and location): an engine error is an error response, never
// a verdict. Cancellation is returned as the context's error (503 in HTTP).
package engineval
