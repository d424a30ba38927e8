package compiler

import (
	"github.com/einvoice-dev/einvoice/engine"
)

// Schema is the Schematron model of a rule set.
type Schema struct {
	Title         string
	QueryBinding  string
	DefaultPhase  string
	Namespaces    []engine.Namespace
	Lets          []*Let
	Phases        []*Phase
	Patterns      []*Pattern
	Diagnostics   []*Diagnostic
	SelectedPhase string // set by the phase stage
	Pos           Pos
}

// Pos is a position in the sources.
type Pos struct {
	File int // index into Unit.Files
	Line int
}

// Phase is a <phase> with its active pattern ids and lets.
type Phase struct {
	ID     string
	Active []string
	Lets   []*Let
	Pos    Pos
}

// Pattern is a <pattern>: concrete, abstract (abstract="true") or an
// instance of an abstract pattern (is-a, with params).
type Pattern struct {
	ID       string
	Abstract bool
	IsA      string
	Params   []Param
	Lets     []*Let
	Rules    []*Rule
	Pos      Pos
}

// Param is an abstract-pattern parameter.
type Param struct {
	Name, Value string
	Pos         Pos
}

// Let is a <let name value>.
type Let struct {
	Name, Value string
	Pos         Pos
}

// Rule is a <rule>. Abstract rules (abstract="true") are only used through <extends rule>.
type Rule struct {
	ID       string
	Context  string
	Flag     string
	Abstract bool
	Lets     []*Let
	Extends  []string // ids of abstract rules, in the order the <extends> appear among Items
	Checks   []*Check
	// Items keeps the order of lets, checks and extends for extends expansion.
	Items []RuleItem
	Pos   Pos
}

// RuleItem is one child of a rule in document order: exactly one field is set.
type RuleItem struct {
	Let     *Let
	Check   *Check
	Extends string
}

// Check is an <assert> or <report>.
type Check struct {
	Kind        engine.CheckKind
	ID          string
	Flag        string
	Role        string
	Test        string
	Message     []engine.MessagePart
	Diagnostics []string
	Pos         Pos
}

// Diagnostic is a <diagnostic id>.
type Diagnostic struct {
	ID      string
	Message []engine.MessagePart
	Pos     Pos
}
