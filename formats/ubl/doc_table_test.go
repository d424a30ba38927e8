package ubl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	tableBegin = "<!-- BEGIN UBL BINDINGS (generated from formats/ubl.Bindings: go test ./formats/ubl -run TestFormatsDoc -update) -->"
	tableEnd   = "<!-- END UBL BINDINGS -->"
)

// bindingsMarkdown renders Bindings as the table of docs/FORMATS.md.
func bindingsMarkdown() string {
	var b strings.Builder
	b.WriteString("| BT/BG | Name | UBL XPath (from the root) | Notes |\n|---|---|---|---|\n")
	esc := strings.NewReplacer("|", `\|`)
	for _, x := range Bindings {
		b.WriteString("| " + x.BT + " | " + esc.Replace(x.Name) + " | `" + esc.Replace(x.XPath) + "` | " + esc.Replace(x.Note) + " |\n")
	}
	return b.String()
}

// TestFormatsDoc: the UBL binding table of docs/FORMATS.md is generated
// from Bindings (and rewritten with -update); only the text between the
// markers is touched.
func TestFormatsDoc(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "FORMATS.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, tableBegin), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: markers not found", path)
	}
	want := s[:i] + tableBegin + "\n" + bindingsMarkdown() + s[j:]
	if want == s {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the UBL binding table is stale; run go test ./formats/ubl -run TestFormatsDoc -update", path)
}

// TestBindingsAttribute: every binding's XPath attributes its own nodes to
// its BT (the table is consistent with BTFor) and ids are unique.
func TestBindingsAttribute(t *testing.T) {
	ix := newBTIndex()
	seen := map[string]bool{}
	for _, b := range Bindings {
		if seen[b.BT] {
			t.Errorf("%s listed twice", b.BT)
		}
		seen[b.BT] = true
		got := ix.BTFor("/Invoice[1]/" + b.XPath + "/@someAttr")
		if got != b.BT && matchKey(b.XPath) != "" {
			// Shared paths (BT-31/BT-32, BG-20/BG-21, ...) resolve to the first.
			first := ""
			for _, c := range Bindings {
				if matchKey(c.XPath) == matchKey(b.XPath) {
					first = c.BT
					break
				}
			}
			if got != first {
				t.Errorf("%s: BTFor(%s) = %s", b.BT, b.XPath, got)
			}
		}
	}
	if got := ix.BTFor("/CreditNote[1]/CreditNoteLine[3]/CreditedQuantity[1]/@unitCode"); got != "BT-129" {
		t.Errorf("credit note quantity: %s", got)
	}
	if got := ix.BTFor("/Invoice[1]/UBLExtensions[1]"); got != "" {
		t.Errorf("unknown element: %q", got)
	}
}

func TestBTForContainers(t *testing.T) {
	ix := newBTIndex()
	for path, want := range map[string]string{
		"/Invoice[1]/TaxTotal[2]":                                                                "BT-110",
		"/CreditNote[1]/ContractDocumentReference[1]/DocumentType[1]":                            "BT-12",
		"/Invoice[1]/AccountingSupplierParty[1]/Party[1]/Person[1]":                              "BG-4",
		"/Invoice[1]/AccountingSupplierParty[1]":                                                 "BG-4",
		"/Invoice[1]/InvoiceLine[1]/Price[1]/AllowanceCharge[1]/Foo[1]":                          "BT-147",
		"/Invoice[1]/PrepaidPayment[1]":                                                          "",
		"/Invoice[1]/InvoiceLine[1]/SubInvoiceLine[2]":                                           "BG-DEX-01",
		"/Invoice[1]/InvoiceLine[1]/SubInvoiceLine[2]/SubInvoiceLine[1]":                         "BG-DEX-01",
		"/CreditNote[1]/CreditNoteLine[1]/SubCreditNoteLine[1]/@foo":                             "BG-DEX-01",
		"/Invoice[1]/InvoiceLine[1]/SubInvoiceLine[2]/Item[1]/Name[1]":                           "BT-153",
		"/Invoice[1]/InvoiceLine[1]/SubInvoiceLine[1]/SubInvoiceLine[3]/Price[1]/PriceAmount[1]": "BT-146",
		"/Invoice[1]/UBLVersionID[1]":                                                            "",
	} {
		if got := ix.BTFor(path); got != want {
			t.Errorf("BTFor(%s) = %q, want %q", path, got, want)
		}
	}
}
