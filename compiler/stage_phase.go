package compiler

import (
	"context"
	"fmt"
)

// PhaseAll selects every pattern.
const PhaseAll = "#ALL"

// stagePhase keeps the patterns of the selected phase, in schema order.
// The phase is Config.Phase, else the schema's defaultPhase, else #ALL
// (which is also what "#DEFAULT" means without a defaultPhase).
func stagePhase(_ context.Context, u *Unit) error {
	s := u.Schema
	phase := u.Config.Phase
	if phase == "" || phase == "#DEFAULT" {
		phase = s.DefaultPhase
	}
	if phase == "" {
		phase = PhaseAll
	}
	s.SelectedPhase = phase
	if phase == PhaseAll {
		return nil
	}
	var ph *Phase
	for _, p := range s.Phases {
		if p.ID == phase {
			ph = p
		}
	}
	if ph == nil {
		return u.errPos(s.Pos, "", "phase", fmt.Sprintf("no phase %q", phase))
	}
	active := map[string]bool{}
	for _, id := range ph.Active {
		active[id] = true
	}
	var out []*Pattern
	for _, p := range s.Patterns {
		if active[p.ID] {
			out = append(out, p)
			delete(active, p.ID)
		}
	}
	for id := range active {
		return u.errPos(ph.Pos, "phase "+ph.ID, "sch:active", fmt.Sprintf("no pattern %q", id))
	}
	s.Patterns = out
	// Phase lets behave like schema lets for the selected phase.
	s.Lets = append(append([]*Let(nil), s.Lets...), ph.Lets...)
	return nil
}
