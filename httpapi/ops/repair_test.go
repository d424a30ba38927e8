package ops_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

func TestRepair(t *testing.T) {
	s := engineService(t)
	ctx := context.Background()
	src := readShared(t, "corpus/en16931/ubl/examples/ubl-tc434-example1.xml")
	broken := bytes.Replace(src, []byte("<cbc:IssueDate>2015-01-09</cbc:IssueDate>"), []byte("<cbc:IssueDate>09.01.2015</cbc:IssueDate>"), 1)
	res, err := s.Repair(ctx, ops.RepairRequest{Syntax: "ubl", Profile: "en16931", Body: broken})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) == 0 || res.Changes[0].BT != "BT-2" || res.Changes[0].From != "09.01.2015" || res.Changes[0].To != "2015-01-09" {
		t.Errorf("changes %+v", res.Changes)
	}
	if !strings.Contains(res.XML, "<cbc:IssueDate>2015-01-09</cbc:IssueDate>") || !res.Report.Valid || res.Report.Profile != "en16931" {
		t.Errorf("repaired document not valid: %+v", res.Report)
	}
	// Nothing to repair: the same bytes, no changes.
	res, err = s.Repair(ctx, ops.RepairRequest{Syntax: "ubl", Profile: "en16931", Body: src})
	if err != nil || res.XML != string(src) || len(res.Changes) != 0 {
		t.Fatalf("clean document: %v, %d changes", err, len(res.Changes))
	}
	var re *ops.RequestError
	if _, err := s.Repair(ctx, ops.RepairRequest{Syntax: "cii", Body: src}); !errors.As(err, &re) || re.Fields[0].Type != wire.TypeValueError {
		t.Errorf("UBL to repair/cii: %v", err)
	}
	if _, err := s.Repair(ctx, ops.RepairRequest{Syntax: "ubl", Body: []byte("<a\n<")}); !errors.As(err, &re) || re.Fields[0].Type != wire.TypeXMLSyntax ||
		re.Fields[0].Ctx["line"] != 2 || re.Fields[0].Ctx["column"] == nil {
		t.Errorf("malformed: %v", err)
	}
	deep := []byte(strings.Repeat("<a>", 300) + strings.Repeat("</a>", 300))
	if _, err := s.Repair(ctx, ops.RepairRequest{Syntax: "ubl", Body: deep}); !errors.As(err, &re) || re.Fields[0].Type != wire.TypeLimitExceeded ||
		re.Fields[0].Ctx["limit"] != "MaxDepth" {
		t.Errorf("too deep: %v", err)
	}
	if _, err := s.Convert(ctx, ops.ConvertRequest{Direction: "ubl-to-cii", Body: deep}); !errors.As(err, &re) || re.Fields[0].Type != wire.TypeLimitExceeded {
		t.Errorf("convert too deep: %v", err)
	}
	if _, err := s.Repair(ctx, ops.RepairRequest{Syntax: "ubl", Profile: "facturx_basic", Body: src}); !errors.As(err, &re) || re.Fields[0].Type != wire.TypeEnum {
		t.Errorf("bad profile: %v", err)
	}
}
