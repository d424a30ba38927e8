package repair

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

func changesByBT(cs []Change) map[string]Change {
	m := map[string]Change{}
	for _, c := range cs {
		m[c.BT] = c
	}
	return m
}

// TestRepairTotalsUBL breaks totals and a VAT breakdown amount of an
// official example; the repair must restore exactly the original bytes and
// list each change with its from and to values.
func TestRepairTotalsUBL(t *testing.T) {
	orig := sharedFile(t, example4)
	broken := orig
	for _, r := range [][2]string{
		{`<cbc:LineExtensionAmount currencyID="DKK">4000.00<`, `<cbc:LineExtensionAmount currencyID="DKK">4100.00<`},
		{`<cbc:TaxInclusiveAmount currencyID="DKK">4675.00<`, `<cbc:TaxInclusiveAmount currencyID="DKK">4775.00<`},
		{`<cbc:PayableAmount currencyID="DKK">4675.00<`, `<cbc:PayableAmount currencyID="DKK">  9999.99 <`},
		{`<cbc:TaxableAmount currencyID="DKK">2500.00<`, `<cbc:TaxableAmount currencyID="DKK">2400.00<`},
		{`<cbc:TaxAmount currencyID="DKK">675.00<`, `<cbc:TaxAmount currencyID="DKK">700<`},
	} {
		broken = replaceOnce(t, broken, r[0], r[1])
	}
	res, err := RepairUBL(context.Background(), broken)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"BT-116": {"2400.00", "2500.00"},
		"BT-110": {"700", "675.00"},
		"BT-106": {"4100.00", "4000.00"},
		"BT-112": {"4775.00", "4675.00"},
		"BT-115": {"9999.99", "4675.00"},
	}
	got := changesByBT(res.Changes)
	if len(res.Changes) != len(want) {
		t.Errorf("changes %+v, want %d", res.Changes, len(want))
	}
	for bt, ft := range want {
		c, ok := got[bt]
		if !ok || c.From != ft[0] || c.To != ft[1] || c.Reason == "" || c.Location == "" {
			t.Errorf("%s: change %+v, want %s -> %s", bt, c, ft[0], ft[1])
		}
	}
	if got["BT-106"].Location != "/Invoice[1]/LegalMonetaryTotal[1]/LineExtensionAmount[1]" {
		t.Errorf("BT-106 location %q", got["BT-106"].Location)
	}
	fixedBack := replaceOnce(t, orig, `<cbc:PayableAmount currencyID="DKK">4675.00<`, `<cbc:PayableAmount currencyID="DKK">  4675.00 <`)
	if !bytes.Equal(res.XML, fixedBack) {
		t.Errorf("repaired document differs from the original beyond the repaired values:\n%s", firstDiff(res.XML, fixedBack))
	}
	if len(res.Unfixed) != 0 {
		t.Errorf("unfixed %+v", res.Unfixed)
	}

	// An intact document is returned unchanged.
	res, err = RepairUBL(context.Background(), orig)
	if err != nil || len(res.Changes) != 0 || !bytes.Equal(res.XML, orig) {
		t.Errorf("intact document: %v %+v", err, res.Changes)
	}
}

// TestRepairVATTolerance: a VAT category tax amount within BR-CO-17's
// tolerance is kept (and the totals follow it); one outside is recomputed.
func TestRepairVATTolerance(t *testing.T) {
	orig := sharedFile(t, example4)
	within := replaceOnce(t, orig, `<cbc:TaxAmount currencyID="DKK">375.00<`, `<cbc:TaxAmount currencyID="DKK">375.50<`)
	res, err := RepairUBL(context.Background(), within)
	if err != nil {
		t.Fatal(err)
	}
	got := changesByBT(res.Changes)
	if _, ok := got["BT-117"]; ok {
		t.Errorf("BT-117 within tolerance was changed: %+v", res.Changes)
	}
	for bt, to := range map[string]string{"BT-110": "675.50", "BT-112": "4675.50", "BT-115": "4675.50"} {
		if got[bt].To != to {
			t.Errorf("%s: %+v, want to %s", bt, got[bt], to)
		}
	}
	outside := replaceOnce(t, orig, `<cbc:TaxAmount currencyID="DKK">375.00<`, `<cbc:TaxAmount currencyID="DKK">390.00<`)
	res, err = RepairUBL(context.Background(), outside)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 1 || res.Changes[0].BT != "BT-117" || res.Changes[0].From != "390.00" || res.Changes[0].To != "375.00" {
		t.Errorf("changes %+v", res.Changes)
	}
	if !bytes.Equal(res.XML, orig) {
		t.Errorf("not restored:\n%s", firstDiff(res.XML, orig))
	}
}

