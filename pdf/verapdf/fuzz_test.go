package verapdf

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/pdftestgen"
)

// fuzzTimeout is FuzzValidate's per-file limit. The fuzzing engine panics
// in a worker whose input runs over 10 s ("deadlocked!", exit status 2,
// the output discarded: "fuzzing process hung or terminated unexpectedly"),
// and veraPDF can take that long on a mutant; with the limit plus its grace
// (6 s) under 10 s such an input is the service's own answer instead, a
// timeout DocumentError and a replaced worker.
const fuzzTimeout = 3 * time.Second

// FuzzValidate feeds arbitrary bytes to the real worker: every input gets a
// verdict or a DocumentError, never an unavailable validator (a hostile PDF
// must not crash or wedge the worker). Crashers are kept in testdata/fuzz.
// A PDF that exhausts the worker's heap is a DocumentError too (the worker
// is replaced): the seed with a 1 GiB ICC tag is the shape the campaign of
// 1 Dec 2026 found (docs/RELIABILITY.md). A PDF that makes veraPDF loop
// (the shape of 2 Dec 2026) is skipped: knownLoop.
//
//	go test -run '^$' -fuzz FuzzValidate -fuzztime 60s -fuzzminimizetime 100x -parallel 2 ./pdf/verapdf
//
// (-fuzzminimizetime: shrinking a new input is not counted as executions,
// and Go's default of 60 s shows as minutes at 0 executions a second.
// -parallel N: every fuzzing process runs its own JVM; fuzzTimeout keeps
// each input under the engine's 10 s hang limit however many run.)
func FuzzValidate(f *testing.F) {
	f.Add([]byte("%PDF-1.7\n"))
	f.Add([]byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"))
	f.Add(readCorpus(f, "mustang/veraPDFtestsuite6-7-11-t01-fail-a.pdf"))
	f.Add(pdftestgen.HugeICCTag(32))
	f.Add(pdftestgen.HugeICCTag(1 << 30))
	c := New(Options{Jar: jar(f), Timeout: fuzzTimeout, StartTimeout: 2 * time.Minute})
	f.Cleanup(func() { _ = c.Close() })
	// Warm before the first input: the fuzzing engine counts an input that
	// takes over 10 s as a hang, and a cold JVM's first validation can.
	if err := c.Start(context.Background()); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, pdf []byte) {
		if knownLoop(pdf) {
			return
		}
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

// knownLoop reports whether pdf has the shape veraPDF 1.30 is known to
// loop on until its heap is exhausted (pdftestgen.NameEscapeAtEnd; the
// service's answer, a 422 and a new worker, is pinned through the HTTP API
// by TestPDFAValidateHeapExhaustionHTTP): a stream whose data, raw or as
// far as it inflates, ends in a '#'. FuzzValidate skips such inputs. Once
// the campaign has found the shape, most mutations of it keep it, and each
// costs a fuzzing process the per-file limit, its grace and a JVM start
// (the rate fell from ~1,400 to ~300 a second, docs/RELIABILITY.md): the
// skip spends the executions on shapes not yet known. It errs towards
// skipping (trailing white space is ignored, every stream is looked at,
// not only content streams); a shape it misses is validated as before.
func knownLoop(pdf []byte) bool {
	for rest := pdf; ; {
		i := bytes.Index(rest, []byte("stream"))
		if i < 0 {
			return false
		}
		endKeyword := i >= 3 && string(rest[i-3:i]) == "end"
		rest = rest[i+len("stream"):]
		if endKeyword {
			continue
		}
		data := rest
		if j := bytes.Index(data, []byte("endstream")); j >= 0 {
			data = data[:j]
		}
		data = bytes.TrimLeft(data, "\r\n")
		if endsInHash(data) {
			return true
		}
		if z, err := zlib.NewReader(bytes.NewReader(data)); err == nil {
			// What inflates before an error counts: veraPDF parses it.
			out, _ := io.ReadAll(io.LimitReader(z, 1<<20))
			if len(out) < 1<<20 && endsInHash(out) {
				return true
			}
		}
	}
}

// TestKnownLoop: FuzzValidate's skip takes the shape veraPDF loops on,
// raw and deflated, and the mutant the campaign found (a flate stream that
// fails after inflating to "BT /F1#"), and none of the seeds, generated
// cases or near misses.
func TestKnownLoop(t *testing.T) {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write([]byte("0 0 1 rg BT /F1#"))
	_ = zw.Close()
	deflated := pdftestgen.PageWithContent("/Filter /FlateDecode", z.Bytes())
	mutant, err := os.ReadFile("testdata/loop-mutant.pdf")
	if err != nil {
		t.Fatal(err)
	}
	for name, pdf := range map[string][]byte{"raw": pdftestgen.NameEscapeAtEnd(), "deflated": deflated, "mutant": mutant} {
		if !knownLoop(pdf) {
			t.Errorf("%s: not recognised", name)
		}
	}
	// The seeds, every generated case, and near misses.
	kept := map[string][]byte{
		"one hex digit":  pdftestgen.PageWithContent("", []byte("BT /F1#4")),
		"ICC":            pdftestgen.HugeICCTag(1 << 30),
		"corpus":         readCorpus(t, "mustang/veraPDFtestsuite6-7-11-t01-fail-a.pdf"),
		"file ends in #": []byte("%PDF-1.7\n/A#"),
	}
	for _, c := range pdftestgen.All() {
		kept[c.Name] = c.PDF
	}
	for name, pdf := range kept {
		if knownLoop(pdf) {
			t.Errorf("%s: skipped", name)
		}
	}
}

func endsInHash(b []byte) bool {
	b = bytes.TrimRight(b, " \t\r\n\f\x00")
	return len(b) > 0 && b[len(b)-1] == '#'
}

// FuzzAnswer feeds arbitrary worker answer lines (seeded with the shapes
// the worker writes) through what the client does with them: an answer out
// of protocol, a failure and a contradictory verdict are *UnavailableError,
// a PDF veraPDF could not check a *DocumentError, and a result that comes
// through is self-consistent. The worker's output carries text of the
// hostile PDF (error messages, its declared flavour); this is the Go side's
// parser of it, fuzzed without a JVM (FuzzValidate drives the real worker).
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{
		`{"id":7,"ok":true,"compliant":true,"flavour":"3b","checked_flavour":"3b","failed_rules":[],"validator":{"name":"veraPDF","version":"1.28.2"}}`,
		`{"id":7,"ok":true,"compliant":false,"flavour":"","checked_flavour":"3b","failed_rules":[{"specification":"ISO 19005-3:2012","clause":"6.6.2.1","test_number":1,"description":"x","failed_checks":2}],"validator":{"name":"veraPDF","version":"1.28.2"}}`,
		`{"id":7,"error":{"kind":"parse","message":"Couldn't parse stream"},"validator":{"name":"veraPDF","version":"1.28.2"}}`,
		`{"id":7,"error":{"kind":"internal","message":"boom"},"restarting":true}`,
		`{"id":8,"ok":true}`,
		`{"id":7,"compliant":true,"checked_flavour":"3b","failed_rules":[{"failed_checks":0}],"validator":{"version":"1"}}`,
		`not json`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		resp, err := decodeAnswer(line, 7)
		if err != nil {
			var ue *UnavailableError
			if !errors.As(err, &ue) {
				t.Fatalf("decode: %v is not an UnavailableError", err)
			}
			return
		}
		if resp.ID == nil || *resp.ID != 7 {
			t.Fatalf("answer to another request accepted: %+v", resp)
		}
		r, err := verdict(resp)
		var ue *UnavailableError
		var de *DocumentError
		switch {
		case err == nil:
			if r.CheckedFlavour == "" || r.Validator.Version == "" || (r.Compliant && len(r.FailedRules) > 0) || r.FailedRules == nil {
				t.Fatalf("inconsistent result passed on: %+v", r)
			}
			for _, fr := range r.FailedRules {
				if fr.FailedChecks < 1 {
					t.Fatalf("failed rule without a failed check passed on: %+v", r)
				}
			}
		case errors.As(err, &de):
			if resp.Error == nil {
				t.Fatalf("DocumentError without a worker error: %v", err)
			}
		case errors.As(err, &ue):
		default:
			t.Fatalf("verdict: unexpected error %T %v", err, err)
		}
	})
}
