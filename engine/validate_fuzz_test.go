package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// FuzzValidateEN16931 feeds arbitrary documents through parse + the EN 16931
// UBL rule set. Allowed outcomes: a parse error of the parser's typed kinds,
// findings, or an *engine.EvalError wrapping an XPath dynamic error
// (*xdm.Error). Anything else (panic, untyped error, malformed finding, a
// frame-free evaluation that disagrees with the interpreter) is a bug; crashers are kept under testdata/fuzz/FuzzValidateEN16931.
func FuzzValidateEN16931(f *testing.F) {
	rs := loadEN16931(f, "ubl", ublMain)
	for _, p := range []string{ublExample, "corpus/en16931/ubl/examples/ubl-tc434-creditnote1.xml"} {
		data, err := os.ReadFile(filepath.Join(sharedDir(f), p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:IssueDate>2020-13-45</cbc:IssueDate><cbc:TaxExclusiveAmount currencyID="EUR">1e9</cbc:TaxExclusiveAmount></Invoice>`))
	f.Add([]byte(`<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/>`))
	lim := xmltree.DefaultLimits()
	lim.MaxBytes = 1 << 20
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := xmltree.Parse(data, lim)
		if err != nil {
			var se *xmltree.SyntaxError
			var le *xmltree.LimitError
			if !errors.As(err, &se) && !errors.As(err, &le) {
				t.Fatalf("untyped parse error %T: %v", err, err)
			}
			return
		}
		fs, err := rs.Validate(context.Background(), doc)
		if err != nil {
			var ee *engine.EvalError
			var xe *xdm.Error
			if !errors.As(err, &ee) || !errors.As(err, &xe) || ee.Code() == "" {
				t.Fatalf("unexpected error %T: %v", err, err)
			}
		}
		// The frame-free evaluation of the simplest checks (vm/fast.go)
		// must agree with the interpreter on every node.
		if doc.Len() <= 20000 {
			if _, err := rs.FastAgrees(context.Background(), doc); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range fs {
			if f.RuleID == "" || (f.Kind != "assert" && f.Kind != "report") || !strings.HasPrefix(f.Location, "/") || f.Message == "" {
				t.Fatalf("malformed finding %+v", f)
			}
		}
	})
}
