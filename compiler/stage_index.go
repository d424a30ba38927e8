package compiler

import (
	"context"
	"errors"

	"github.com/einvoice-dev/einvoice/engine"
)

// stageIndex computes the context index (which expanded names each rule's
// context can match, "*" for any) from the compiled patterns. The runtime
// builds the same index at load from the same compiled patterns; here it is
// recorded for the dump and written as a comment next to each rule of the
// emitted tables, so a reviewer sees which rules the engine will try on which
// elements.
func stageIndex(_ context.Context, u *Unit) error {
	if u.ruleset == nil {
		var err error
		if u.ruleset, err = engine.Load(u.Tables, engine.WithDocumentRoot(u.Config.Root), engine.WithFunctions(u.Config.Functions)); err != nil {
			return err
		}
	}
	names, perRule := u.ruleset.IndexStats()
	if len(perRule) != len(u.Tables.Rules) {
		return errors.New("index: rule count mismatch")
	}
	u.index = perRule
	u.IndexNames = names
	return nil
}
