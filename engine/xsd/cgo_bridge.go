package xsd

/*
#cgo pkg-config: libxml-2.0
#include <stdlib.h>
#include "bridge.h"
*/
import "C"

import (
	"runtime/cgo"
	"strings"
	"sync"
	"unsafe"
)

// initOnce guards the one-time libxml2 initialisation (xmlInitParser, the
// built-in schema types, the entity loader). It holds no data.
var initOnce sync.Once

func initLibxml2() {
	initOnce.Do(func() { C.einv_init() })
}

// errorSink receives libxml2's structured errors for one load or validation.
type errorSink interface {
	addError(level, line, col int, msg, file string)
}

//export einvCollectError
func einvCollectError(h C.uintptr_t, level, line, col C.int, msg, file *C.char) {
	sink, ok := cgo.Handle(h).Value().(errorSink)
	if !ok {
		return
	}
	var m, f string
	if msg != nil {
		m = cleanMessage(C.GoString(msg))
	}
	if file != nil {
		f = C.GoString(file)
	}
	sink.addError(int(level), int(line), int(col), m, f)
}

//export einvResolveEntity
func einvResolveEntity(h C.uintptr_t, url, id *C.char) *C.char {
	st, ok := cgo.Handle(h).Value().(*loadState)
	if !ok || url == nil {
		return nil
	}
	var publicID string
	if id != nil {
		publicID = C.GoString(id)
	}
	path, ok := st.resolve(C.GoString(url), publicID)
	if !ok {
		return nil
	}
	return C.CString(path) // freed by the C entity loader
}

//export einvEntityOverride
func einvEntityOverride(h C.uintptr_t, path *C.char, n *C.size_t) *C.char {
	st, ok := cgo.Handle(h).Value().(*loadState)
	if !ok || path == nil || st.overrides == nil {
		return nil
	}
	b, ok := st.overrides[C.GoString(path)]
	if !ok {
		return nil
	}
	*n = C.size_t(len(b))
	return (*C.char)(C.CBytes(b)) // freed by the C entity loader
}

// cleanMessage trims libxml2's trailing newline and surrounding blanks.
func cleanMessage(s string) string {
	return strings.TrimSpace(s)
}

// levelName maps libxml2's xmlErrorLevel to Error.Level.
func levelName(level int) string {
	switch level {
	case C.XML_ERR_WARNING:
		return LevelWarning
	case C.XML_ERR_FATAL:
		return LevelFatal
	default:
		return LevelError
	}
}

// cSchemaLoad compiles the schema at path with the load state behind h.
func cSchemaLoad(path string, h cgo.Handle) *C.xmlSchema {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return C.einv_schema_load(cpath, C.uintptr_t(h))
}

// cSchemaLoadMem compiles the schema document doc with the load state behind h.
func cSchemaLoadMem(doc []byte, h cgo.Handle) *C.xmlSchema {
	cdoc := C.CBytes(doc)
	defer C.free(cdoc)
	return C.einv_schema_load_mem((*C.char)(cdoc), C.int(len(doc)), C.uintptr_t(h))
}

func cSchemaFree(p *C.xmlSchema) {
	C.xmlSchemaFree(p)
}

// Result codes of cValidate, mirroring bridge.h.
const (
	rcInternal        = -1
	rcNotParsed       = C.EINV_DOC_NOT_PARSED
	rcDoctypeRefused  = C.EINV_DOCTYPE_REFUSED
	rcOutOfMemory     = C.EINV_OUT_OF_MEMORY
	maxDocumentLength = 1<<31 - 1
)

// cValidate parses and validates doc (len(doc) > 0, <= maxDocumentLength),
// its findings going to the collector behind h. With stream, a streaming pass
// without a tree comes first (einv_validate_clean): a document it finds clean
// (well-formed, valid, nothing reported) is valid with no findings, at about
// 60 % of the instructions of the tree walk (docs/XSD.md). Any other document
// is parsed and validated again as a tree, whose findings and lines are the
// answer, so a finding is never located by the streaming pass.
func cValidate(schema *C.xmlSchema, doc []byte, h cgo.Handle, stream bool) int {
	if stream && cClean(schema, doc) {
		return 0
	}
	return int(C.einv_validate(schema, (*C.char)(unsafe.Pointer(&doc[0])), C.int(len(doc)), C.uintptr_t(h)))
}

// cClean is the streaming pass alone: true when it finds doc (len(doc) > 0,
// <= maxDocumentLength) clean.
func cClean(schema *C.xmlSchema, doc []byte) bool {
	return C.einv_validate_clean(schema, (*C.char)(unsafe.Pointer(&doc[0])), C.int(len(doc))) == 1
}
