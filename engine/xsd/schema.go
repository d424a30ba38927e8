package xsd

/*
#include "bridge.h"
*/
import "C"

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime/cgo"
	"slices"
	"strings"
	"sync"
)

// Options configures Load.
type Options struct {
	// CatalogFiles are OASIS XML catalogs (1.1) mapping absolute
	// schemaLocation URLs (or public ids) to local files. They are resolved
	// by this package, per schema; libxml2's process-wide catalogs are never
	// used. Targets must be local files under the catalog file's directory.
	CatalogFiles []string
	// Instance, when set, compiles the schema for validating that one
	// document only: the declarations of elements it does not contain are
	// pruned (see prune.go), which makes the compile several times cheaper
	// and changes no verdict or message for that document. Such a schema
	// must not validate any other document.
	Instance *Instance
	// Root is the directory tree schema documents may be read from. Empty
	// means defaultRootLevels above the schema file's directory, which covers
	// the published layouts (UBL maindoc/../common, UN/CEFACT
	// data/standard/../../codelist). Callers that know the schema set's
	// directory (e.g. a rule set's version directory) should pass it.
	// Catalog targets may also come from the directory tree of the catalog
	// file that named them.
	Root string
}

// Schema is a compiled XML Schema. It is immutable after Load and safe for
// concurrent use by any number of goroutines; Close must not race with
// Validate (it waits for running validations and later calls fail).
type Schema struct {
	path   string
	files  []string
	pruned bool // compiled for one instance (Options.Instance), some declarations pruned

	mu  sync.RWMutex // guards ptr against Close; Validate takes it shared
	ptr *C.xmlSchema
}

// defaultRootLevels is how far above the schema's directory the default
// Options.Root lies.
const defaultRootLevels = 2

// ErrClosed is returned by Validate after Close.
var ErrClosed = errors.New("xsd: schema is closed")

// loadState is the per-Load state the C entity loader and error callback
// reach through a cgo.Handle: the catalog, the allowed directory trees, the
// files read, the refusals and the errors reported while compiling.
type loadState struct {
	catalogs *catalogSet
	roots    []string // canonical (symlink-free) allowed directories
	lexRoots []string // the same before symlink resolution, for the lexical check
	files    []string
	refused  []string
	errs     []Error
	// overrides are the pruned schema documents (Options.Instance), by
	// canonical path: the entity loader hands them to libxml2 instead of
	// the files.
	overrides map[string][]byte
}

func (st *loadState) addError(level, line, col int, msg, file string) {
	if len(st.errs) >= maxFindings {
		return
	}
	if file != "" {
		msg = fmt.Sprintf("%s:%d: %s", file, line, msg)
	}
	st.errs = append(st.errs, Error{Line: line, Col: col, Level: levelName(level), Message: msg})
}

// Load compiles the XML Schema at path. Everything it imports or includes
// must resolve to a local file under opts.Root (default: two levels above the
// schema's directory) or, through opts.CatalogFiles, under a catalog's
// directory; network locations are never fetched. Any refused location makes
// Load fail, even when libxml2 would only warn about a skipped import.
func Load(path string, opts Options) (_ *Schema, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("xsd: load %q: %w", path, err)
		}
	}()
	initLibxml2()
	abs, err := canonicalFile(path)
	if err != nil {
		return nil, err
	}
	return compile([]string{abs}, opts, func(h cgo.Handle) *C.xmlSchema { return cSchemaLoad(abs, h) })
}

// Import is one schema of LoadSet: its file and its target namespace.
type Import struct{ Namespace, Path string }

