package wire

// Report is the validation report returned by the validate operations.
// Valid is true iff there is no fatal finding and Complete is true.
type Report struct {
	Profile    string       `json:"profile" doc:"The profile that was applied."`
	Syntax     string       `json:"syntax" enum:"ubl,cii,orderx,fatturapa" doc:"The syntax of the validated document."`
	Valid      bool         `json:"valid" doc:"True iff there is no fatal finding and every layer ran to the end."`
	Complete   bool         `json:"complete" doc:"True iff XML parsing, XSD and every rule set of the profile ran to the end."`
	Counts     Counts       `json:"counts"`
	Findings   []Finding    `json:"findings" doc:"Findings in the order the reference implementation reports them; empty when none."`
	DurationMS int64        `json:"duration_ms" doc:"Wall time of the validation in milliseconds."`
	Rulesets   []RulesetRef `json:"rulesets" doc:"Exact name and version of every rule set and schema applied."`
}

// Counts counts the findings of a report by effective severity.
type Counts struct {
	Fatal   int `json:"fatal"`
	Warning int `json:"warning"`
}

// Finding is one fired assertion, one XSD error or one information message.
type Finding struct {
	RuleID       string   `json:"rule_id" doc:"Rule identifier (e.g. BR-CO-10); XSD for schema errors."`
	Flag         string   `json:"flag" enum:"fatal,warning,information" doc:"Effective severity after the profile's overrides."`
	DeclaredFlag string   `json:"declared_flag,omitempty" enum:"fatal,warning,information" doc:"The rule set's own flag, present only where a profile override changed it."`
	Message      string   `json:"message"`
	Location     string   `json:"location" doc:"XPath of the node, in the reference's form."`
	Test         string   `json:"test" doc:"The assertion's test expression (empty for XSD findings)."`
	Source       string   `json:"source" doc:"xsd, or the name of the rule set that fired."`
	Line         int      `json:"line,omitempty" doc:"Line number in the submitted document, where known."`
	Terms        []string `json:"terms" doc:"BT/BG identifiers the rule names."`
}

// RulesetRef names one applied rule set or schema and its exact version.
type RulesetRef struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Flag values of a Finding.
const (
	FlagFatal       = "fatal"
	FlagWarning     = "warning"
	FlagInformation = "information"
)

// Recount recomputes Counts from Findings and Valid from Counts and Complete.
// It is the single place the verdict rule lives.
func (r *Report) Recount() {
	r.Counts = Counts{}
	for _, f := range r.Findings {
		switch f.Flag {
		case FlagFatal:
			r.Counts.Fatal++
		case FlagWarning:
			r.Counts.Warning++
		}
	}
	r.Valid = r.Complete && r.Counts.Fatal == 0
}
