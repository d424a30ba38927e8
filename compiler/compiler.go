package compiler

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/vm"
)

// Config says what to compile.
type Config struct {
	// Root is the directory paths are relative to (the shared directory);
	// Main is the main .sch file relative to Root.
	Root string
	Main string
	// Name, Version and Syntax are copied into the tables.
	Name, Version, Syntax string
	// Phase selects a phase; "" means the schema's defaultPhase, or #ALL.
	Phase string
	// Package is the Go package name of the emitted file and Func the name of
	// the generated method (on type Set) returning the tables.
	Package string
	Func    string
	// Functions are the extension functions the rule set's XPath may call.
	Functions *vm.Functions
	// XSLFunctions copies the xsl:function definitions of Main and the
	// prefixes they see (rulesets/xslfunc.ParseXSLFunctions) into the tables
	// (engine.Tables.Functions), for rule sets whose functions are compiled
	// from their XPath bodies (BR-FR's custom:*).
	XSLFunctions bool
}

// Unit is the state passed from stage to stage.
type Unit struct {
	Config Config
	Files  []string // source files, relative to Root; Files[0] is Main
	Data   [][]byte // contents of Files
	Root   *Node    // document element of the main file (after include: the full tree)
	Schema *Schema  // from the model stage on
	Tables *engine.Tables
	Output []byte // emitted Go source
	// Timings records the duration of each stage that ran.
	Timings []Timing
	// Rewrites records what each rewrite changed.
	Rewrites []RewriteStat
	// IndexNames is the number of distinct names in the context index.
	IndexNames int

	ruleset *engine.Ruleset // loaded by the xpath stage
	index   []string        // per rule: the names its context can match
}

// Timing is the wall time of one stage.
type Timing struct {
	Stage    string
	Duration time.Duration
}

// Stage is one named compiler step.
type Stage struct {
	Name string
	Run  func(ctx context.Context, u *Unit) error
	Dump func(u *Unit, w io.Writer) error
}

// Stages returns the compiler's stages in execution order.
func Stages() []Stage {
	return []Stage{
		{"load", stageLoad, dumpTree},
		{"include", stageInclude, dumpTree},
		{"model", stageModel, dumpSchema},
		{"abstract", stageAbstract, dumpSchema},
		{"phase", stagePhase, dumpSchema},
		{"lets", stageLets, dumpTables},
		{"xpath", stageXPath, dumpTables},
		{"rewrite", stageRewrite, dumpTables},
		{"index", stageIndex, dumpTables},
		{"emit", stageEmit, dumpOutput},
	}
}

// StageNames lists the stage names in order.
func StageNames() []string {
	var names []string
	for _, s := range Stages() {
		names = append(names, s.Name)
	}
	return names
}

// Compile runs every stage. If dumpStage is not empty, it stops after that
// stage and writes its dump to dump.
func Compile(ctx context.Context, cfg Config, dumpStage string, dump io.Writer) (*Unit, error) {
	u := &Unit{Config: cfg}
	found := dumpStage == ""
	for _, s := range Stages() {
		if s.Name == dumpStage {
			found = true
		}
	}
	if !found {
		return nil, fmt.Errorf("compiler: unknown stage %q (stages: %v)", dumpStage, StageNames())
	}
	for _, s := range Stages() {
		if err := ctx.Err(); err != nil {
			return u, fmt.Errorf("compile %s: %w", cfg.Main, err)
		}
		start := time.Now()
		if err := s.Run(ctx, u); err != nil {
			return u, fmt.Errorf("compile %s: stage %s: %w", cfg.Main, s.Name, err)
		}
		u.Timings = append(u.Timings, Timing{s.Name, time.Since(start)})
		if s.Name == dumpStage {
			if err := s.Dump(u, dump); err != nil {
				return u, fmt.Errorf("compile %s: dump %s: %w", cfg.Main, s.Name, err)
			}
			return u, nil
		}
	}
	return u, nil
}

// Error is a compile error anchored to the Schematron source.
type Error struct {
	File string
	Line int
	// Rule is the assert/report/let/rule id or a description of the item.
	Rule string
	// Construct is the offending construct (e.g. an unsupported XPath function).
	Construct string
	Msg       string
	Err       error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s:%d", e.File, e.Line)
	if e.Rule != "" {
		s += ": " + e.Rule
	}
	if e.Construct != "" {
		s += ": " + e.Construct
	}
	s += ": " + e.Msg
	return s
}

func (e *Error) Unwrap() error { return e.Err }
