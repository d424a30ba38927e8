package xslfunc

import "github.com/einvoice-dev/einvoice/engine/vm"

// Peppol returns a fresh registry of the Peppol utility functions (u:*),
// as declared in PEPPOL-EN16931-{UBL,CII}.sch 3.0.x.
func Peppol() *vm.Functions {
	fs := vm.NewFunctions()
	fs.Register(NSPeppol, "gln", 1, gln)
	fs.Register(NSPeppol, "slack", 3, slack)
	fs.RegisterScalar(NSPeppol, "slack", 3, slackScalar)
	fs.Register(NSPeppol, "mod11", 1, mod11)
	fs.Register(NSPeppol, "mod97-0208", 1, mod97_0208)
	fs.Register(NSPeppol, "checkCodiceIPA", 1, checkCodiceIPA)
	fs.Register(NSPeppol, "checkCF", 1, checkCF)
	fs.Register(NSPeppol, "checkCF16", 1, checkCF16)
	fs.Register(NSPeppol, "checkPIVAseIT", 1, checkPIVAseIT)
	fs.Register(NSPeppol, "checkPIVA", 1, checkPIVA)
	fs.Register(NSPeppol, "addPIVA", 2, addPIVA)
	fs.Register(NSPeppol, "abn", 1, abn)
	fs.Register(NSPeppol, "TinVerification", 1, tinVerification)
	fs.Register(NSPeppol, "checkSEOrgnr", 1, checkSEOrgnr)
	return fs
}

// XRechnung returns a fresh registry of the functions the XRechnung 2.5.0
// rules declare: the Peppol utility functions (merged in from Peppol
// BIS 3) plus u:decimalOrZero (CII).
func XRechnung() *vm.Functions {
	fs := Peppol()
	fs.Register(NSPeppol, "decimalOrZero", 1, decimalOrZero)
	return fs
}
