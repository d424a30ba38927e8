package ubl

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
)

func example1(b *testing.B) []byte {
	data, err := os.ReadFile(filepath.Join(sharedDir(b), "corpus/en16931/ubl/examples/ubl-tc434-example1.xml"))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func tenLines() *model.Invoice {
	return model.RandomInvoice(rand.New(rand.NewPCG(7, 7)), model.RandomOptions{Lines: 10})
}

// BenchmarkRead measures Read alone (the document is parsed once).
func BenchmarkRead(b *testing.B) {
	var ten bytes.Buffer
	if err := Write(&ten, tenLines(), WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{{"example1", example1(b)}, {"10lines", ten.Bytes()}} {
		doc, err := xmltree.Parse(c.data, xmltree.DefaultLimits())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				if _, err := Read(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkWrite(b *testing.B) {
	doc, err := xmltree.Parse(example1(b), xmltree.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	res, err := Read(doc)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		inv  *model.Invoice
	}{{"example1", res.Invoice}, {"10lines", tenLines()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Write(io.Discard, c.inv, WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func ExampleWrite() {
	inv := &model.Invoice{ID: "1", IssueDate: model.NewDate(2024, 1, 2), TypeCode: "381", CurrencyCode: "EUR"}
	var buf bytes.Buffer
	_ = Write(&buf, inv, WriteOptions{})
	doc, _ := xmltree.Parse(buf.Bytes(), xmltree.DefaultLimits())
	res, _ := Read(doc)
	fmt.Println(res.CreditNote, res.Invoice.ID, res.Invoice.IssueDate)
	// Output: true 1 2024-01-02
}
