package verapdf

import (
	"context"
	"errors"
	"testing"
)

// FuzzValidate feeds arbitrary bytes to the real worker: every input gets a
// verdict or a DocumentError, never an unavailable validator (a hostile PDF
// must not crash or wedge the worker). Crashers are kept in testdata/fuzz.
//
//	go test -run '^$' -fuzz FuzzValidate -fuzztime 60s -parallel 1 ./pdf/verapdf
//
// (-parallel 1: every fuzzing process runs its own JVM; on a small loaded
// machine more of them push single inputs past the engine's 10 s hang limit.)
func FuzzValidate(f *testing.F) {
	f.Add([]byte("%PDF-1.7\n"))
	f.Add([]byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"))
	f.Add(readCorpus(f, "mustang/veraPDFtestsuite6-7-11-t01-fail-a.pdf"))
	c := realClient(f)
	// Warm before the first input: the fuzzing engine counts an input that
	// takes over 10 s as a hang, and a cold JVM's first validation can.
	if err := c.Start(context.Background()); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, pdf []byte) {
		res, err := c.Validate(context.Background(), pdf, "auto")
		var de *DocumentError
		switch {
		case err == nil:
			if res.CheckedFlavour == "" || res.Validator.Version == "" {
				t.Fatalf("incomplete result %+v", res)
			}
		case errors.As(err, &de):
		default:
			t.Fatalf("want a verdict or a DocumentError, got %v", err)
		}
	})
}
