package xpath

import "testing"

func TestSmoke(t *testing.T) {
	d := parseDoc(t, testDoc)
	for _, c := range []struct{ expr, want string }{
		{"cbc:ID", "INV-1"},
		{"count(cac:InvoiceLine)", "3"},
		{"sum(cac:InvoiceLine/xs:decimal(cbc:LineExtensionAmount))", "107.3"},
		{"cac:AllowanceCharge/cbc:ChargeIndicator = false()", "true"},
		{"0.1 + 0.2 = 0.3", "true"},
		{"round(2.5)", "3"},
		{"round(-2.5)", "-2"},
		{"substring('12345', 1.5, 2.6)", "234"},
		{"//cbc:ID[. = '2']/../cbc:LineExtensionAmount/@currencyID", "EUR"},
		{"string-join(for $l in cac:InvoiceLine return $l/cbc:ID, ',')", "1,2,3"},
	} {
		got, err := evalString(t, d, c.expr, rootElement(d))
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s = %q, want %q", c.expr, got, c.want)
		}
	}
}
