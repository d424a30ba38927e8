package ops_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/convert"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

func TestConvertSuccessAndChanges(t *testing.T) {
	s := engineService(t)
	ctx := context.Background()
	src := readShared(t, "corpus/en16931/ubl/examples/ubl-tc434-example5.xml")
	res, err := s.Convert(ctx, ops.ConvertRequest{Direction: "ubl-to-cii", Body: src})
	if err != nil {
		t.Fatal(err)
	}
	if res.TargetSyntax != "cii" || res.Profile != "en16931" || !res.Report.Valid || !bytes.Contains(res.XML, []byte("CrossIndustryInvoice")) {
		t.Fatalf("result %s %s valid=%v", res.TargetSyntax, res.Profile, res.Report.Valid)
	}
	if !slices.ContainsFunc(res.Changes, func(c convert.Change) bool { return c.BT == "BT-32" && c.To == "FC" }) {
		t.Errorf("BT-32 change not reported: %+v", res.Changes)
	}
	// XRechnung target: profile xrechnung by default, BT-24 and BT-23 set.
	src = readShared(t, "corpus/en16931/ubl/examples/ubl-tc434-example1.xml")
	res, err = s.Convert(ctx, ops.ConvertRequest{Direction: "ubl-to-xrechnung", Profile: "en16931", Syntax: "cii", Body: src})
	if err != nil {
		t.Fatal(err)
	}
	if res.TargetSyntax != "cii" || !bytes.Contains(res.XML, []byte(convert.XRechnungSpecID)) ||
		!slices.ContainsFunc(res.Changes, func(c convert.Change) bool { return c.BT == "BT-24" }) {
		t.Errorf("xrechnung target: %s changes %+v", res.TargetSyntax, res.Changes)
	}
}

func TestConvertRefusals(t *testing.T) {
	s := engineService(t)
	ctx := context.Background()
	fields := func(err error) []wire.ValidationError {
		t.Helper()
		var re *ops.RequestError
		if !errors.As(err, &re) {
			t.Fatalf("want *RequestError, got %v", err)
		}
		return re.Fields
	}
	// Two preceding invoice references (BG-3) cannot be written in CII.
	src := readShared(t, "corpus/xrechnung-testsuite/technical-cases/cius/01.01_comprehensive_test_ubl.xml")
	_, err := s.Convert(ctx, ops.ConvertRequest{Direction: "ubl-to-cii", Body: src})
	fs := fields(err)
	if len(fs) != 1 || fs[0].Type != wire.TypeConversionLoss || fs[0].Loc[0] != "body" || fs[0].Ctx["bt"] != "BG-3" ||
		!strings.HasPrefix(fs[0].Msg, "BG-3: ") || fs[0].Ctx["path"] != fs[0].Loc[1] {
		t.Errorf("loss entries %+v", fs)
	}
	_, err = s.Convert(ctx, ops.ConvertRequest{Direction: "edifact-to-cii", Body: src})
	fs = fields(err)
	if fs[0].Type != wire.TypeEnum || !strings.Contains(fs[0].Msg, "ubl-to-cii, cii-to-ubl") || len(fs[0].Ctx["expected"].([]string)) != 6 {
		t.Errorf("unknown direction %+v", fs)
	}
	_, err = s.Convert(ctx, ops.ConvertRequest{Direction: "cii-to-ubl", Body: src})
	if fs = fields(err); fs[0].Type != wire.TypeValueError || !strings.Contains(fs[0].Msg, "source syntax") {
		t.Errorf("wrong source syntax %+v", fs)
	}
	_, err = s.Convert(ctx, ops.ConvertRequest{Direction: "xrechnung-to-cii", Body: readShared(t, "corpus/en16931/ubl/examples/ubl-tc434-example1.xml")})
	if fs = fields(err); !strings.Contains(fs[0].Msg, "not an XRechnung") {
		t.Errorf("non-XRechnung source %+v", fs)
	}
	_, err = s.Convert(ctx, ops.ConvertRequest{Direction: "ubl-to-cii", Body: []byte("<Invoice")})
	if fs = fields(err); fs[0].Type != wire.TypeXMLSyntax {
		t.Errorf("malformed XML %+v", fs)
	}
	// A source violating a rule gives a target violating it: the gate refuses.
	src = bytes.Replace(readShared(t, "corpus/en16931/ubl/examples/ubl-tc434-example1.xml"),
		[]byte(`<cbc:LineExtensionAmount currencyID="EUR">229.60</cbc:LineExtensionAmount>`),
		[]byte(`<cbc:LineExtensionAmount currencyID="EUR">229.70</cbc:LineExtensionAmount>`), 1)
	_, err = s.Convert(ctx, ops.ConvertRequest{Direction: "ubl-to-cii", Body: src})
	fs = fields(err)
	if !slices.ContainsFunc(fs, func(f wire.ValidationError) bool {
		return f.Type == wire.TypeRuleViolation && f.Ctx["rule_id"] == "BR-CO-10" && slices.Equal(f.Loc, []any{"body"})
	}) {
		t.Errorf("target rule violation %+v", fs)
	}
}
