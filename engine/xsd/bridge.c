// C side of the libxml2 bridge of package xsd; see bridge.h and doc.go.
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/catalog.h>
#include <libxml/uri.h>
#include <libxml/xmlschemastypes.h>
#include "bridge.h"
#include "_cgo_export.h"

// Handle of the Go load state of the schema being compiled on this thread, or
// 0 outside einv_schema_load. Thread-local, so schemas compiled concurrently
// on different threads each see their own resolver and catalogs. Any entity
// requested while it is 0 (instance documents) is refused.
static __thread uintptr_t einv_load_handle;

// Address used to mark documents whose element _private fields hold lines.
static const char einv_big_line_marker = 0;

static void einv_serror(void *data, xmlErrorPtr err) {
	if (err == NULL) {
		return;
	}
	int line = err->line;
	xmlNodePtr node = (xmlNodePtr)err->node;
	if (node != NULL && node->type == XML_ELEMENT_NODE && node->_private != NULL &&
		node->doc != NULL && node->doc->_private == (void *)&einv_big_line_marker) {
		line = (int)(intptr_t)node->_private; // exact line past 65535
	}
	einvCollectError((uintptr_t)data, err->level, line, err->int2,
		err->message, err->file);
}

// einv_start_element_ns wraps the SAX2 handler: libxml2 2.9 keeps element
// lines in 16 bits (XML_PARSE_BIG_LINES only helps text nodes), so past line
// 65535 the exact line is kept in the element's _private, and the document
// is marked so einv_serror knows _private holds a line.
static void einv_start_element_ns(void *ctx, const xmlChar *localname,
	const xmlChar *prefix, const xmlChar *URI, int nb_namespaces,
	const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
	const xmlChar **attributes) {
	xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
	xmlSAX2StartElementNs(ctx, localname, prefix, URI, nb_namespaces, namespaces,
		nb_attributes, nb_defaulted, attributes);
	if (ctxt->input != NULL && ctxt->input->line >= 65535 && ctxt->node != NULL &&
		ctxt->node->type == XML_ELEMENT_NODE && ctxt->myDoc != NULL) {
		ctxt->node->_private = (void *)(intptr_t)ctxt->input->line;
		ctxt->myDoc->_private = (void *)&einv_big_line_marker;
	}
}

// Generic (printf-style) libxml2 messages are dropped: every error that
// matters is also raised as a structured error or reflected in a return code,
// which the Go side turns into a finding or an error (fail closed).
static void einv_generic_sink(void *ctx, const char *msg, ...) {
	(void)ctx;
	(void)msg;
}

// einv_input_from_memory is xmlNewInputFromFile for a document the Go side
// holds (a pruned schema document, see prune.go): the n bytes at mem are
// copied, and the input is named path so that relative locations and
// messages are those of the file.
static xmlParserInputPtr einv_input_from_memory(xmlParserCtxtPtr ctxt,
	const char *path, const char *mem, size_t n) {
	if (n > INT_MAX) {
		return NULL;
	}
	xmlParserInputBufferPtr buf = xmlParserInputBufferCreateMem(mem, (int)n,
		XML_CHAR_ENCODING_NONE);
	if (buf == NULL) {
		return NULL;
	}
	xmlParserInputPtr in = xmlNewIOInputStream(ctxt, buf, XML_CHAR_ENCODING_NONE);
	if (in == NULL) {
		xmlFreeParserInputBuffer(buf);
		return NULL;
	}
	in->filename = (char *)xmlCanonicPath((const xmlChar *)path);
	if (ctxt->directory == NULL) {
		ctxt->directory = xmlParserGetDirectory(path);
	}
	return in;
}

static xmlParserInputPtr einv_entity_loader(const char *url, const char *id,
	xmlParserCtxtPtr ctxt) {
	uintptr_t h = einv_load_handle;
	if (h == 0 || url == NULL || ctxt == NULL) {
		return NULL;
	}
	char *path = einvResolveEntity(h, (char *)url, (char *)id);
	if (path == NULL) {
		return NULL;
	}
	size_t n = 0;
	char *mem = einvEntityOverride(h, path, &n);
	xmlParserInputPtr in;
	if (mem != NULL) {
		in = einv_input_from_memory(ctxt, path, mem, n);
		free(mem);
	} else {
		in = xmlNewInputFromFile(ctxt, path);
	}
	free(path);
	return in;
}