// LoadSet compiles several schemas as one: a schema document that imports
// each of them (with its target namespace), so that the components they
// share — UBL's Invoice and CreditNote both import the same common
// aggregate, basic and extension components — are read and compiled once
// instead of once per schema. A document is valid against the set exactly
// when it is valid against the schema declaring its root element: the
// imported schemas keep their own global declarations, and an instance
// document is only ever checked against the declaration of its root.
//
// The namespaces must be distinct and non-empty (libxml2 skips a second
// import of a namespace already imported, which would silently drop a
// schema). The rules of Load apply to everything read; the default Root is
// derived from the first path, and every path must lie under it. Path of
// the result is the first import's file.
func LoadSet(imports []Import, opts Options) (_ *Schema, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("xsd: load set %v: %w", imports, err)
		}
	}()
	if len(imports) == 0 {
		return nil, errors.New("no schema")
	}
	initLibxml2()
	abs := make([]string, len(imports))
	seen := map[string]bool{}
	var doc bytes.Buffer
	doc.WriteString(`<xs:schema xmlns:xs="` + xsdNamespace + `">`)
	for i, im := range imports {
		if im.Namespace == "" {
			return nil, fmt.Errorf("%s: a schema of a set needs a target namespace", im.Path)
		}
		if seen[im.Namespace] {
			return nil, fmt.Errorf("namespace %q imported twice", im.Namespace)
		}
		seen[im.Namespace] = true
		if abs[i], err = canonicalFile(im.Path); err != nil {
			return nil, err
		}
		// libxml2 only warns, and skips the import, when the file's target
		// namespace is another: check it first.
		if tns, err := targetNamespace(abs[i]); err != nil {
			return nil, err
		} else if tns != im.Namespace {
			return nil, fmt.Errorf("%s: target namespace is %q, not %q", im.Path, tns, im.Namespace)
		}
		loc := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs[i])}).String()
		doc.WriteString(`<xs:import namespace="`)
		_ = xml.EscapeText(&doc, []byte(im.Namespace)) // a bytes.Buffer does not fail
		doc.WriteString(`" schemaLocation="`)
		_ = xml.EscapeText(&doc, []byte(loc))
		doc.WriteString(`"/>`)
	}
	doc.WriteString(`</xs:schema>`)
	return compile(abs, opts, func(h cgo.Handle) *C.xmlSchema { return cSchemaLoadMem(doc.Bytes(), h) })
}

// targetNamespace reads the targetNamespace of the schema document at path
// (its root element).
func targetNamespace(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	for {
		tok, err := d.Token()
		if err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Space != xsdNamespace || se.Name.Local != "schema" {
				return "", fmt.Errorf("%s: root element is not xs:schema", path)
			}
			for _, a := range se.Attr {
				if a.Name.Space == "" && a.Name.Local == "targetNamespace" {
					return a.Value, nil
				}
			}
			return "", nil
		}
	}
}

const xsdNamespace = "http://www.w3.org/2001/XMLSchema"

// compile runs load (one libxml2 schema compile) with the load state of
// the schema files abs (canonical; the default root is derived from the
// first) and opts.
func compile(abs []string, opts Options, load func(cgo.Handle) *C.xmlSchema) (*Schema, error) {
	root := opts.Root
	if root == "" {
		root = filepath.Dir(abs[0])
		for range defaultRootLevels {
			root = filepath.Dir(root)
		}
	}
	cats, err := loadCatalogs(opts.CatalogFiles)
	if err != nil {
		return nil, err
	}
	st := &loadState{catalogs: cats}
	for i, d := range append([]string{root}, dirs(cats.files)...) {
		lex, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("root: %w", err)
		}
		c, err := canonicalDir(lex)
		if err != nil {
			return nil, fmt.Errorf("root: %w", err)
		}
		if i == 0 {
			for _, a := range abs {
				if !within(c, a) {
					return nil, fmt.Errorf("schema %q is outside root %q", a, c)
				}
			}
		}
		st.roots = append(st.roots, c)
		st.lexRoots = append(st.lexRoots, lex)
	}

	if opts.Instance != nil {
		lookup := func(loc string) (string, bool) {
			p, err := st.lookup(loc, "")
			return p, err == nil
		}
		if ov, err := pruneSet(abs, opts.Instance, lookup); err == nil && len(ov) > 0 {
			pruned := *st
			pruned.overrides = ov
			if s, err := compileWith(&pruned, abs[0], load); err == nil {
				return s, nil
			}
			// A pruned set that does not compile (nothing the pruner is
			// known to produce): compile it whole, whose errors are the
			// schema's own.
		}
	}
	return compileWith(st, abs[0], load)
}

// compileWith runs one libxml2 compile with the load state st.
func compileWith(st *loadState, path string, load func(cgo.Handle) *C.xmlSchema) (*Schema, error) {
	h := cgo.NewHandle(st)
	defer h.Delete()
	ptr := load(h)
	if len(st.refused) > 0 {
		if ptr != nil {
			cSchemaFree(ptr)
		}
		return nil, fmt.Errorf("refused to read: %s", strings.Join(st.refused, "; "))
	}
	if ptr == nil {
		return nil, fmt.Errorf("compile failed: %s", summarize(st.errs))
	}
	return &Schema{path: path, files: slices.Clone(st.files), ptr: ptr, pruned: len(st.overrides) > 0}, nil
}

