package render

import (
	"os"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// fullInvoice reads the UBL writer's golden document, which sets every
// field of the model.
func fullInvoice() *model.Invoice {
	return mustRead("../ubl/testdata/full-invoice.golden.xml")
}

func mustRead(path string) *model.Invoice {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	s, err := Read(b)
	if err != nil {
		panic(err)
	}
	return s.Invoice
}

func readSource(t testing.TB, path string) *Source {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Read(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}