void einv_init(void) {
	xmlInitParser();
	xmlSchemaInitTypes();
	// Never honour <?oasis-xml-catalog?> processing instructions, and never
	// consult libxml2's process-wide catalogs (XML_CATALOG_FILES,
	// /etc/xml/catalog): catalogs are resolved per schema on the Go side.
	xmlCatalogSetDefaults(XML_CATA_ALLOW_NONE);
	xmlSetExternalEntityLoader(einv_entity_loader);
}

typedef struct {
	xmlStructuredErrorFunc serror;
	void *sctx;
	xmlGenericErrorFunc gerror;
	void *gctx;
} einv_saved_handlers;

// libxml2's error handler globals are per thread in threaded builds.
static void einv_push(einv_saved_handlers *s, xmlStructuredErrorFunc serror, void *sctx,
	xmlGenericErrorFunc gerror, void *gctx) {
	s->serror = xmlStructuredError;
	s->sctx = xmlStructuredErrorContext;
	s->gerror = xmlGenericError;
	s->gctx = xmlGenericErrorContext;
	xmlSetStructuredErrorFunc(sctx, serror);
	xmlSetGenericErrorFunc(gctx, gerror);
}

// einv_push_handlers sends errors to the Go collector behind handle.
static void einv_push_handlers(einv_saved_handlers *s, uintptr_t handle) {
	einv_push(s, einv_serror, (void *)handle, einv_generic_sink, NULL);
}

static void einv_pop_handlers(einv_saved_handlers *s) {
	xmlSetStructuredErrorFunc(s->sctx, s->serror);
	xmlSetGenericErrorFunc(s->gctx, s->gerror);
}

// einv_schema_compile compiles the schema of pctxt (freed here; NULL gives
// NULL) with the Go resolver and error collector behind handle.
static xmlSchemaPtr einv_schema_compile(xmlSchemaParserCtxtPtr pctxt, uintptr_t handle) {
	einv_saved_handlers saved;
	einv_push_handlers(&saved, handle);
	uintptr_t prev = einv_load_handle;
	einv_load_handle = handle;

	xmlSchemaPtr schema = NULL;
	if (pctxt != NULL) {
		xmlSchemaSetParserStructuredErrors(pctxt, einv_serror, (void *)handle);
		schema = xmlSchemaParse(pctxt);
		xmlSchemaFreeParserCtxt(pctxt);
	}

	einv_load_handle = prev;
	einv_pop_handlers(&saved);
	return schema;
}

xmlSchemaPtr einv_schema_load(const char *url, uintptr_t handle) {
	return einv_schema_compile(xmlSchemaNewParserCtxt(url), handle);
}

xmlSchemaPtr einv_schema_load_mem(const char *buf, int len, uintptr_t handle) {
	return einv_schema_compile(xmlSchemaNewMemParserCtxt(buf, len), handle);
}

// SAX internalSubset callback: called as soon as a DOCTYPE name and external
// id are read, before the internal subset is parsed. Halts the parser.
static void einv_refuse_doctype(void *ctx, const xmlChar *name,
	const xmlChar *externalID, const xmlChar *systemID) {
	(void)name;
	(void)externalID;
	(void)systemID;
	xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
	int *refused = (int *)ctxt->_private;
	if (refused != NULL) {
		*refused = 1;
	}
	xmlStopParser(ctxt);
}

// einv_count_error and einv_count_generic count the diagnostics of
// einv_validate_clean, which reports none of them.
static void einv_count_error(void *data, xmlErrorPtr err) {
	(void)err;
	(*(int *)data)++;
}

static void einv_count_generic(void *ctx, const char *msg, ...) {
	(void)msg;
	if (ctx != NULL) {
		(*(int *)ctx)++;
	}
}

// einv_doc_parser is the parser context of an instance document: the
// document's options, and the DOCTYPE refusal setting *refused. NULL when
// out of memory.
static xmlParserCtxtPtr einv_doc_parser(const char *buf, int len, int *refused) {
	xmlParserCtxtPtr pctxt = xmlCreateMemoryParserCtxt(buf, len);
	if (pctxt != NULL) {
		xmlCtxtUseOptions(pctxt, EINV_DOC_PARSE_OPTIONS);
		pctxt->_private = refused;
		pctxt->sax->internalSubset = einv_refuse_doctype;
	}
	return pctxt;
}

