// Package xsd owns XML Schema validation: a thin cgo wrapper around libxml2
// (2.9.x, pkg-config libxml-2.0) that compiles a schema once and validates
// documents against it from any number of goroutines.
//
// Design:
//   - Load compiles a schema (xmlSchemaParse) into an immutable *Schema. The
//     xmlSchemaPtr is shared read-only; every Validate creates its own parser
//     context, document tree and xmlSchemaValidCtxt, so no libxml2 object is
//     used by two goroutines at once.
//   - Findings arrive through structured error callbacks registered per call
//     (xmlSchemaSetValidStructuredErrors and the thread's structured error
//     handler) with a runtime/cgo.Handle as user data: no package-level
//     collector, no global registry. At most 1,000 findings are kept; a final
//     entry counts the rest.
//   - libxml2 is initialised once (sync.Once): xmlInitParser, the built-in
//     schema types (whose lazy initialisation is not thread-safe), catalog
//     processing instructions off, and this package's external entity loader.
//
// Safety:
//   - Documents are parsed with XML_PARSE_NONET | XML_PARSE_BIG_LINES only:
//     no NOENT (entities are not substituted), no DTDLOAD/DTDATTR/DTDVALID,
//     no XML_PARSE_HUGE (libxml2's default size and depth limits apply).
//   - A document with a DOCTYPE is refused (ErrDoctype) in three layers: a
//     prolog scan in Go before libxml2 sees the bytes (UTF-8 and other
//     ASCII-compatible encodings, UTF-16); a SAX internalSubset hook that
//     halts the parser before the internal subset is read (any encoding);
//     and the entity loader, which refuses every request made while a
//     document (rather than a schema) is being parsed.
//   - The entity loader (xmlSetExternalEntityLoader, process-wide) reads a
//     thread-local handle set only for the duration of one Load on that
//     thread. During a Load it lets libxml2 open local files under
//     Options.Root or a catalog's directory, after catalog resolution; never
//     http, ftp or any other scheme. Every refusal fails the Load.
//
// Catalogs: Options.CatalogFiles are OASIS XML Catalogs parsed by this
// package (catalog.go: system, public, uri, rewrite*, *Suffix, nextCatalog,
// group, xml:base) and consulted by the entity loader of that Load only.
// libxml2's own catalog machinery is never used, because its state
// (default catalog, XML_CATALOG_FILES, the cache of parsed catalog files) is
// process-wide: two schemas loaded with different catalogs cannot interfere.
//
// One document: Options.Instance compiles a schema pruned for validating
// that document only (prune.go: declarations of elements it lacks become
// xs:anyType, complex types nothing refers to any more are dropped, and the
// entity loader hands the rewritten documents to libxml2 from memory). Same
// findings, a third of the compile for UBL; for one-document processes.
//
// Cancellation: libxml2 cannot be interrupted. ctx is checked before a
// validation starts and after it ends; a validation already running completes
// (bounded by libxml2's parser limits) and its result is discarded if ctx is
// done by then.
//
// Process-wide libxml2 state this package sets: the external entity loader
// and the catalog default (XML_CATA_ALLOW_NONE). No other package of this
// module may use libxml2; if one ever does, it must go through this one.
package xsd
