package engine

// Tables is the flat, data-only form of one compiled Schematron rule set, as
// emitted by the compiler (rulegen) into rulesets/<set>/zz_generated_<syntax>.go.
//
// XPath expressions are stored as source text; Load compiles each one exactly
// once with engine/xpath. Every index is into a slice of the same Tables value,
// so the generated literal is flat (no pointers) and cheap to build.
type Tables struct {
	Name    string // rule set name, e.g. "EN16931"
	Version string // rule set version, e.g. "1.3.16"
	Syntax  string // "ubl", "cii", ...
	// Source is the main .sch path relative to the shared directory and
	// SHA256 the hex digest of it and every file it includes (see compiler.SourceHash).
	Source string
	SHA256 string
	Phase  string // the phase that was selected ("#ALL" for all patterns)
	// QueryBinding is the schema's queryBinding ("xslt2", or "" for the
	// XSLT 1 default); it selects the form of finding locations.
	QueryBinding string

	Namespaces []Namespace
	// Lets holds every variable in slot order: Lets[i] is bound to Env.Vars[i].
	Lets        []Let
	Patterns    []Pattern
	Rules       []Rule
	Checks      []Check
	Diagnostics []Diagnostic
	// Files lists the source files; SourcePos.File indexes it.
	Files []string
	// Documents are the XML files the expressions load with
	// fn:document('uri') (e.g. Factur-X code list databases). Load reads
	// them from the directory given with WithDocumentRoot.
	Documents []DocumentRef
	// Functions are the xsl:function definitions of the source (BR-FR's
	// custom:* helpers), read by the compiler so that a load compiles them
	// from the tables instead of reading and parsing the .sch again;
	// FunctionNamespaces are the prefixes their expressions see (the
	// source root's xmlns declarations and its <ns> elements), sorted.
	Functions          []XSLFunction
	FunctionNamespaces []Namespace
}

// XSLFunction is one xsl:function of a Schematron source: params, then
// variables evaluated in order (each sees the params and the variables
// before it), then the xsl:sequence result (rulesets/xslfunc compiles it).
type XSLFunction struct {
	Space, Local string
	As           string // declared result type
	Params       []XSLBinding
	Vars         []XSLBinding
	Result       string // the xsl:sequence select
	Line         int
}

// XSLBinding is an xsl:param (Expr empty) or xsl:variable of an XSLFunction.
type XSLBinding struct {
	Name string // as written, without '$' (may carry a prefix)
	As   string
	Expr string
}

// DocumentRef maps a literal document() URI to a file.
type DocumentRef struct {
	URI  string // as written in the expression
	Path string // relative to the shared directory, slash-separated
}

// Namespace is one <ns prefix uri> declaration.
type Namespace struct{ Prefix, URI string }

// LetScope says when a variable is evaluated.
type LetScope uint8

// Variable scopes, mirroring where a <let> appears in the schema.
const (
	ScopeSchema  LetScope = iota // once per document, context = document node
	ScopePattern                 // once per pattern and document, context = document node
	ScopeRule                    // for every context node the rule fires on
)

// Let is one variable binding. Schema-scope lets come first in Tables.Lets;
// an expression sees the schema lets, the lets of its pattern and those of its
// rule that precede it (a later let of the same name shadows an earlier one).
type Let struct {
	Name  string
	Expr  string
	Scope LetScope
	Pos   SourcePos
}

// Pattern is one active pattern, in schema order.
type Pattern struct {
	ID        string
	FirstRule int32 // index into Tables.Rules
	NumRules  int32
	FirstLet  int32 // pattern-scope lets: Tables.Lets[FirstLet : FirstLet+NumLets]
	NumLets   int32
	Pos       SourcePos
}

// Rule is one <rule>. Its checks are Tables.Checks[FirstCheck : FirstCheck+NumChecks]
// and its lets Tables.Lets[FirstLet : FirstLet+NumLets].
type Rule struct {
	ID         string
	Context    string // XSLT match pattern source
	Flag       string // the rule's own flag attribute (informational)
	Pattern    int32
	FirstCheck int32
	NumChecks  int32
	FirstLet   int32
	NumLets    int32
	Pos        SourcePos
}

// CheckKind distinguishes assert from report.
type CheckKind uint8

// Check kinds.
const (
	KindAssert CheckKind = iota // fires when the test's effective boolean value is false
	KindReport                  // fires when it is true
)

// String returns "assert" or "report".
func (k CheckKind) String() string {
	if k == KindReport {
		return "report"
	}
	return "assert"
}

// Check is one <assert> or <report>.
type Check struct {
	ID          string
	Flag        string // as written on the assert/report (fatal, warning, information or empty)
	Role        string
	Kind        CheckKind
	Test        string
	Message     []MessagePart
	Diagnostics []int32 // indexes into Tables.Diagnostics
	Pos         SourcePos
}

// PartKind says what a message part is.
type PartKind uint8

// Message part kinds.
const (
	PartText    PartKind = iota // literal text
	PartValueOf                 // <value-of select>: Text is the XPath expression
	PartName                    // <name path?>: Text is the path expression, "" for the context node
)

// MessagePart is one piece of an assertion or diagnostic message.
type MessagePart struct {
	Kind PartKind
	Text string
}

// Diagnostic is one <diagnostic id>.
type Diagnostic struct {
	ID      string
	Message []MessagePart
	Pos     SourcePos
}

// SourcePos points back into the Schematron sources.
type SourcePos struct {
	File int32 // index into Tables.Files
	Line int32
}

// VarScope returns the variables visible to an expression of pattern p and
// rule r (r < 0: a pattern let or none; p < 0: a schema let) that precede the
// let with index limit in Tables.Lets (limit < 0: no let limit), by name (as
// written, without '$') to slot. Later lets shadow earlier ones.
//
// Pattern lets are global, as the ISO skeleton makes them (top-level
// xsl:variables): every rule of every pattern sees the lets of all patterns
// (XRechnung declares its shared lets in a dedicated pattern); a pattern let
// sees the pattern lets declared before it.
func (t *Tables) VarScope(p, r, limit int32) map[string]int {
	vars := map[string]int{}
	ns := t.NumSchemaLets()
	for i := int32(0); i < ns; i++ {
		if limit >= 0 && i >= limit {
			return vars
		}
		vars[t.Lets[i].Name] = int(i)
	}
	if p < 0 {
		return vars
	}
	for _, pt := range t.Patterns {
		for i := pt.FirstLet; i < pt.FirstLet+pt.NumLets; i++ {
			if r < 0 && limit >= 0 && i >= limit {
				break
			}
			vars[t.Lets[i].Name] = int(i)
		}
	}
	if r < 0 {
		return vars
	}
	rule := t.Rules[r]
	for i := rule.FirstLet; i < rule.FirstLet+rule.NumLets; i++ {
		if limit >= 0 && i >= limit {
			break
		}
		vars[t.Lets[i].Name] = int(i)
	}
	return vars
}

// NumSchemaLets returns how many lets at the start of Lets have schema scope.
func (t *Tables) NumSchemaLets() int32 {
	var n int32
	for n < int32(len(t.Lets)) && t.Lets[n].Scope == ScopeSchema {
		n++
	}
	return n
}
