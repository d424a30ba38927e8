package xsd

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// FuzzValidate feeds arbitrary bytes to Validate. Allowed outcomes: findings
// that keep the Error invariants, or one of the allow-listed errors. Anything
// else (a panic, a crash inside libxml2, an untyped error) is a bug. It also
// cross-checks the two DOCTYPE layers: whenever libxml2's in-parser hook
// refuses a document, the Go prolog scan must not have claimed "no DOCTYPE".
//
// Run: go test -run '^$' -fuzz FuzzValidate -fuzztime 60s ./engine/xsd
// Crashers are kept in testdata/fuzz/FuzzValidate.
func FuzzValidate(f *testing.F) {
	s := mustLoad(f, ublInvoiceRel)
	f.Add(readFile(f, sharedPath(f, ublExample1Rel)))
	f.Add([]byte(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><x/></Invoice>`))
	f.Add([]byte(`<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>`))
	f.Add([]byte("<?xml version='1.0'?><!-- c --><!DOCTYPE a><a/>"))
	f.Add(utf16LE(`<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE a><a/>`, true))
	f.Add([]byte(`<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\xe9</a>`))
	f.Add([]byte("<a>\n<b>"))
	allowed := []error{ErrDoctype, ErrTooLarge}
	f.Fuzz(func(t *testing.T, doc []byte) {
		// The tree walk alone, then Validate's passes without and with the
		// prolog scan: the streaming pass must not change an answer.
		var treeErrs []Error
		var treeErr error
		for i, p := range []pass{{}, {stream: true}, {prescan: true, stream: true}} {
			prescan := p.prescan
			errs, err := s.validate(context.Background(), doc, p)
			if i == 0 {
				treeErrs, treeErr = errs, err
			} else if !prescan && (!errors.Is(err, treeErr) || !slices.Equal(errs, treeErrs)) {
				t.Fatalf("%+v: %v %v, the tree walk alone %v %v", p, errs, err, treeErrs, treeErr)
			}
			if err != nil {
				ok := false
				for _, a := range allowed {
					ok = ok || errors.Is(err, a)
				}
				if !ok {
					t.Fatalf("prescan=%v: unexpected error %v", prescan, err)
				}
				if errs != nil {
					t.Fatalf("prescan=%v: error %v with findings %v", prescan, err, errs)
				}
				if !prescan && errors.Is(err, ErrDoctype) && scanProlog(doc) == prologNoDoctype {
					t.Fatalf("libxml2 saw a DOCTYPE the prolog scan missed")
				}
				continue
			}
			checkWellFormedFindings(t, errs)
		}
	})
}

// FuzzScanProlog checks the scanner never panics or loops on any input.
func FuzzScanProlog(f *testing.F) {
	f.Add([]byte("<!DOCTYPE a><a/>"))
	f.Add([]byte("\xEF\xBB\xBF<?xml version='1.0' encoding='latin1'?><!----><a/>"))
	f.Add(utf16BE("<?xml version='1.0'?><!DOCTYPE a>", false))
	f.Fuzz(func(t *testing.T, doc []byte) {
		switch v := scanProlog(doc); v {
		case prologNoDoctype, prologDoctype, prologUnknown:
		default:
			t.Fatalf("verdict %v", v)
		}
	})
}
