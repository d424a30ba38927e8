// C side of the libxml2 bridge of package xsd. Kept minimal: the Go side
// owns policy (which files may be read, how findings are collected); the C
// side owns only what must run inside libxml2's callbacks.
#ifndef EINVOICE_XSD_BRIDGE_H
#define EINVOICE_XSD_BRIDGE_H

#include <stdint.h>
#include <libxml/xmlschemas.h>

// Parser options used for instance documents: no network, no entity
// substitution, no DTD loading or default attributes, no XML_PARSE_HUGE.
#define EINV_DOC_PARSE_OPTIONS (XML_PARSE_NONET | XML_PARSE_BIG_LINES)

// Result codes of einv_validate besides libxml2's own (0 valid, >0 invalid).
#define EINV_DOC_NOT_PARSED -2
#define EINV_DOCTYPE_REFUSED -3
#define EINV_OUT_OF_MEMORY -4

// einv_init initialises libxml2 and installs the package's external entity
// loader. Called once (sync.Once on the Go side).
void einv_init(void);

// einv_schema_load compiles the schema at url. While it runs, the calling
// thread's entity loader consults the Go resolver identified by handle, and
// parser and schema errors go to the Go collector identified by handle.
xmlSchemaPtr einv_schema_load(const char *url, uintptr_t handle);

// einv_schema_load_mem is einv_schema_load for a schema document held in
// memory (len bytes at buf), which has no base URI: every location it names
// must be absolute.
xmlSchemaPtr einv_schema_load_mem(const char *buf, int len, uintptr_t handle);

// einv_validate parses buf (never resolving anything external) and validates
// it against schema with a fresh validation context. Findings go to the Go
// collector identified by handle. Returns 0 if valid, >0 if invalid, <0 on
// failure (see EINV_* and libxml2's -1 internal error).
int einv_validate(xmlSchemaPtr schema, const char *buf, int len, uintptr_t handle);

// einv_validate_clean validates buf against schema while parsing it, without
// building a tree (libxml2's SAX plug), and returns 1 when the document is
// well-formed and valid and nothing at all was reported on the way (no error,
// no warning, no message), else 0. It reports nothing itself: a 0 tells the
// caller to run einv_validate, whose findings are the answer. Streaming
// locates its errors at the parser's position (an element's end tag) where
// the tree walk locates them at the element, so only a clean result is taken
// from it.
int einv_validate_clean(xmlSchemaPtr schema, const char *buf, int len);

#endif
