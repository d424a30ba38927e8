package vm_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// TestEmptyLeaves: the document's list of empty leaves
// (xmltree.Document.EmptyLeaves, what the engine visits for the
// empty-element rules) is the elements and attributes on which
// vm.EmptyLeaf, not(*) and not(normalize-space()), holds, in document
// order: on a document built for it and on the EN 16931 examples.
func TestEmptyLeaves(t *testing.T) {
	docs := map[string]string{
		"built": `<r a="" b=" &#10;" c="x"><e/><f> </f><g> <!-- c --> <?p i?> </g><h><![CDATA[ ]]></h>` +
			`<i><![CDATA[x]]></i><j><k/></j><l> <m> </m> </l><n>&#32;</n><o>t<p/></o></r>`,
	}
	for _, dir := range []string{"en16931/ubl/examples", "en16931/cii/examples"} {
		files, _ := filepath.Glob(filepath.Join(sharedDir(), "corpus", dir, "*.xml"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			docs[f] = string(data)
		}
	}
	if len(docs) < 10 {
		t.Fatalf("%d documents: the corpus is missing", len(docs))
	}
	some := 0
	for name, src := range docs {
		doc := parse(t, src)
		var want []xmltree.NodeID
		for n := xmltree.NodeID(1); int(n) < doc.Len(); n++ {
			if k := doc.Kind(n); (k == xmltree.KindElement || k == xmltree.KindAttribute) && vm.EmptyLeaf(doc, n) {
				want = append(want, n)
			}
		}
		if got := doc.EmptyLeaves(); !slices.Equal(got, want) {
			t.Errorf("%s: EmptyLeaves %v, want %v", name, got, want)
		}
		some += len(want)
	}
	if some == 0 {
		t.Error("no empty leaf in any document")
	}
}
