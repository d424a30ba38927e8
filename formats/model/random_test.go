package model

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRandomProfiles: every RandomProfile gives the terms its doc comment
// promises, on every seed, and the zero profile is unchanged by the option
// (the same seed gives the same invoice as before the option existed: the
// profile only adds draws of its own).
func TestRandomProfiles(t *testing.T) {
	for seed := range uint64(300) {
		r := func() *rand.Rand { return rand.New(rand.NewPCG(seed, 11)) }
		plain := RandomInvoice(r(), RandomOptions{})
		if plain.Seller.Address.CountryCode == "RO" || plain.ProcessControl != nil {
			t.Fatalf("seed %d: the zero profile got profile data", seed)
		}

		xr := RandomInvoice(r(), RandomOptions{Profile: RandomXRechnung})
		for _, v := range xr.VATBreakdown {
			if v.VATRate == nil {
				t.Errorf("seed %d xrechnung: breakdown %s without a rate (BR-DE-14)", seed, v.VATCategoryCode)
			}
		}

		ro := RandomInvoice(r(), RandomOptions{Profile: RandomROCIUS})
		if ro.CurrencyCode != "RON" || ro.Seller.Address.CountryCode != "RO" || ro.Seller.Address.Subdivision == "" ||
			ro.Seller.TaxRegistrationID == "" || ro.Buyer.LegalRegistrationID == nil {
			t.Errorf("seed %d ro_cius: %+v %+v", seed, ro.Seller, ro.Buyer)
		}
		if d := ro.Delivery; d != nil && d.Address != nil && (d.Address.Line1 == "" || d.Address.Subdivision == "") {
			t.Errorf("seed %d ro_cius: delivery address %+v", seed, d.Address)
		}
		if a := ro.Seller.Address; a.Subdivision == "RO-B" && len(a.City) != len("SECTOR1") {
			t.Errorf("seed %d ro_cius: Bucharest city %q", seed, a.City)
		}

		fr := RandomInvoice(r(), RandomOptions{Profile: RandomBRFR})
		var subjects []string
		for _, n := range fr.Notes {
			subjects = append(subjects, n.SubjectCode)
		}
		for _, want := range []string{"PMT", "PMD", "AAB"} {
			if !slices.Contains(subjects, want) {
				t.Errorf("seed %d br_fr: no %s note (%v)", seed, want, subjects)
			}
		}
		if fr.CurrencyCode != "EUR" || fr.ProcessControl == nil || fr.ProcessControl.BusinessProcess == "" ||
			fr.Seller.LegalRegistrationID == nil || fr.Seller.LegalRegistrationID.SchemeID != "0002" || len(fr.Seller.LegalRegistrationID.ID) != 9 {
			t.Errorf("seed %d br_fr: %+v %+v", seed, fr.ProcessControl, fr.Seller.LegalRegistrationID)
		}
		for _, l := range fr.Lines {
			if l.VATCategoryCode == VATCanaryIGIC || l.VATCategoryCode == VATCeutaMelillaIPS {
				t.Errorf("seed %d br_fr: category %s (BR-FR-15)", seed, l.VATCategoryCode)
			}
		}

		fx := RandomInvoice(r(), RandomOptions{Profile: RandomFacturXBasic})
		if fx.Seller.Contact != nil || fx.SupportingDocuments != nil {
			t.Errorf("seed %d facturx_basic: seller contact or supporting documents", seed)
		}
		for _, l := range fx.Lines {
			if l.Item.SellerID != "" || l.Item.Description != "" || l.Item.Attributes != nil {
				t.Errorf("seed %d facturx_basic: item %+v", seed, l.Item)
			}
		}
	}
}
