package cii

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/model"
)

// tenLines returns the full model with ten lines.
func tenLines() *model.Invoice {
	inv := fullInvoice()
	base := inv.Lines[0]
	inv.Lines = inv.Lines[:0]
	for i := range 10 {
		l := base
		l.ID = fmt.Sprint(i + 1)
		inv.Lines = append(inv.Lines, l)
	}
	return inv
}

func benchDocs(b *testing.B) map[string][]byte {
	docs := map[string][]byte{}
	if data, err := os.ReadFile(filepath.Join(sharedDir(b), "corpus/en16931/cii/examples/CII_example1.xml")); err == nil {
		docs["CII_example1"] = data
	} else {
		b.Fatalf("CII_example1.xml: %v (set EINVOICE_SHARED)", err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, tenLines(), WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	docs["10_lines"] = buf.Bytes()
	return docs
}

// BenchmarkRead: Read of a parsed document (parsing excluded).
func BenchmarkRead(b *testing.B) {
	for name, data := range benchDocs(b) {
		doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Read(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWrite: Write of the model read from each document.
func BenchmarkWrite(b *testing.B) {
	for name, data := range benchDocs(b) {
		doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
		if err != nil {
			b.Fatal(err)
		}
		res, err := Read(doc)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := Write(io.Discard, res.Invoice, WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
