// Package formats is the parent of the invoice syntaxes and the semantic
// model they share. It holds no code of its own.
//
//   - model: the EN 16931 semantic model (every BT/BG), exact decimals, the
//     calculation rules and the canonical JSON form with its JSON Schema.
//   - ubl, cii, ...: one reader and/or writer per syntax, built on model.
//
// formats may import the leaf engine packages (engine/xdm, engine/xmltree)
// and nothing else of the engine; it is joined to validation in httpapi/ops.
package formats