// summarize renders the first compile errors for an error message.
func summarize(errs []Error) string {
	const show = 5
	var b strings.Builder
	n := 0
	for _, e := range errs {
		if e.Level == LevelWarning {
			continue
		}
		if n == show {
			b.WriteString("; ...")
			break
		}
		if n > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Message)
		n++
	}
	if n == 0 {
		return "libxml2 reported no error"
	}
	return b.String()
}

// Path is the absolute path of the root schema document.
func (s *Schema) Path() string { return s.path }

// Pruned reports whether the schema was compiled for one instance document
// (Options.Instance) with declarations pruned; false when the pruner stepped
// aside and the schema is whole.
func (s *Schema) Pruned() bool { return s.pruned }

// Files lists every schema document read while compiling, in load order
// (absolute paths, the root first). Useful to fingerprint a schema set.
func (s *Schema) Files() []string { return slices.Clone(s.files) }

// Close frees the compiled schema. It waits for running validations; later
// calls to Validate return ErrClosed. Close is idempotent.
func (s *Schema) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ptr != nil {
		cSchemaFree(s.ptr)
		s.ptr = nil
	}
}

// resolve decides whether the C entity loader may open rawURL (the system
// id libxml2 built, usually an absolute path or URL). It returns the local
// path to open. Catalog entries are consulted first; then only local files
// under the allowed roots qualify. Refusals are recorded and fail the Load.
func (st *loadState) resolve(rawURL, publicID string) (string, bool) {
	p, err := st.lookup(rawURL, publicID)
	if err != nil {
		st.refused = append(st.refused, fmt.Sprintf("%q: %v", rawURL, err))
		return "", false
	}
	st.files = append(st.files, p)
	return p, true
}

// lookup is resolve without recording anything.
func (st *loadState) lookup(rawURL, publicID string) (string, error) {
	target := rawURL
	if t, ok := st.catalogs.resolveSystem(rawURL, publicID); ok {
		target = t
	} else if t, ok := st.catalogs.resolveURI(rawURL); ok {
		target = t
	}
	return st.localFile(target)
}

func (st *loadState) localFile(target string) (string, error) {
	var p string
	switch {
	case strings.HasPrefix(target, "file:"):
		fp, err := fileURIPath(target)
		if err != nil {
			return "", err
		}
		p = fp
	case hasScheme(target):
		return "", errors.New("not a local file and not in any catalog (network access is disabled)")
	case !filepath.IsAbs(target):
		return "", errors.New("relative location without a base")
	default:
		p = target
	}
	p = filepath.Clean(p)
	if !st.allowedLexically(p) && strings.Contains(p, "%") {
		// libxml2 hands over percent-escaped paths (spaces in directories).
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
	}
	// Check the lexical path first, so nothing outside the roots is even
	// probed, then the symlink-free one.
	if !st.allowedLexically(p) {
		return "", fmt.Errorf("%q is outside the allowed directories %q", p, st.roots)
	}
	c, err := canonicalFile(p)
	if err != nil {
		return "", err
	}
	if !st.allowed(c) {
		return "", fmt.Errorf("%q (%q) is outside the allowed directories %q", p, c, st.roots)
	}
	return c, nil
}

func (st *loadState) allowed(p string) bool {
	for _, r := range st.roots {
		if within(r, p) {
			return true
		}
	}
	return false
}

func (st *loadState) allowedLexically(p string) bool {
	for _, r := range st.lexRoots {
		if within(r, p) {
			return true
		}
	}
	return st.allowed(p)
}

func dirs(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = filepath.Dir(f)
	}
	return out
}

// canonicalFile returns the absolute, symlink-free path of an existing
// regular file.
func canonicalFile(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%q is not a regular file", abs)
	}
	return abs, nil
}

// canonicalDir returns the absolute, symlink-free path of a directory.
func canonicalDir(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%q is not a directory", abs)
	}
	return abs, nil
}

// within reports whether p (canonical) is inside dir (canonical).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
