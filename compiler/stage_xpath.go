package compiler

import (
	"context"
	"errors"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// stageXPath parses and statically checks every expression (rule contexts,
// tests, lets, value-of and name paths) exactly as the runtime will: by
// loading the tables with engine.Load. A failure becomes a compile error
// naming file:line, the assert/let/rule and the XPath construct.
func stageXPath(_ context.Context, u *Unit) error {
	opts := []engine.Option{engine.WithDocumentRoot(u.Config.Root)}
	if u.Config.Functions != nil {
		opts = append(opts, engine.WithFunctions(u.Config.Functions))
	}
	rs, err := engine.Load(u.Tables, opts...)
	if err != nil {
		var le *engine.LoadError
		if errors.As(err, &le) {
			ce := &Error{File: le.File, Line: le.Line, Rule: le.Item, Msg: le.Err.Error(), Err: err}
			var xe *xpath.Error
			if errors.As(le.Err, &xe) {
				ce.Construct = xe.Construct
				ce.Msg = xe.Msg + " in " + caret(le.Expr, xe.Offset)
			}
			return ce
		}
		return err
	}
	u.ruleset = rs
	return nil
}

// caret renders an expression with a caret under offset.
func caret(expr string, offset int) string {
	if offset < 0 || offset > len(expr) {
		return "\n\t" + expr
	}
	pad := make([]byte, offset)
	for i := range pad {
		pad[i] = ' '
		if expr[i] == '\t' {
			pad[i] = '\t'
		}
	}
	return "\n\t" + expr + "\n\t" + string(pad) + "^"
}
