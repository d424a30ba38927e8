package depcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goList returns each package of the module with its transitive dependencies.
// -e keeps going past packages that do not build (another engineer may be
// mid-edit); their import lists are still known.
func goList(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Deps,Error", Module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, stderr.String())
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Deps       []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		graph[p.ImportPath] = p.Deps
	}
	return graph
}

// statSources stats every .go file of the module so that go test's result
// cache (which records the files a test opens or stats) is invalidated when
// any import changes; `go list` runs in a child process the cache cannot see.
func statSources(t *testing.T) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			_, err = os.Stat(p)
		}
		return err
	})
	if err != nil {
		t.Fatalf("walk module: %v", err)
	}
}

func TestImportArrows(t *testing.T) {
	statSources(t)
	graph := goList(t)
	if _, ok := graph[Module+"/tools/einvoice"]; !ok {
		t.Fatalf("go list did not report tools/einvoice; got %d packages", len(graph))
	}
	for _, v := range Check(graph) {
		t.Error(v)
	}
}

func TestCheckCatchesViolations(t *testing.T) {
	m := func(s string) string { return Module + "/" + s }
	graph := map[string][]string{
		m("engine/xdm"):      {m("engine/vm")},                           // upward
		m("engine/xmltree"):  {m("engine/xdm"), "strings"},               // fine
		m("pdf/facturx"):     {m("formats/model")},                       // pdf -> formats
		m("tools/einvoice"):  {m("httpapi"), m("compiler/stages")},       // compiler in binary
		m("formats/ubl"):     {m("engine/xmltree"), m("engine/vm")},      // formats -> vm
		m("httpapi/ops"):     {m("rulesets/en16931"), m("httpapi/wire")}, // fine
		m("rulesets/peppol"): {m("httpapi/ops")},                         // upward
	}
	got := Check(graph)
	want := []string{"engine/xdm (layer 0) depends on engine/vm", "formats/ubl depends on engine/vm",
		"pdf/facturx depends on formats/model", "rulesets/peppol (layer 5) depends on httpapi/ops", "tools/einvoice depends on compiler/stages"}
	if len(got) != len(want) {
		t.Fatalf("got %d violations:\n%s", len(got), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("violation %d = %q, want prefix %q", i, got[i], want[i])
		}
	}
}
