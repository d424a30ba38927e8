package convert

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
)

// convertible returns a random invoice that converts ubl-to-cii and back,
// written as UBL with the given BT-24 (empty: the EN 16931 one).
func convertible(t testing.TB, specID string) (*model.Invoice, []byte) {
	t.Helper()
	for seed := range uint64(200) {
		inv := model.RandomInvoice(rand.New(rand.NewPCG(seed, 7)), model.RandomOptions{})
		if specID == "" {
			specID = EN16931SpecID
		}
		inv.ProcessControl = &model.ProcessControl{SpecificationID: specID}
		var buf bytes.Buffer
		if err := ubl.Write(&buf, inv, ubl.WriteOptions{}); err != nil {
			continue
		}
		if res, losses, err := Convert(context.Background(), Direction{UBL, CII}, buf.Bytes(), Options{}); err == nil && res != nil && len(losses) == 0 {
			return inv, buf.Bytes()
		}
	}
	t.Fatal("no random invoice converts")
	return nil, nil
}

func readAny(t *testing.T, data []byte) *model.Invoice {
	t.Helper()
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if ubl.Detect(doc) {
		r, err := ubl.Read(doc)
		if err != nil {
			t.Fatal(err)
		}
		return r.Invoice
	}
	r, err := cii.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	return r.Invoice
}

func TestParseDirection(t *testing.T) {
	for _, name := range Directions() {
		d, err := ParseDirection(name)
		if err != nil || d.String() != name {
			t.Errorf("ParseDirection(%q) = %v, %v", name, d, err)
		}
	}
	want := []string{"ubl-to-cii", "cii-to-ubl", "ubl-to-xrechnung", "cii-to-xrechnung", "xrechnung-to-ubl", "xrechnung-to-cii"}
	if !slices.Equal(Directions(), want) {
		t.Errorf("Directions() = %v, want %v", Directions(), want)
	}
	for _, bad := range []string{"", "ubl-to-ubl", "ubl-to-facturx", "UBL-to-CII", "ubl-cii"} {
		_, err := ParseDirection(bad)
		var de *DirectionError
		if !errors.As(err, &de) || !errors.Is(err, ErrUnknownDirection) {
			t.Fatalf("ParseDirection(%q) error %v, want a DirectionError", bad, err)
		}
		if !slices.Equal(de.Supported, want) || de.Given != bad {
			t.Errorf("DirectionError = %+v", de)
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not list %s", err, w)
			}
		}
	}
	// Convert refuses a direction value that is not supported too.
	if _, _, err := Convert(context.Background(), Direction{UBL, UBL}, nil, Options{}); !errors.Is(err, ErrUnknownDirection) {
		t.Errorf("Convert(ubl-to-ubl) error %v", err)
	}
}

func TestConvertRoundTripEqualModel(t *testing.T) {
	ctx := context.Background()
	inv, src := convertible(t, "")
	res, losses, err := Convert(ctx, Direction{UBL, CII}, src, Options{})
	if err != nil || len(losses) > 0 {
		t.Fatalf("ubl-to-cii: %v %v", err, losses)
	}
	if res.TargetSyntax != CII || res.Profile != "en16931" || len(res.Changes) != 0 {
		t.Errorf("result %s %s %v", res.TargetSyntax, res.Profile, res.Changes)
	}
	got := readAny(t, res.XML)
	if d := model.Diff(inv, got); len(d) > 0 {
		t.Errorf("CII target differs from the source model at %v", d)
	}
	back, losses, err := Convert(ctx, Direction{CII, UBL}, res.XML, Options{})
	if err != nil || len(losses) > 0 {
		t.Fatalf("cii-to-ubl: %v %v", err, losses)
	}
	if d := model.Diff(inv, readAny(t, back.XML)); len(d) > 0 {
		t.Errorf("UBL after two conversions differs at %v", d)
	}
}

func TestConvertUnconsumedNodeIsLoss(t *testing.T) {
	_, src := convertible(t, "")
	// An element the UBL mapping does not carry, inside the seller party.
	mod := bytes.Replace(src, []byte("<cac:Party>"), []byte("<cac:Party><cbc:WebsiteURI>https://example.com</cbc:WebsiteURI>"), 1)
	if bytes.Equal(mod, src) {
		t.Fatal("no cac:Party in the source")
	}
	res, losses, err := Convert(context.Background(), Direction{UBL, CII}, mod, Options{})
	if err != nil || res != nil {
		t.Fatalf("got result %v, error %v; want losses", res, err)
	}
	if len(losses) != 1 {
		t.Fatalf("losses %+v, want exactly the WebsiteURI", losses)
	}
	l := losses[0]
	if l.Path != "/Invoice[1]/AccountingSupplierParty[1]/Party[1]/WebsiteURI[1]" || l.BT != "BG-4" || l.Line < 1 || l.Reason == "" {
		t.Errorf("loss %+v", l)
	}
	if !strings.HasPrefix(l.Msg(), "BG-4: ") {
		t.Errorf("Msg %q", l.Msg())
	}
}

