package xslfunc

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// call calls u:local in the XRechnung registry (the Peppol functions and
// u:decimalOrZero), and fails t unless the function's form for the
// frame-free tests (register) gives the same value, or refuses where the
// function raises an error.
func call(t *testing.T, local string, args ...xdm.Sequence) (xdm.Sequence, error) {
	t.Helper()
	fs := XRechnung()
	fn, ok := fs.Lookup(NSPeppol, local, len(args))
	scalar, sok := fs.LookupScalar(NSPeppol, local, len(args))
	if !ok || !sok {
		t.Fatalf("u:%s#%d not registered (scalar form: %v)", local, len(args), sok)
	}
	doc, err := xmltree.Parse([]byte("<a/>"), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	res, err := fn(context.Background(), doc, args)
	if sres, sok := scalar(doc, args); sok != (err == nil) || (sok && !slices.Equal(sres, res)) {
		t.Errorf("u:%s(%v): the scalar form %v, %v; the function %v, %v", local, args, sres, sok, res, err)
	}
	return res, err
}

func str(s string) xdm.Sequence { return xdm.Sequence{xdm.String(s)} }

func dec(s string) xdm.Sequence {
	d, ok := xdm.ParseDecimal(s)
	if !ok {
		panic(s)
	}
	return xdm.Sequence{xdm.Dec(d)}
}

// TestPeppolFunctions checks each function on identifiers whose validity
// was established with the published algorithms (GS1, Norwegian MOD11, ATO
// ABN, Greek AFM, Swedish Luhn, Belgian MOD97, Italian partita IVA), and the
// edge cases where the XSLT bodies give a particular answer.
func TestPeppolFunctions(t *testing.T) {
	cases := []struct {
		fn   string
		args []xdm.Sequence
		want bool
	}{
		{"gln", []xdm.Sequence{str("4000001000005")}, true},
		{"gln", []xdm.Sequence{str("4000001000006")}, false},
		{"gln", []xdm.Sequence{str("5790000435975")}, true},
		{"gln", []xdm.Sequence{str("")}, false},
		{"gln", []xdm.Sequence{nil}, false},
		{"gln", []xdm.Sequence{str("0")}, true}, // no weighted digits: check digit 0
		{"mod11", []xdm.Sequence{str("923609016")}, true},
		{"mod11", []xdm.Sequence{str("923609017")}, false},
		{"mod11", []xdm.Sequence{str("000000000")}, false}, // number($val) > 0 fails
		{"abn", []xdm.Sequence{str("51824753556")}, true},
		{"abn", []xdm.Sequence{str("51824753557")}, false},
		{"abn", []xdm.Sequence{str("5182475355")}, false}, // a missing character: () = 0
		{"TinVerification", []xdm.Sequence{str("094014201")}, true},
		{"TinVerification", []xdm.Sequence{str("094014202")}, false},
		{"TinVerification", []xdm.Sequence{str("09401420")}, false},
		{"checkSEOrgnr", []xdm.Sequence{str("5560360793")}, true},
		{"checkSEOrgnr", []xdm.Sequence{str("5560360794")}, false},
		{"checkSEOrgnr", []xdm.Sequence{str("556036-0793")}, false},
		{"checkSEOrgnr", []xdm.Sequence{str("556036079")}, false}, // no check digit: NaN
		{"mod97-0208", []xdm.Sequence{str("0123456749")}, true},
		{"mod97-0208", []xdm.Sequence{str("0123456748")}, false},
		{"checkPIVAseIT", []xdm.Sequence{str("IT12345678903")}, true},
		{"checkPIVAseIT", []xdm.Sequence{str("IT12345678901")}, false},
		{"checkPIVAseIT", []xdm.Sequence{str("IT1234567890")}, false},
		{"checkPIVAseIT", []xdm.Sequence{str("DE123")}, true},
		{"checkCodiceIPA", []xdm.Sequence{str("UFABCD")}, true},
		{"checkCodiceIPA", []xdm.Sequence{str("UFAB-D")}, false},
		{"checkCodiceIPA", []xdm.Sequence{nil}, false},
		{"checkCF", []xdm.Sequence{str("RSSMRA85T10A562S")}, true},
		{"checkCF", []xdm.Sequence{str("RSSMRA85T10A56AS")}, false},
		{"checkCF", []xdm.Sequence{str("12345678901")}, true},
		{"checkCF", []xdm.Sequence{str("1234567890")}, false},
		{"checkCF16", []xdm.Sequence{str("RSSMRA85T10A562S")}, true},
		{"slack", []xdm.Sequence{dec("10.00"), dec("10.02"), dec("0.02")}, true},
		{"slack", []xdm.Sequence{dec("10.00"), dec("10.03"), dec("0.02")}, false},
		{"slack", []xdm.Sequence{dec("10.00"), {xdm.Untyped("9.98")}, dec("0.02")}, true},
		{"slack", []xdm.Sequence{{xdm.Integer(10)}, dec("10"), {xdm.Integer(0)}}, true},
	}
	for _, c := range cases {
		got, err := call(t, c.fn, c.args...)
		if err != nil {
			t.Errorf("u:%s(%v): %v", c.fn, c.args, err)
			continue
		}
		if len(got) != 1 || got[0].T != xdm.TBoolean || got[0].B != c.want {
			t.Errorf("u:%s(%v) = %v, want %v", c.fn, c.args, got, c.want)
		}
	}
	if got, err := call(t, "checkPIVA", str("12345678903")); err != nil || got[0].T != xdm.TInteger || got[0].Decimal().String() != "0" {
		t.Errorf("checkPIVA of a valid partita IVA = %v %v, want 0", got, err)
	}
	if got, err := call(t, "checkPIVA", str("1234567890X")); err != nil || got[0].Decimal().String() != "1" {
		t.Errorf("checkPIVA of a non-integer = %v %v, want 1", got, err)
	}
	if got, err := call(t, "addPIVA", str("12345678903"), xdm.Sequence{xdm.Integer(0)}); err != nil || got[0].Decimal().String() != "50" {
		t.Errorf("addPIVA = %v %v, want 50", got, err)
	}
}

func TestPeppolFunctionErrors(t *testing.T) {
	for _, c := range []struct {
		fn   string
		args []xdm.Sequence
		code string
	}{
		{"mod97-0208", []xdm.Sequence{str("ABCDEFGH12")}, xdm.ErrInvalidCast},                 // xs:integer('ABCDEFGH')
		{"slack", []xdm.Sequence{{xdm.Double(1)}, dec("1"), dec("0")}, xdm.ErrType},           // no double -> decimal promotion
		{"slack", []xdm.Sequence{{xdm.Untyped("x")}, dec("1"), dec("0")}, xdm.ErrInvalidCast}, // untyped cast fails
		{"slack", []xdm.Sequence{nil, dec("1"), dec("0")}, xdm.ErrType},                       // the empty sequence
		{"TinVerification", []xdm.Sequence{nil}, xdm.ErrType},                                 // as="xs:string": () not allowed
		{"gln", []xdm.Sequence{{xdm.String("1"), xdm.String("2")}}, xdm.ErrType},
		{"checkSEOrgnr", []xdm.Sequence{str("\u0665560360793")}, xdm.ErrOverflow}, // Arabic-Indic digit at a doubled position: idiv NaN
		{"addPIVA", []xdm.Sequence{str("+123"), {xdm.Integer(0)}}, xdm.ErrInvalidCast},
	} {
		_, err := call(t, c.fn, c.args...)
		var xe *xdm.Error
		if !errors.As(err, &xe) || xe.Code != c.code {
			t.Errorf("u:%s(%v): error %v, want %s", c.fn, c.args, err, c.code)
		}
	}
}
