package compiler

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"

	"github.com/einvoice-dev/einvoice/engine"
)

// documentCall finds fn:document / fn:doc calls with a literal URI.
var documentCall = regexp.MustCompile(`\b(?:document|doc)\(\s*(?:'([^']*)'|"([^"]*)")\s*\)`)

// collectDocuments records every literal document('uri') the expressions
// load, resolved (as XSLT resolves it, against the base URI of the file the
// expression is written in) to a path relative to Root. The file must exist;
// its content is read by engine.Load, not embedded in the tables.
func (u *Unit) collectDocuments(t *engine.Tables) error {
	seen := map[string]bool{}
	add := func(expr string, pos engine.SourcePos) error {
		for _, m := range documentCall.FindAllStringSubmatch(expr, -1) {
			uri := m[1] + m[2]
			if seen[uri] {
				continue
			}
			seen[uri] = true
			rel := path.Join(path.Dir(t.Files[pos.File]), uri)
			if _, err := os.Stat(filepath.Join(u.Config.Root, filepath.FromSlash(rel))); err != nil {
				return &Error{File: t.Files[pos.File], Line: int(pos.Line), Construct: "document()", Msg: fmt.Sprintf("document %q: %v", uri, err)}
			}
			t.Documents = append(t.Documents, engine.DocumentRef{URI: uri, Path: rel})
		}
		return nil
	}
	for _, l := range t.Lets {
		if err := add(l.Expr, l.Pos); err != nil {
			return err
		}
	}
	for _, r := range t.Rules {
		if err := add(r.Context, r.Pos); err != nil {
			return err
		}
	}
	for _, c := range t.Checks {
		if err := add(c.Test, c.Pos); err != nil {
			return err
		}
		for _, m := range c.Message {
			if m.Kind != engine.PartText {
				if err := add(m.Text, c.Pos); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
