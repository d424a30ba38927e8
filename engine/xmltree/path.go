package xmltree

import (
	"strconv"
	"strings"
)

// Path returns the location of n in the form the reference Schematron
// implementation reports: local names with the 1-based position among
// preceding siblings of the same expanded name, e.g.
// "/Invoice[1]/InvoiceLine[2]/Price[1]"; attributes end in "/@currencyID",
// text nodes in "/text()[k]", comments in "/comment()[k]", processing
// instructions in "/processing-instruction(target)[k]"; the document node is "/".
func (d *Document) Path(n NodeID) string {
	if n == 0 {
		return "/"
	}
	var chain [64]NodeID
	steps := chain[:0]
	for c := n; c > 0; c = d.nodes[c].parent {
		steps = append(steps, c)
	}
	var b strings.Builder
	b.Grow(24 * len(steps))
	for i := len(steps) - 1; i >= 0; i-- {
		c := steps[i]
		nd := &d.nodes[c]
		b.WriteByte('/')
		switch nd.kind {
		case KindAttribute:
			b.WriteByte('@')
			b.WriteString(d.names[nd.name].local)
			continue
		case KindElement:
			b.WriteString(d.names[nd.name].local)
		case KindText:
			b.WriteString("text()")
		case KindComment:
			b.WriteString("comment()")
		case KindPI:
			b.WriteString("processing-instruction(")
			b.WriteString(d.names[nd.name].local)
			b.WriteByte(')')
		}
		pos := 1
		for s := nd.prev; s != None; s = d.nodes[s].prev {
			if d.nodes[s].kind == nd.kind && d.nodes[s].name == nd.name {
				pos++
			}
		}
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(pos))
		b.WriteByte(']')
	}
	return b.String()
}
