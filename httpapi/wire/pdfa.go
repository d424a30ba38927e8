package wire

// PDFAValidation is the body of POST /v1/pdfa/validate: veraPDF's verdict
// and nothing else (docs/PDF.md, "veraPDF worker").
type PDFAValidation struct {
	Compliant      bool          `json:"compliant" doc:"veraPDF's verdict for checked_flavour."`
	Flavour        string        `json:"flavour" doc:"The PDF/A flavour the file declares in its XMP metadata (pdfaid:part and pdfaid:conformance, e.g. 3b); empty when it declares none."`
	CheckedFlavour string        `json:"checked_flavour" doc:"The flavour the file was checked against: the flavour query parameter, or with auto the declared flavour (3b when none is declared)."`
	FailedRules    []PDFARule    `json:"failed_rules" doc:"Every veraPDF rule with at least one failed check, by specification, clause and test number; empty when compliant."`
	Validator      ValidatorInfo `json:"validator"`
	DurationMS     int64         `json:"duration_ms" doc:"Wall time of the validation in milliseconds, queueing for a free worker included."`
}

// PDFARule is one failed veraPDF rule.
type PDFARule struct {
	Specification string `json:"specification" doc:"e.g. ISO 19005-3:2012"`
	Clause        string `json:"clause" doc:"Clause of the specification, e.g. 6.6.2.1"`
	TestNumber    int    `json:"test_number" doc:"veraPDF's test number within the clause."`
	Description   string `json:"description" doc:"veraPDF's description of the rule."`
	FailedChecks  int    `json:"failed_checks" doc:"How many objects of the file fail the rule."`
}

// ValidatorInfo names the tool that gave a verdict.
type ValidatorInfo struct {
	Name    string `json:"name" doc:"veraPDF"`
	Version string `json:"version" doc:"veraPDF library version, e.g. 1.30.2"`
}
