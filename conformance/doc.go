// Package conformance checks our engine against the reference: the expected
// results in ../shared/conformance/expected (the official Schematron run by
// Saxon-HE through the ISO skeleton) and the official vefa unit tests in
// ../shared/corpus/en16931/test. It is test-only in spirit: nothing imports
// it. Run with
//
//	go test ./conformance/...            (EINVOICE_SHARED overrides ../shared)
//
// Files: expected_*.go read the JSONL expected results and compare findings;
// unit_*.go parse vefa testSet files, extract the embedded documents and
// judge them as vefa does; known_failures.txt lists cases allowed to fail,
// each with a reason (a listed case that passes fails the run, so the list
// cannot go stale). See docs/CONFORMANCE.md.
package conformance