int einv_validate_clean(xmlSchemaPtr schema, const char *buf, int len) {
	int diagnostics = 0;
	einv_saved_handlers saved;
	einv_push(&saved, einv_count_error, &diagnostics, einv_count_generic, &diagnostics);
	uintptr_t prev = einv_load_handle;
	einv_load_handle = 0; // nothing external, ever, while parsing a document

	int clean = 0;
	int refused = 0;
	xmlSchemaSAXPlugPtr plug = NULL;
	xmlSchemaValidCtxtPtr vctxt = xmlSchemaNewValidCtxt(schema);
	xmlParserCtxtPtr pctxt = einv_doc_parser(buf, len, &refused);
	if (vctxt == NULL || pctxt == NULL) {
		goto out;
	}
	xmlSchemaSetValidStructuredErrors(vctxt, einv_count_error, &diagnostics);
	// No tree: only the DOCTYPE refusal stays of the SAX2 handler's
	// callbacks; the schema plug adds the validator's element, text and
	// reference handlers in front of it.
	xmlSAXHandlerPtr sax = pctxt->sax;
	sax->externalSubset = NULL;
	sax->startDocument = NULL;
	sax->endDocument = NULL;
	sax->startElement = NULL;
	sax->endElement = NULL;
	sax->startElementNs = NULL;
	sax->endElementNs = NULL;
	sax->characters = NULL;
	sax->ignorableWhitespace = NULL;
	sax->cdataBlock = NULL;
	sax->comment = NULL;
	sax->processingInstruction = NULL;
	sax->reference = NULL;
	plug = xmlSchemaSAXPlug(vctxt, &pctxt->sax, &pctxt->userData);
	if (plug == NULL) {
		goto out;
	}
	xmlParseDocument(pctxt);
	clean = diagnostics == 0 && !refused && pctxt->wellFormed && pctxt->nsWellFormed &&
		pctxt->myDoc == NULL && xmlSchemaIsValid(vctxt);

out:
	if (plug != NULL) {
		xmlSchemaSAXUnplug(plug);
	}
	if (pctxt != NULL) {
		if (pctxt->myDoc != NULL) {
			xmlFreeDoc(pctxt->myDoc);
			pctxt->myDoc = NULL;
		}
		xmlFreeParserCtxt(pctxt);
	}
	if (vctxt != NULL) {
		xmlSchemaFreeValidCtxt(vctxt);
	}
	einv_load_handle = prev;
	einv_pop_handlers(&saved);
	return clean && diagnostics == 0;
}

int einv_validate(xmlSchemaPtr schema, const char *buf, int len, uintptr_t handle) {
	einv_saved_handlers saved;
	einv_push_handlers(&saved, handle);
	uintptr_t prev = einv_load_handle;
	einv_load_handle = 0; // nothing external, ever, while parsing a document

	int ret;
	int refused = 0;
	xmlDocPtr doc = NULL;
	xmlSchemaValidCtxtPtr vctxt = NULL;
	xmlParserCtxtPtr pctxt = einv_doc_parser(buf, len, &refused);
	if (pctxt == NULL) {
		ret = EINV_OUT_OF_MEMORY;
		goto out;
	}
	pctxt->sax->startElementNs = einv_start_element_ns;
	xmlParseDocument(pctxt);
	doc = pctxt->myDoc;
	pctxt->myDoc = NULL;
	if (refused || (doc != NULL && (doc->intSubset != NULL || doc->extSubset != NULL))) {
		ret = EINV_DOCTYPE_REFUSED;
		goto out;
	}
	if (doc == NULL || !pctxt->wellFormed) {
		ret = EINV_DOC_NOT_PARSED;
		goto out;
	}
	vctxt = xmlSchemaNewValidCtxt(schema);
	if (vctxt == NULL) {
		ret = EINV_OUT_OF_MEMORY;
		goto out;
	}
	xmlSchemaSetValidStructuredErrors(vctxt, einv_serror, (void *)handle);
	ret = xmlSchemaValidateDoc(vctxt, doc);

out:
	if (vctxt != NULL) {
		xmlSchemaFreeValidCtxt(vctxt);
	}
	if (doc != NULL) {
		xmlFreeDoc(doc);
	}
	if (pctxt != NULL) {
		xmlFreeParserCtxt(pctxt);
	}
	einv_load_handle = prev;
	einv_pop_handlers(&saved);
	return ret;
}
