package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

func writeInvoiceJSON(t *testing.T, dir string, edit func(map[string]any)) string {
	t.Helper()
	b, err := model.EncodeInvoice(model.RandomInvoice(rand.New(rand.NewPCG(5, 5)), model.RandomOptions{Lines: 2, Categories: []model.VATCategoryCode{model.VATStandard}}))
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		var inv map[string]any
		if err := json.Unmarshal(b, &inv); err != nil {
			t.Fatal(err)
		}
		edit(inv)
		if b, err = json.Marshal(inv); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "invoice.json")
	mustWrite(t, p, b)
	return p
}

func TestGenerateCLI(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"EINVOICE_SHARED": sharedDir()}
	inv := writeInvoiceJSON(t, dir, nil)
	out := filepath.Join(dir, "out.xml")
	code, _, errs := cli(t, env, "generate", "--syntax", "ubl", "--profile", "peppol", inv, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	x, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(x, []byte("poacc:billing:3.0</cbc:CustomizationID>")) {
		t.Fatalf("output %v %.300s", err, x)
	}
	// A request body file ({"invoice": ...}) works too, and the CLI output
	// is the same document as the file output.
	body := filepath.Join(dir, "body.json")
	raw, _ := os.ReadFile(inv)
	mustWrite(t, body, append(append([]byte(`{"invoice":`), raw...), '}'))
	code, stdout, _ := cli(t, env, "generate", "--syntax", "ubl", "--profile", "peppol", body)
	if code != 0 || stdout != string(x) {
		t.Fatalf("body file: exit %d, same output %v", code, stdout == string(x))
	}
	code, stdout, _ = cli(t, env, "generate", "--syntax", "cii", inv)
	if code != 0 || !strings.Contains(stdout, "CrossIndustryInvoice") {
		t.Fatalf("cii: exit %d %.200s", code, stdout)
	}
	// Refused: a rule violation, printed with its body path and rule id.
	bad := writeInvoiceJSON(t, dir, func(m map[string]any) {
		s := m["seller"].(map[string]any)
		delete(s, "vat_id")
		delete(s, "tax_registration_id")
	})
	code, stdout, errs = cli(t, env, "generate", "--syntax", "ubl", "--profile", "en16931", bad)
	if code != 1 || stdout != "" || !strings.Contains(errs, "body.invoice.seller.vat_id:") || !strings.Contains(errs, "rule BR-S-02") {
		t.Fatalf("refused: exit %d\n%s", code, errs)
	}
	code, stdout, errs = cli(t, env, "generate", "--syntax", "ubl", "--profile", "en16931", "--no-validate", bad)
	if code != 0 || !strings.Contains(stdout, "<Invoice") || !strings.Contains(errs, "fatal") {
		t.Fatalf("--no-validate: exit %d %s", code, errs)
	}
	// Decode problems: every one, with its path.
	broken := writeInvoiceJSON(t, dir, func(m map[string]any) { delete(m, "id"); m["type_code"] = "nope" })
	code, _, errs = cli(t, env, "generate", broken)
	if code != 1 || !strings.Contains(errs, "body.invoice.id: ") || !strings.Contains(errs, "body.invoice.type_code: ") {
		t.Fatalf("decode problems: exit %d\n%s", code, errs)
	}
	for _, args := range [][]string{{"generate"}, {"generate", "--syntax", "edi", inv}, {"generate", inv, inv}, {"generate", "/no/such.json"}} {
		if code, _, _ := cli(t, env, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestConvertCLI(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"EINVOICE_SHARED": sharedDir()}
	ex5 := filepath.Join(sharedDir(), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example5.xml")
	code, stdout, errs := cli(t, env, "convert", "--to", "cii", ex5)
	if code != 0 || !strings.Contains(stdout, "CrossIndustryInvoice") || !strings.Contains(errs, "changed BT-32") {
		t.Fatalf("ubl->cii: exit %d %s", code, errs)
	}
	cii := filepath.Join(dir, "ex5.xml")
	mustWrite(t, cii, []byte(stdout))
	code, stdout, _ = cli(t, env, "convert", "--to", "ubl", cii, "-o", filepath.Join(dir, "back.xml"))
	if code != 0 || stdout != "" {
		t.Fatalf("cii->ubl: exit %d", code)
	}
	lossy := filepath.Join(sharedDir(), "corpus", "xrechnung-testsuite", "technical-cases", "cius", "01.01_comprehensive_test_ubl.xml")
	code, _, errs = cli(t, env, "convert", "--to", "cii", lossy)
	if code != 1 || !strings.Contains(errs, "[conversion_loss]") || !strings.Contains(errs, "BG-3") {
		t.Fatalf("loss: exit %d\n%s", code, errs)
	}
	code, stdout, _ = cli(t, env, "convert", "--from", "xrechnung", "--to", "cii", lossy)
	if code != 1 || stdout != "" {
		t.Fatalf("xrechnung source with a loss: exit %d", code)
	}
	for _, args := range [][]string{{"convert", ex5}, {"convert", "--to", "pdf", ex5}, {"convert", "--to", "ubl", ex5}, {"convert", "--to", "cii", "--syntax", "ubl", ex5}} {
		if code, _, _ := cli(t, env, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestRepairCLI(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"EINVOICE_SHARED": sharedDir()}
	src, err := os.ReadFile(filepath.Join(sharedDir(), "corpus", "en16931", "ubl", "examples", "ubl-tc434-example1.xml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.xml")
	mustWrite(t, broken, bytes.Replace(src, []byte("<cbc:IssueDate>2015-01-09</cbc:IssueDate>"), []byte("<cbc:IssueDate>09.01.2015</cbc:IssueDate>"), 1))
	code, stdout, errs := cli(t, env, "repair", "--profile", "en16931", broken)
	if code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	var res wire.RepairResponse
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Changes) != 1 || res.Changes[0].BT != "BT-2" || !res.Report.Valid {
		t.Fatalf("json %v %+v", err, res.Changes)
	}
	code, stdout, _ = cli(t, env, "repair", "--profile", "en16931", "--xml-only", broken)
	if code != 0 || stdout != res.XML {
		t.Fatalf("--xml-only: exit %d", code)
	}
	// Still invalid after repair (a rule repair does not touch): exit 1.
	worse := filepath.Join(dir, "worse.xml")
	mustWrite(t, worse, bytes.Replace(src, []byte("<cbc:IssueDate>2015-01-09</cbc:IssueDate>"), []byte("<cbc:IssueDate>03/04/2015</cbc:IssueDate>"), 1))
	if code, _, errs := cli(t, env, "repair", "--profile", "en16931", worse); code != 1 || !strings.Contains(errs, "still invalid") {
		t.Fatalf("unrepairable: exit %d %s", code, errs)
	}
	if code, _, _ := cli(t, env, "repair"); code != 2 {
		t.Errorf("no file: exit %d", code)
	}
}
