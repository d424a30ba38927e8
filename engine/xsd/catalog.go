package xsd

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// catalogNS is the namespace of OASIS XML Catalogs 1.1.
const catalogNS = "urn:oasis:names:tc:entity:xmlns:xml:catalog"

// maxCatalogFiles bounds nextCatalog chains (and cycles).
const maxCatalogFiles = 64

// rewriteEntry is a rewrite*/ *Suffix entry: match is the start string or
// suffix, target the rewrite prefix or the replacement.
type rewriteEntry struct {
	match, target string
}

// catalogFile is one parsed OASIS XML catalog. Targets are stored resolved
// against their xml:base (absolute paths or absolute URIs).
type catalogFile struct {
	path          string
	system        map[string]string
	public        map[string]string
	uri           map[string]string
	rewriteSystem []rewriteEntry
	rewriteURI    []rewriteEntry
	systemSuffix  []rewriteEntry
	uriSuffix     []rewriteEntry
	next          []*catalogFile
}

// catalogSet is the ordered list of catalogs of one schema (Options.CatalogFiles
// and everything they chain to with nextCatalog). It is immutable after
// loadCatalogs and private to one Load, so schemas with different catalogs
// never see each other's entries.
type catalogSet struct {
	roots []*catalogFile
	files []string // every catalog file read, absolute
}

// loadCatalogs parses the given catalog files and their nextCatalog chains.
func loadCatalogs(paths []string) (*catalogSet, error) {
	set := &catalogSet{}
	seen := map[string]*catalogFile{}
	for _, p := range paths {
		cf, err := set.load(p, seen)
		if err != nil {
			return nil, err
		}
		set.roots = append(set.roots, cf)
	}
	return set, nil
}

func (set *catalogSet) load(path string, seen map[string]*catalogFile) (*catalogFile, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("catalog %q: %w", path, err)
	}
	if cf, ok := seen[abs]; ok {
		return cf, nil // already loaded (or a cycle): share the entry
	}
	if len(seen) >= maxCatalogFiles {
		return nil, fmt.Errorf("catalog %q: more than %d catalog files chained", path, maxCatalogFiles)
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	defer f.Close()
	cf := &catalogFile{
		path:   abs,
		system: map[string]string{},
		public: map[string]string{},
		uri:    map[string]string{},
	}
	seen[abs] = cf
	set.files = append(set.files, abs)
	var nextPaths []string
	if err := cf.parse(f, filepath.Dir(abs), &nextPaths); err != nil {
		return nil, fmt.Errorf("catalog %q: %w", abs, err)
	}
	for _, np := range nextPaths {
		next, err := set.load(np, seen)
		if err != nil {
			return nil, fmt.Errorf("catalog %q: nextCatalog: %w", abs, err)
		}
		cf.next = append(cf.next, next)
	}
	return cf, nil
}

// parse reads the catalog's entries. base is the directory relative
// references are resolved against until an xml:base says otherwise.
func (cf *catalogFile) parse(r io.Reader, base string, next *[]string) error {
	dec := xml.NewDecoder(r)
	bases := []string{base}
	sawRoot := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("parse: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			cur := bases[len(bases)-1]
			if b := attr(t, xml.Name{Space: "http://www.w3.org/XML/1998/namespace", Local: "base"}); b != "" {
				nb, err := resolveAgainst(cur, b)
				if err != nil {
					return fmt.Errorf("xml:base %q: %w", b, err)
				}
				if !strings.HasSuffix(b, "/") && !isDirURI(nb) {
					nb = filepath.Dir(nb)
				}
				cur = nb
			}
			bases = append(bases, cur)
			if t.Name.Space != catalogNS {
				continue // foreign elements are ignored (OASIS 6.3)
			}
			if !sawRoot {
				if t.Name.Local != "catalog" {
					return fmt.Errorf("root element is %q, want catalog", t.Name.Local)
				}
				sawRoot = true
				continue
			}
			if err := cf.addEntry(t, cur, next); err != nil {
				return err
			}
		case xml.EndElement:
			bases = bases[:len(bases)-1]
		}
	}
	if !sawRoot {
		return errors.New("no catalog element")
	}
	return nil
}

func isDirURI(s string) bool {
	fi, err := os.Stat(s)
	return err == nil && fi.IsDir()
}

