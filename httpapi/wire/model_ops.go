package wire

// ConvertXRechnungTargetParams are the query parameters of the
// *-to-xrechnung routes: the target is validated for xrechnung unless the
// caller names another profile.
type ConvertXRechnungTargetParams struct {
	Profile string `query:"profile" default:"xrechnung" enum:"en16931,peppol,xrechnung,ro_cius,br_fr,facturx_minimum,facturx_basicwl,facturx_basic,facturx_en16931,facturx_extended" doc:"Profile the converted document is validated against before it is returned."`
	Syntax  string `query:"syntax" enum:"ubl,cii" doc:"Syntax of the XRechnung output; default the syntax of the source."`
}

// RepairResponse is the 200 body of repair/ubl and repair/cii.
type RepairResponse struct {
	XML     string          `json:"xml" required:"true" doc:"The repaired document (the source byte for byte when nothing changed)."`
	Changes []RepairChange  `json:"changes" required:"true" doc:"Every value changed: dates first, then totals; empty when none."`
	Unfixed []RepairProblem `json:"unfixed,omitempty" doc:"What was found wrong and left as it was (e.g. an ambiguous date)."`
	Report  Report          `json:"report" required:"true" doc:"Validation report of the repaired document for the profile."`
}

// RepairChange is one value a repair changed.
type RepairChange struct {
	Location string `json:"location" required:"true" doc:"XPath of the changed element, in the reference form."`
	BT       string `json:"bt" required:"true" doc:"The business term (e.g. BT-2)."`
	From     string `json:"from" required:"true"`
	To       string `json:"to" required:"true"`
	Reason   string `json:"reason" required:"true"`
}

// RepairProblem is something a repair found wrong and did not change.
type RepairProblem struct {
	Location string `json:"location" required:"true"`
	BT       string `json:"bt,omitempty"`
	Value    string `json:"value,omitempty"`
	Reason   string `json:"reason" required:"true"`
}
