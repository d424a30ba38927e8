package ops_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
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