func TestConvertWriterRefusalIsLoss(t *testing.T) {
	inv, _ := convertible(t, "")
	// Two preceding invoice references (BG-3, 0..n in EN 16931): CII D16B
	// holds only one ram:InvoiceReferencedDocument, so the CII writer
	// refuses the model.
	inv.PrecedingInvoices = []model.PrecedingInvoice{{ID: "INV-1"}, {ID: "INV-2"}}
	var buf bytes.Buffer
	if err := ubl.Write(&buf, inv, ubl.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	res, losses, err := Convert(context.Background(), Direction{UBL, CII}, buf.Bytes(), Options{})
	if err != nil || res != nil || len(losses) != 1 {
		t.Fatalf("res %v losses %+v err %v", res, losses, err)
	}
	if losses[0].BT != "BG-3" || !strings.Contains(losses[0].Reason, "CII writer") {
		t.Errorf("loss %+v", losses[0])
	}
}

func TestDiffLosses(t *testing.T) {
	inv, _ := convertible(t, "")
	other := readAny(t, func() []byte {
		var buf bytes.Buffer
		if err := ubl.Write(&buf, inv, ubl.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}())
	if l := diffLosses(inv, other, UBL); len(l) != 0 {
		t.Fatalf("equal models give losses %+v", l)
	}
	old := *inv.Lines[0].NetAmount
	other.Lines[0].NetAmount = model.Dec(old.Add(model.MustParseDecimal("0.01")))
	other.Seller.Name = ""
	l := diffLosses(inv, other, UBL)
	byPath := map[string]Loss{}
	for _, x := range l {
		byPath[x.Path] = x
	}
	net, ok := byPath["model:/lines/0/net_amount"]
	if !ok || net.BT != "BT-131" || !strings.Contains(net.Reason, old.String()) || !strings.Contains(net.Reason, old.Add(model.MustParseDecimal("0.01")).String()) {
		t.Errorf("net amount loss %+v (all: %+v)", net, l)
	}
	name, ok := byPath["model:/seller/name"]
	if !ok || name.BT != "BT-27" || !strings.Contains(name.Reason, "became absent") {
		t.Errorf("seller name loss %+v (all: %+v)", name, l)
	}
}

func TestXRechnungDirections(t *testing.T) {
	ctx := context.Background()
	_, plain := convertible(t, EN16931SpecID)
	_, xr := convertible(t, XRechnungSpecID)

	// xrechnung-to-X refuses what is not XRechnung, in either syntax.
	if _, _, err := Convert(ctx, Direction{XRechnung, CII}, plain, Options{}); !errors.Is(err, ErrNotXRechnung) {
		t.Errorf("plain UBL as XRechnung: %v", err)
	}
	res, losses, err := Convert(ctx, Direction{XRechnung, CII}, xr, Options{})
	if err != nil || len(losses) > 0 {
		t.Fatalf("xrechnung-to-cii: %v %v", err, losses)
	}
	wantChange := Change{Location: "/process_control/specification_id", BT: "BT-24", From: XRechnungSpecID, To: EN16931SpecID}
	if len(res.Changes) != 1 || res.Changes[0].Reason == "" {
		t.Fatalf("changes %+v", res.Changes)
	}
	if c := res.Changes[0]; c.Location != wantChange.Location || c.BT != wantChange.BT || c.From != wantChange.From || c.To != wantChange.To {
		t.Errorf("change %+v, want %+v", c, wantChange)
	}
	if got := readAny(t, res.XML); got.ProcessControl.SpecificationID != EN16931SpecID {
		t.Errorf("target BT-24 %q", got.ProcessControl.SpecificationID)
	}
	// The CII XRechnung written by cii-to-xrechnung is detected as
	// XRechnung in CII syntax.
	cx, losses, err := Convert(ctx, Direction{CII, XRechnung}, res.XML, Options{})
	if err != nil || len(losses) > 0 || cx.TargetSyntax != CII || cx.Profile != XRechnung {
		t.Fatalf("cii-to-xrechnung: %+v %v %v", cx, losses, err)
	}
	if _, _, err := Convert(ctx, Direction{XRechnung, UBL}, cx.XML, Options{}); err != nil {
		t.Errorf("xrechnung (CII) to ubl: %v", err)
	}

	// X-to-xrechnung sets BT-24 and a missing BT-23, keeps the source
	// syntax unless asked, and lists both changes.
	for _, syn := range []string{"", CII} {
		res, losses, err := Convert(ctx, Direction{UBL, XRechnung}, plain, Options{Syntax: syn})
		if err != nil || len(losses) > 0 {
			t.Fatalf("ubl-to-xrechnung syntax=%q: %v %v", syn, err, losses)
		}
		want := UBL
		if syn != "" {
			want = syn
		}
		if res.TargetSyntax != want {
			t.Errorf("syntax=%q: target %s", syn, res.TargetSyntax)
		}
		got := readAny(t, res.XML)
		if got.ProcessControl.SpecificationID != XRechnungSpecID || got.ProcessControl.BusinessProcess == "" {
			t.Errorf("target process control %+v", got.ProcessControl)
		}
		bts := map[string]bool{}
		for _, c := range res.Changes {
			bts[c.BT] = true
		}
		if !bts["BT-24"] {
			t.Errorf("changes %+v lack BT-24", res.Changes)
		}
		if got.ProcessControl.BusinessProcess == DefaultBusinessProcess && !bts["BT-23"] {
			t.Errorf("BT-23 set but not listed: %+v", res.Changes)
		}
	}
	if _, _, err := Convert(ctx, Direction{UBL, CII}, plain, Options{Syntax: CII}); !errors.Is(err, ErrBadOption) {
		t.Errorf("syntax option on ubl-to-cii: %v", err)
	}
}

func TestConvertRefusesOtherInput(t *testing.T) {
	ctx := context.Background()
	_, src := convertible(t, "")
	if _, _, err := Convert(ctx, Direction{CII, UBL}, src, Options{}); !errors.Is(err, ErrSourceSyntax) {
		t.Errorf("UBL given as CII: %v", err)
	}
	if _, _, err := Convert(ctx, Direction{UBL, CII}, []byte("<a><b></a>"), Options{}); !errors.Is(err, ErrParse) {
		t.Errorf("malformed: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := Convert(cctx, Direction{UBL, CII}, src, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestGateIsCalled(t *testing.T) {
	_, src := convertible(t, "")
	var gotSyntax, gotProfile string
	gate := func(_ context.Context, syntax, profile string, xml []byte) (any, bool, error) {
		gotSyntax, gotProfile = syntax, profile
		return len(xml), true, nil
	}
	res, _, err := Convert(context.Background(), Direction{UBL, CII}, src, Options{Profile: "peppol", Gate: gate})
	if err != nil || !res.Valid || res.Report != len(res.XML) || gotSyntax != CII || gotProfile != "peppol" {
		t.Errorf("gate: %v %+v %s %s", err, res, gotSyntax, gotProfile)
	}
	failing := func(context.Context, string, string, []byte) (any, bool, error) {
		return nil, false, errors.New("engine down")
	}
	if _, _, err := Convert(context.Background(), Direction{UBL, CII}, src, Options{Gate: failing}); err == nil || !strings.Contains(err.Error(), "engine down") {
		t.Errorf("gate error not passed: %v", err)
	}
}

func TestConvertReportedChanges(t *testing.T) {
	inv, _ := convertible(t, "")
	inv.TaxCurrencyCode = inv.CurrencyCode
	inv.Seller.TaxRegistrationID = "123/456/7890"
	inv.Seller.TaxRegistrationScheme = "LOC"
	var buf bytes.Buffer
	if err := ubl.Write(&buf, inv, ubl.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	res, losses, err := Convert(context.Background(), Direction{UBL, CII}, buf.Bytes(), Options{})
	if err != nil || res == nil {
		t.Fatalf("res %v losses %+v err %v", res, losses, err)
	}
	byLoc := map[string]Change{}
	for _, c := range res.Changes {
		byLoc[c.Location] = c
	}
	if c, ok := byLoc["/seller/tax_registration_scheme"]; !ok || c.BT != "BT-32" || c.From != "LOC" || c.To != "FC" ||
		c.Reason != "UBL tax scheme LOC has no EN 16931 meaning; CII marks BT-32 with FC" {
		t.Errorf("BT-32 change missing or wrong: %+v", res.Changes)
	}
	if c, ok := byLoc["/tax_currency_code"]; !ok || c.BT != "BT-6" || c.From != inv.CurrencyCode || c.To != "" {
		t.Errorf("BT-6 change missing or wrong: %+v", res.Changes)
	}
	back := readAny(t, res.XML)
	if back.TaxCurrencyCode != "" || back.Seller.TaxRegistrationID != "123/456/7890" {
		t.Errorf("CII target: BT-6 %q, BT-32 %q", back.TaxCurrencyCode, back.Seller.TaxRegistrationID)
	}
}