func (cf *catalogFile) addEntry(t xml.StartElement, base string, next *[]string) error {
	get := func(name string) string { return attr(t, xml.Name{Local: name}) }
	target := func(name string) (string, error) {
		v := get(name)
		if v == "" {
			return "", fmt.Errorf("%s: missing %s attribute", t.Name.Local, name)
		}
		return resolveAgainst(base, v)
	}
	addOnce := func(m map[string]string, key, attrName string) error {
		if key == "" {
			return fmt.Errorf("%s: missing key attribute", t.Name.Local)
		}
		v, err := target(attrName)
		if err != nil {
			return err
		}
		if _, dup := m[key]; !dup { // first matching entry wins
			m[key] = v
		}
		return nil
	}
	addRewrite := func(list *[]rewriteEntry, match, attrName string) error {
		if match == "" {
			return fmt.Errorf("%s: missing match attribute", t.Name.Local)
		}
		v, err := target(attrName)
		if err != nil {
			return err
		}
		*list = append(*list, rewriteEntry{match: match, target: v})
		return nil
	}
	switch t.Name.Local {
	case "group":
		return nil // its xml:base is handled by the caller; children are entries
	case "system":
		return addOnce(cf.system, get("systemId"), "uri")
	case "public":
		return addOnce(cf.public, get("publicId"), "uri")
	case "uri":
		return addOnce(cf.uri, get("name"), "uri")
	case "rewriteSystem":
		return addRewrite(&cf.rewriteSystem, get("systemIdStartString"), "rewritePrefix")
	case "rewriteURI":
		return addRewrite(&cf.rewriteURI, get("uriStartString"), "rewritePrefix")
	case "systemSuffix":
		return addRewrite(&cf.systemSuffix, get("systemIdSuffix"), "uri")
	case "uriSuffix":
		return addRewrite(&cf.uriSuffix, get("uriSuffix"), "uri")
	case "nextCatalog":
		v, err := target("catalog")
		if err != nil {
			return err
		}
		*next = append(*next, v)
		return nil
	default:
		// delegate*, dtddecl and unknown entries would change resolution in
		// ways this resolver does not implement: refuse rather than guess.
		return fmt.Errorf("unsupported catalog entry %q", t.Name.Local)
	}
}

func attr(t xml.StartElement, name xml.Name) string {
	for _, a := range t.Attr {
		if a.Name.Local == name.Local && a.Name.Space == name.Space {
			return a.Value
		}
	}
	return ""
}

// resolveAgainst resolves ref against base (a local directory). Absolute
// URIs (with a scheme) are returned unchanged, absolute paths cleaned.
func resolveAgainst(base, ref string) (string, error) {
	if hasScheme(ref) {
		if strings.HasPrefix(ref, "file:") {
			return fileURIPath(ref)
		}
		return ref, nil
	}
	if filepath.IsAbs(ref) {
		return filepath.Clean(ref), nil
	}
	if base == "" || hasScheme(base) {
		return "", fmt.Errorf("relative reference %q without a local base", ref)
	}
	return filepath.Join(base, filepath.FromSlash(ref)), nil
}

// hasScheme reports whether s starts with a URI scheme ("http:", "file:").
// Single letters are not treated as schemes.
func hasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i < 2 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// fileURIPath converts a file: URI to a local path.
func fileURIPath(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("file URI %q: %w", s, err)
	}
	if u.Host != "" && u.Host != "localhost" {
		return "", fmt.Errorf("file URI %q names a remote host", s)
	}
	if u.Path == "" {
		return "", fmt.Errorf("file URI %q has no path", s)
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), nil
}

// resolveSystem looks id up as a system identifier (then publicID as a
// public identifier) in every catalog, in order, following nextCatalog.
func (set *catalogSet) resolveSystem(id, publicID string) (string, bool) {
	for _, cf := range set.roots {
		if t, ok := cf.lookup(id, publicID, true, map[*catalogFile]bool{}); ok {
			return t, true
		}
	}
	return "", false
}

// resolveURI looks id up as a URI reference (uri, rewriteURI, uriSuffix).
func (set *catalogSet) resolveURI(id string) (string, bool) {
	for _, cf := range set.roots {
		if t, ok := cf.lookup(id, "", false, map[*catalogFile]bool{}); ok {
			return t, true
		}
	}
	return "", false
}

// lookup applies OASIS resolution order within one catalog: exact match,
// longest rewrite prefix, longest suffix, then public ids (system only), then
// the nextCatalog entries.
func (cf *catalogFile) lookup(id, publicID string, system bool, visited map[*catalogFile]bool) (string, bool) {
	if visited[cf] {
		return "", false
	}
	visited[cf] = true
	exact, rewrites, suffixes := cf.uri, cf.rewriteURI, cf.uriSuffix
	if system {
		exact, rewrites, suffixes = cf.system, cf.rewriteSystem, cf.systemSuffix
	}
	if id != "" {
		if t, ok := exact[id]; ok {
			return t, true
		}
		best := -1
		for i, r := range rewrites {
			if strings.HasPrefix(id, r.match) && (best < 0 || len(r.match) > len(rewrites[best].match)) {
				best = i
			}
		}
		if best >= 0 {
			r := rewrites[best]
			return joinRewrite(r.target, id[len(r.match):]), true
		}
		best = -1
		for i, r := range suffixes {
			if strings.HasSuffix(id, r.match) && (best < 0 || len(r.match) > len(suffixes[best].match)) {
				best = i
			}
		}
		if best >= 0 {
			return suffixes[best].target, true
		}
	}
	if system && publicID != "" {
		if t, ok := cf.public[publicID]; ok {
			return t, true
		}
	}
	for _, n := range cf.next {
		if t, ok := n.lookup(id, publicID, system, visited); ok {
			return t, true
		}
	}
	return "", false
}

func joinRewrite(prefix, rest string) string {
	if hasScheme(prefix) {
		return prefix + rest
	}
	return filepath.Join(prefix, filepath.FromSlash(rest))
}
