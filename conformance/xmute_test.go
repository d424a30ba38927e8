package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// xmutePrefixes maps an xmute rule prefix to the XRechnung rule set of the
// reference (XRechnung 2.5.0, Peppol rules merged in).
var xmutePrefixes = map[string]string{"xrubl": "xrechnung-only-ubl", "xrcii": "xrechnung-only-cii"}

// TestXmuteInstances generates every mutant of the KoSIT XML-Mutate test
// instances (corpus/xrechnung/test/instances) and checks each expectation:
// schematron-invalid rules fire, schematron-valid rules do not. A case is
// "<dir>/<file>#<instruction id or line>[<variant>]" in known_failures.txt
// under the xmute: prefix.
func TestXmuteInstances(t *testing.T) {
	h := newHarness(t)
	root := filepath.Join(h.shared, "corpus", "xrechnung", "test", "instances")
	files, err := filepath.Glob(filepath.Join(root, "*", "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no instances under %s: %v", root, err)
	}
	sort.Strings(files)
	var nIns, nMut, nChecks, nFail int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		rel = filepath.ToSlash(rel)
		inss, err := ParseXmute(data)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		for _, ins := range inss {
			nIns++
			name := ins.ID
			if name == "" {
				name = fmt.Sprintf("line%d", ins.Line)
			}
			muts, err := ins.Mutants(data)
			if err != nil {
				h.outcome(t, "xmute:"+rel+"#"+name, true, err.Error())
				nFail++
				continue
			}
			for _, m := range muts {
				nMut++
				key := "xmute:" + rel + "#" + name
				if len(muts) > 1 {
					key += "[" + strings.TrimSpace(m.Variant) + "]"
				}
				problems, n := h.checkXmute(t, m)
				nChecks += n
				if len(problems) > 0 {
					nFail++
				}
				h.outcome(t, key, len(problems) > 0, strings.Join(problems, "\n"))
			}
		}
	}
	t.Logf("xmute: %d files, %d instructions, %d mutants, %d rule checks, %d mutants failing (known or not)", len(files), nIns, nMut, nChecks, nFail)
	h.checkStale(t, "xmute:")
}

// checkXmute validates a mutant with the rule sets its expectations name.
func (h *harness) checkXmute(t *testing.T, m XmuteMutant) (problems []string, checks int) {
	t.Helper()
	ins := m.Instruction
	doc, err := xmltree.Parse(m.Doc, xmltree.DefaultLimits())
	if err != nil {
		return []string{"mutant does not parse: " + err.Error()}, 0
	}
	fired := map[string][]string{} // prefix -> fired ids
	get := func(prefix string) ([]string, error) {
		if ids, ok := fired[prefix]; ok {
			return ids, nil
		}
		key, ok := xmutePrefixes[prefix]
		if !ok {
			return nil, fmt.Errorf("unknown xmute prefix %q", prefix)
		}
		fs, err := h.ruleset(t, key).Validate(context.Background(), doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		var ids []string
		for _, f := range fs {
			ids = append(ids, f.RuleID)
		}
		fired[prefix] = ids
		return ids, nil
	}
	check := func(rules []XmuteRule, mustFire bool) {
		for _, r := range rules {
			checks++
			ids, err := get(r.Prefix)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			if slices.Contains(ids, r.ID) != mustFire {
				verb := "did not fire"
				if !mustFire {
					verb = "fired"
				}
				problems = append(problems, fmt.Sprintf("%s %s (%s %q, variant %q)", r.ID, verb, ins.Mutator, ins.Params["description"], m.Variant))
			}
		}
	}
	check(ins.Invalid, true)
	check(ins.Valid, false)
	return problems, checks
}

// Each mutator changes exactly what it says (unit tests of the generator
// on a small document).
func TestXmuteMutators(t *testing.T) {
	doc := []byte(`<r><?xmute mutator="identity" schematron-valid="xrubl:A"?><a>1</a>` +
		`<?xmute mutator="remove" schematron-invalid="xrubl:B," schematron-invalid="xrubl:C"?><b x="1"><c/></b>` +
		`<?xmute mutator="empty"?><d>text</d>` +
		`<?xmute mutator="code" values="X,, Y &amp; Z " id="c1"?><e>old</e>` +
		`<?xmute mutator="code" values="P|Q" separator="|" attribute="u"?><f u="o">v</f>` +
		`<?xmute mutator="remove" attribute="u"?><g u='o' w="1"/>` +
		`<?xmute mutator="empty" attribute="u"?><h u="o"/>` +
		`<?xmute mutator="whitespace"?><i>DE12</i>` +
		`<?xmute mutator="code" values="1"?><j><k/></j>` +
		`<?xmute mutator="nonsense"?><l/></r>`)
	inss, err := ParseXmute(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{string(doc)},
		{strings.Replace(string(doc), `<b x="1"><c/></b>`, `<!--Removed node -->`, 1)},
		{strings.Replace(string(doc), `<d>text</d>`, `<d><!--Emptied--></d>`, 1)},
		{strings.Replace(string(doc), `<e>old</e>`, `<e>X</e>`, 1), strings.Replace(string(doc), `<e>old</e>`, `<e>Y &amp;amp; Z</e>`, 1)},
		{strings.Replace(string(doc), `<f u="o">`, `<f u="P">`, 1), strings.Replace(string(doc), `<f u="o">`, `<f u="Q">`, 1)},
		{strings.Replace(string(doc), `<g u='o' w="1"/>`, `<g w="1"/>`, 1)},
		{strings.Replace(string(doc), `<h u="o"/>`, `<h u=""/>`, 1)},
		{strings.Replace(string(doc), `<i>DE12</i>`, "<i> \t\n \tDE12</i>", 1), strings.Replace(string(doc), `<i>DE12</i>`, "<i>DE12 \t\n \t</i>", 1), strings.Replace(string(doc), `<i>DE12</i>`, "<i> \t\n \t</i>", 1)},
	}
	if len(inss) != 10 {
		t.Fatalf("%d instructions", len(inss))
	}
	if !slices.Equal(inss[1].Invalid, []XmuteRule{{"xrubl", "B"}, {"xrubl", "C"}}) || inss[0].Valid[0].ID != "A" || inss[3].ID != "c1" {
		t.Fatalf("expectations %+v %+v", inss[1].Invalid, inss[0].Valid)
	}
	for i, w := range want {
		ms, err := inss[i].Mutants(doc)
		if err != nil {
			t.Fatalf("%d %s: %v", i, inss[i].Mutator, err)
		}
		var got []string
		for _, m := range ms {
			got = append(got, string(m.Doc))
		}
		if !slices.Equal(got, w) {
			t.Errorf("%d %s:\n got %q\nwant %q", i, inss[i].Mutator, got, w)
		}
	}
	if _, err := inss[8].Mutants(doc); err == nil {
		t.Error("code on complex content accepted")
	}
	if _, err := inss[9].Mutants(doc); err == nil {
		t.Error("unknown mutator accepted")
	}
}
