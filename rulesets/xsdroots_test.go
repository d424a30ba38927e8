package rulesets

import (
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xsd"
)

// Every profile's XSD root compiles the way the API layer loads it
// (xsd.Load with default options): a new profile must not break start-up.
func TestXSDRootsCompile(t *testing.T) {
	c, err := Load(WithShared(sharedDir()), WithLazy())
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range c.XSDRoots() {
		s, err := xsd.Load(filepath.Join(sharedDir(), filepath.FromSlash(x.Path)), xsd.Options{})
		if err != nil {
			t.Errorf("%s: %v", x.Path, err)
			continue
		}
		t.Logf("compiled %s", x.Path)
		s.Close()
	}
}
