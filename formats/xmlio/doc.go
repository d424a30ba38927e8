// Package xmlio owns the XML plumbing shared by the syntax packages
// (formats/ubl, formats/cii):
//
//   - Writer: a streaming XML writer that declares every namespace on the
//     root element, escapes text and attribute values, rejects characters
//     XML cannot carry, optionally indents, and writes byte-identical output
//     for identical call sequences (no maps are iterated);
//   - Tracker: a consumption tracker over an engine/xmltree Document. A
//     reader marks every element and attribute it carries into the model;
//     Unconsumed then lists what it did not carry, so that a conversion can
//     refuse with the exact source location instead of silently dropping
//     data. Namespace declarations, whitespace-only text and comments never
//     count; an element's text counts with the element.
//
// xmlio imports only engine/xmltree (formats may import only the leaf engine
// packages).
package xmlio
