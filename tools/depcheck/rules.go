package depcheck

import (
	"fmt"
	"sort"
	"strings"
)

// Module is the module path the rules are written against.
const Module = "github.com/einvoice-dev/einvoice"

// layers orders the engine-to-binary chain; index = layer. A package belongs
// to the layer of its longest matching prefix (relative to Module).
var layers = []struct {
	prefix string
	layer  int
}{
	{"engine/xdm", 0},
	{"engine/xmltree", 1},
	{"engine/vm", 2},
	{"engine/xpath", 3},
	{"engine/xsd", 4},
	{"engine", 4},
	{"rulesets", 5},
	{"httpapi/wire", 6},
	{"httpapi/ops", 6},
	{"httpapi", 7},
	{"tools/einvoice", 8},
}

// forbidden lists, per importer prefix, the prefixes it must not depend on
// (transitively).
var forbidden = []struct {
	importer string
	banned   []string
	why      string
}{
	{"tools/einvoice", []string{"compiler", "conformance"}, "compiler and conformance never link into the server binary"},
	{"pdf", []string{"engine", "formats", "rulesets", "httpapi"}, "pdf is independent of the engine, formats, rule sets and HTTP"},
	{"formats", []string{"engine/vm", "engine/xpath", "engine/xsd", "rulesets", "httpapi"}, "formats may use only the leaf engine packages (xdm, xmltree)"},
	{"store", []string{"httpapi", "engine", "rulesets", "formats", "pdf"}, "the store knows nothing of the layers above it"},
}

// hasPrefix reports whether rel is prefix or below it.
func hasPrefix(rel, prefix string) bool {
	return rel == prefix || strings.HasPrefix(rel, prefix+"/")
}

// layerOf returns the layer of a module-relative path, or -1.
func layerOf(rel string) int {
	best, bestLen := -1, -1
	for _, l := range layers {
		if hasPrefix(rel, l.prefix) && len(l.prefix) > bestLen {
			best, bestLen = l.layer, len(l.prefix)
		}
	}
	return best
}

// rel returns the module-relative path of an import path, or "" outside Module.
func rel(path string) string {
	if path == Module {
		return "."
	}
	r, ok := strings.CutPrefix(path, Module+"/")
	if !ok {
		return ""
	}
	return r
}

// Check returns every violation in a graph mapping each package to its
// transitive dependencies (as `go list -deps` reports them). Test packages
// and external packages are ignored.
func Check(graph map[string][]string) []string {
	var out []string
	for pkg, deps := range graph {
		p := rel(pkg)
		if p == "" {
			continue
		}
		pl := layerOf(p)
		for _, dep := range deps {
			d := rel(dep)
			if d == "" {
				continue
			}
			if dl := layerOf(d); pl >= 0 && dl > pl {
				out = append(out, fmt.Sprintf("%s (layer %d) depends on %s (layer %d): arrows point down only", p, pl, d, dl))
			}
			for _, f := range forbidden {
				if !hasPrefix(p, f.importer) {
					continue
				}
				for _, b := range f.banned {
					if hasPrefix(d, b) {
						out = append(out, fmt.Sprintf("%s depends on %s: %s", p, d, f.why))
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
