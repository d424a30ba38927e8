package xslfunc

import (
	"context"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Peppol returns a fresh registry of the Peppol utility functions (u:*),
// as declared in PEPPOL-EN16931-{UBL,CII}.sch 3.0.x, each with its form
// for the frame-free tests (register).
func Peppol() *vm.Functions {
	fs := vm.NewFunctions()
	for _, f := range peppolFuncs {
		register(fs, f.local, f.arity, f.fn)
	}
	return fs
}

// peppolFuncs are the Go functions of the Peppol utility functions.
var peppolFuncs = []struct {
	local string
	arity int
	fn    vm.Func
}{
	{"gln", 1, gln}, {"slack", 3, slack}, {"mod11", 1, mod11}, {"mod97-0208", 1, mod97_0208},
	{"checkCodiceIPA", 1, checkCodiceIPA}, {"checkCF", 1, checkCF}, {"checkCF16", 1, checkCF16},
	{"checkPIVAseIT", 1, checkPIVAseIT}, {"checkPIVA", 1, checkPIVA}, {"addPIVA", 2, addPIVA},
	{"abn", 1, abn}, {"TinVerification", 1, tinVerification}, {"checkSEOrgnr", 1, checkSEOrgnr},
}

// register gives fs the Go function fn as u:local and, for the
// frame-free tests (vm.ExtScalar), the same function without a context:
// no answer where fn raises an error, which the interpreted call then
// raises. The functions are pure, short and read their arguments
// atomized (atom), so a node and its untypedAtomic value, which is what
// the frame-free tests pass, give the same answer (every case of
// TestPeppolFunctions and TestPeppolFunctionErrors checks both forms):
// a document's answers may be kept (vm.Functions.MemoScalar).
func register(fs *vm.Functions, local string, arity int, fn vm.Func) {
	fs.Register(NSPeppol, local, arity, fn)
	fs.RegisterScalar(NSPeppol, local, arity, func(doc *xmltree.Document, args []xdm.Sequence) (xdm.Sequence, bool) {
		r, err := fn(context.Background(), doc, args)
		return r, err == nil
	})
	fs.MemoScalar(NSPeppol, local, arity)
}

// XRechnung returns a fresh registry of the functions the XRechnung 2.5.0
// rules declare: the Peppol utility functions (merged in from Peppol
// BIS 3) plus u:decimalOrZero (CII).
func XRechnung() *vm.Functions {
	fs := Peppol()
	register(fs, "decimalOrZero", 1, decimalOrZero)
	return fs
}
