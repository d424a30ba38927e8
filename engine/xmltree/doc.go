// Package xmltree owns the parsing of untrusted XML into an immutable arena tree.
//
// A Document stores every node in one flat slice indexed by NodeID. Ids are in
// document order: 0 is the document node, an element's attributes are the ids
// right after it, and its children follow. Names are interned per document as
// expanded names (namespace URI + local name) so that name tests are integer
// comparisons. Values are substrings of one immutable copy of the input, or of
// one owned buffer for values that needed entity expansion or line-end
// normalisation, so reading a value never allocates. A per-document name
// index (index.go), built on first use, lists the elements and attributes of
// each expanded name in document order.
//
// The parser is hand-written, single-pass and iterative (no recursion). It
// rejects DTDs and every entity but the five predefined ones, enforces the
// limits in Limits, and reports problems as *SyntaxError or *LimitError.
// See docs/XMLTREE.md for the layout, the limits and what is rejected and why.
package xmltree
