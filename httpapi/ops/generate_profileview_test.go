package ops_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// TestGenerateProfileViews: generate/cii for Factur-X MINIMUM and BASIC WL
// writes the profile's view of random full models, passes the profile's
// gate (XSD + Schematron) and lists what it dropped.
func TestGenerateProfileViews(t *testing.T) {
	s := engineService(t)
	ctx := context.Background()
	for _, profile := range []string{"facturx_minimum", "facturx_basicwl"} {
		for seed := range uint64(60) {
			body := randomBody(t, seed, model.RandomOptions{})
			res, err := s.Generate(ctx, ops.GenerateRequest{Syntax: "cii", Profile: profile, Validate: true, Body: body})
			if err != nil {
				t.Errorf("%s seed %d: %v", profile, seed, err)
				continue
			}
			if res.Report == nil || !res.Report.Valid {
				t.Errorf("%s seed %d: report %+v", profile, seed, res.Report)
			}
			if strings.Contains(string(res.XML), "IncludedSupplyChainTradeLineItem") {
				t.Errorf("%s seed %d: a line was written", profile, seed)
			}
			want := cii.Dropped{Pointer: "/invoice/lines/0/item/name", Term: "BT-153"}
			if !slices.Contains(res.Dropped, want) {
				t.Errorf("%s seed %d: dropped lacks %v: %v", profile, seed, want, res.Dropped)
			}
		}
	}
}

// TestGenerateProfileViewRefusals: what the view cannot write without
// inventing is refused by the gate, never filled in: a rounding amount
// BASIC WL cannot carry breaks BR-CO-16.
func TestGenerateProfileViewRefusals(t *testing.T) {
	s := engineService(t)
	ctx := context.Background()
	body := editBody(t, randomBody(t, 3, model.RandomOptions{Lines: 2}), func(inv map[string]any) {
		tot := inv["totals"].(map[string]any)
		tot["rounding_amount"] = "0.01"
		tot["payable_amount"] = plusCent(t, tot["payable_amount"].(string))
	})
	if _, err := s.Generate(ctx, ops.GenerateRequest{Syntax: "cii", Profile: "facturx_en16931", Validate: true, Body: body}); err != nil {
		t.Fatalf("the edited invoice is not valid EN 16931: %v", err)
	}
	_, err := s.Generate(ctx, ops.GenerateRequest{Syntax: "cii", Profile: "facturx_basicwl", Validate: true, Body: body})
	fs := requestFields(t, err)
	if !slices.ContainsFunc(fs, func(f wire.ValidationError) bool { return f.Ctx["rule_id"] == "BR-CO-16" }) {
		t.Errorf("want BR-CO-16, got %+v", fs)
	}
}

// plusCent adds 0.01 to a decimal string.
func plusCent(t *testing.T, s string) string {
	t.Helper()
	d, err := model.ParseDecimal(s)
	if err != nil {
		t.Fatal(err)
	}
	return d.Add(model.MustParseDecimal("0.01")).String()
}
