package compiler

import (
	"context"
)

// rewrite is one optimisation of the tables. Each lives in its own file
// (rewrite_<name>.go) with its own test; it must preserve the reference's
// results exactly.
type rewrite struct {
	name string
	run  func(u *Unit) (changed int, err error)
}

// rewrites lists the optimisations in the order they run. None yet: the
// runtime's context index is the first optimisation and lives in the engine;
// candidates (code-list contains() to set lookups, constant folding) are
// listed in docs/ENGINE.md.
func rewrites() []rewrite { return nil }

func stageRewrite(_ context.Context, u *Unit) error {
	for _, rw := range rewrites() {
		n, err := rw.run(u)
		if err != nil {
			return err
		}
		u.Rewrites = append(u.Rewrites, RewriteStat{Name: rw.name, Changed: n})
	}
	return nil
}

// RewriteStat says how many expressions a rewrite changed.
type RewriteStat struct {
	Name    string
	Changed int
}