// TestRepairDatesInPlace: each date form in a real document; converted
// dates keep their surrounding whitespace, ambiguous, invalid and CDATA
// dates are reported and left as written, comments are not touched.
func TestRepairDatesInPlace(t *testing.T) {
	orig := sharedFile(t, example4)
	issue := `<cbc:IssueDate>2013-04-10</cbc:IssueDate>`
	for _, c := range []struct {
		name, text, want string // want "" = left alone and reported
		bt               string
	}{
		{"dots", "<cbc:IssueDate> 10.04.2013\n</cbc:IssueDate>", "<cbc:IssueDate> 2013-04-10\n</cbc:IssueDate>", "BT-2"},
		{"compact", "<cbc:IssueDate>20130410</cbc:IssueDate>", issue, "BT-2"},
		{"slashes year first", "<cbc:IssueDate>2013/04/10</cbc:IssueDate>", issue, "BT-2"},
		{"day first", issue + "<cbc:DueDate>25-04-2013</cbc:DueDate>", issue + "<cbc:DueDate>2013-04-25</cbc:DueDate>", "BT-9"},
		{"ambiguous", issue + "<cbc:DueDate>03/04/2013</cbc:DueDate>", "", "BT-9"},
		{"invalid", "<cbc:IssueDate>31.02.2013</cbc:IssueDate>", "", "BT-2"},
		{"cdata", "<cbc:IssueDate><![CDATA[10.04.2013]]></cbc:IssueDate>", "", "BT-2"},
		{"comment", "<!-- <cbc:IssueDate>10.04.2013</cbc:IssueDate> -->" + issue, "<!-- <cbc:IssueDate>10.04.2013</cbc:IssueDate> -->" + issue, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := replaceOnce(t, orig, issue, c.text)
			res, err := RepairUBL(context.Background(), src)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.bt == "":
				if len(res.Changes)+len(res.Unfixed) != 0 || !bytes.Equal(res.XML, src) {
					t.Errorf("changed: %+v %+v", res.Changes, res.Unfixed)
				}
			case c.want == "":
				if len(res.Changes) != 0 || len(res.Unfixed) != 1 || res.Unfixed[0].BT != c.bt || res.Unfixed[0].Reason == "" {
					t.Errorf("changes %+v unfixed %+v", res.Changes, res.Unfixed)
				}
				if !bytes.Equal(res.XML, src) {
					t.Errorf("document changed:\n%s", firstDiff(res.XML, src))
				}
			default:
				if len(res.Changes) != 1 || res.Changes[0].BT != c.bt || len(res.Unfixed) != 0 {
					t.Fatalf("changes %+v unfixed %+v", res.Changes, res.Unfixed)
				}
				want := replaceOnce(t, orig, issue, c.want)
				if !bytes.Equal(res.XML, want) {
					t.Errorf("bytes:\n%s", firstDiff(res.XML, want))
				}
			}
		})
	}
}

func TestRepairCIITotalsOnly(t *testing.T) {
	orig := sharedFile(t, ciiEx1)
	broken := replaceOnce(t, orig, "<ram:GrandTotalAmount>250.33<", "<ram:GrandTotalAmount>205.33<")
	res, err := RepairCII(context.Background(), broken)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 1 || res.Changes[0].BT != "BT-112" || res.Changes[0].From != "205.33" || res.Changes[0].To != "250.33" {
		t.Fatalf("changes %+v", res.Changes)
	}
	if !bytes.Equal(res.XML, orig) {
		t.Errorf("not restored:\n%s", firstDiff(res.XML, orig))
	}
	// A UBL document is not CII, and the reverse.
	if _, err := RepairCII(context.Background(), sharedFile(t, example4)); !errors.Is(err, ErrSyntax) {
		t.Errorf("UBL as CII: %v", err)
	}
	if _, err := RepairUBL(context.Background(), orig); !errors.Is(err, ErrSyntax) {
		t.Errorf("CII as UBL: %v", err)
	}
}

func TestRepairMissingTotalReported(t *testing.T) {
	orig := sharedFile(t, example4)
	src := replaceOnce(t, orig, `<cbc:PayableAmount currencyID="DKK">4675.00</cbc:PayableAmount>`, "")
	res, err := RepairUBL(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 0 || len(res.Unfixed) != 1 || res.Unfixed[0].BT != "BT-115" || res.Unfixed[0].Value != "4675.00" {
		t.Errorf("changes %+v unfixed %+v", res.Changes, res.Unfixed)
	}
}

// firstDiff shows where two documents start to differ.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-60)
	return "got:  " + string(a[lo:min(len(a), i+60)]) + "\nwant: " + string(b[lo:min(len(b), i+60)])
}
