package compiler

import (
	"context"
	"fmt"
	"path"
)

// maxIncludeDepth bounds nested includes (a cycle is reported before this).
const maxIncludeDepth = 32

// stageInclude replaces every sch:include by the document element of the
// referenced file, resolved relative to the including file, recursively.
func stageInclude(_ context.Context, u *Unit) error {
	return u.resolveIncludes(u.Root, []string{u.Files[u.Root.File]})
}

func (u *Unit) resolveIncludes(n *Node, chain []string) error {
	for i, c := range n.Children {
		if c.IsText() {
			continue
		}
		if !c.isSch("include") {
			if err := u.resolveIncludes(c, chain); err != nil {
				return err
			}
			continue
		}
		href, ok := c.Attr("href")
		if !ok || href == "" {
			return &Error{File: u.Files[c.File], Line: c.Line, Msg: "sch:include without href"}
		}
		if hash := indexByte(href, '#'); hash >= 0 {
			return &Error{File: u.Files[c.File], Line: c.Line, Construct: "include fragment", Msg: fmt.Sprintf("include href %q with a fragment is not supported", href)}
		}
		target := path.Join(path.Dir(u.Files[c.File]), href)
		for _, f := range chain {
			if f == target {
				return &Error{File: u.Files[c.File], Line: c.Line, Msg: fmt.Sprintf("include cycle: %v -> %s", chain, target)}
			}
		}
		if len(chain) >= maxIncludeDepth {
			return &Error{File: u.Files[c.File], Line: c.Line, Msg: "includes nested too deeply"}
		}
		inc, err := u.loadFile(target)
		if err != nil {
			return fmt.Errorf("%s:%d: include %q: %w", u.Files[c.File], c.Line, href, err)
		}
		if err := u.resolveIncludes(inc, append(chain, target)); err != nil {
			return err
		}
		n.Children[i] = inc
	}
	return nil
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}
