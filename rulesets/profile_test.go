package rulesets

import (
	"bytes"
	"context"
	"errors"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

func sharedDir() string {
	return testshared.Path()
}

// testCatalog is loaded once for the tests of this package (read-only).
var testCatalog = sync.OnceValues(func() (*Catalog, error) { return Load(WithShared(sharedDir())) })

func catalogT(t testing.TB) *Catalog {
	t.Helper()
	c, err := testCatalog()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func readDoc(t testing.TB, rel string, edit func([]byte) []byte) *xmltree.Document {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedDir(), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		e := edit(data)
		if bytes.Equal(e, data) {
			t.Fatalf("%s: edit changed nothing", rel)
		}
		data = e
	}
	doc, err := xmltree.Parse(data, xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func validate(t testing.TB, p *Profile, doc *xmltree.Document) *Result {
	t.Helper()
	r, err := p.Validate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func findingsOf(r *Result, id string) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.RuleID == id {
			out = append(out, f)
		}
	}
	return out
}

func TestProfileVersions(t *testing.T) {
	c := catalogT(t)
	if got := c.Versions(SyntaxUBL, "peppol"); !slices.Equal(got, []string{"3.0.21", "3.0.19"}) {
		t.Fatalf("peppol UBL versions %v", got)
	}
	if got := c.Versions(SyntaxCII, "peppol"); !slices.Equal(got, []string{"3.0.19"}) {
		t.Fatalf("peppol CII versions %v", got)
	}
	for _, tc := range []struct{ syntax, name, version, want, label string }{
		{SyntaxUBL, "", "", "3.0.21", "Peppol BIS Billing 3.0.21"},
		{SyntaxUBL, "peppol", "3.0.21", "3.0.21", "Peppol BIS Billing 3.0.21"},
		{SyntaxUBL, "peppol", "3.0.19", "3.0.19", "Peppol BIS Billing 3.0.19"},
		{SyntaxCII, "peppol", "", "3.0.19", "Peppol BIS Billing 3.0.19"},
		{SyntaxUBL, "xrechnung", "", "3.0.2", "XRechnung 3.0.2"},
	} {
		p, ok := c.Profile(tc.syntax, tc.name, tc.version)
		if !ok || p.Err != nil || p.Version != tc.want || p.Rulesets[len(p.Rulesets)-1].Label() != tc.label {
			t.Errorf("%+v: got %+v ok=%v", tc, p, ok)
		}
	}
	if _, ok := c.Profile(SyntaxUBL, "peppol", "3.0.20"); ok {
		t.Error("unknown version found")
	}
	if compareVersions("3.0.21", "3.0.2") <= 0 || compareVersions("3.0.19", "3.0.21") >= 0 || compareVersions("1.09.2", "1.09.2") != 0 {
		t.Error("compareVersions")
	}
}

func TestInfo(t *testing.T) {
	c := catalogT(t)
	infos := c.Info()
	if len(infos) != 27 {
		t.Errorf("%d rule sets, want 27", len(infos))
	}
	for _, in := range infos {
		if in.Error != "" || len(in.SHA256) != 64 || in.Rules == 0 || in.Asserts+in.Reports == 0 || len(in.Profiles) == 0 {
			t.Errorf("info %+v", in)
		}
		if _, err := os.Stat(filepath.Join(sharedDir(), in.Source)); err != nil {
			t.Errorf("%s: %v", in.Name, err)
		}
	}
	i := slices.IndexFunc(infos, func(in RulesetInfo) bool { return in.Name == "EN16931" && in.Syntax == "ubl" })
	if i < 0 || !slices.Contains(infos[i].Profiles, "ubl/xrechnung 3.0.2") || !slices.Contains(infos[i].Profiles, "ubl/en16931 1.3.16") {
		t.Errorf("EN16931 UBL info %+v", infos)
	}
}

// The self-billing examples are judged by the self-billing rules (no
// finding, as the reference); the billing rules would reject them.
func TestPeppolSelfBillingScenario(t *testing.T) {
	c := catalogT(t)
	p, _ := c.Profile(SyntaxUBL, "peppol", "3.0.21")
	sb := readDoc(t, "corpus/peppol-bis-billing/3.0.21/self-billing-examples/SB-base-example.xml", nil)
	r := validate(t, p, sb)
	if r.Scenario != "Peppol BIS Self-Billing 3.0.21" || !r.Valid || len(r.Findings) != 0 || r.Rulesets[1].Name != "Peppol BIS Self-Billing" {
		t.Fatalf("self-billing example: %+v", r)
	}
	billing := readDoc(t, "corpus/peppol-bis-billing/3.0.21/examples/base-example.xml", nil)
	r = validate(t, p, billing)
	if r.Scenario != "Peppol BIS Billing 3.0.21" || !r.Valid || r.Rulesets[1].Name != "Peppol BIS Billing" {
		t.Fatalf("billing example: %+v", r)
	}
	// The same self-billing document under the billing rules is rejected.
	fs, err := p.Rulesets[1].Validate(context.Background(), sb)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		t.Fatal("billing rules accept a self-billing document: the scenario would not matter")
	}
}

// xrRef extracts the customLevel overrides of one scenario from the raw
// configuration text (independently of the encoding/xml reader).
func xrRef(t *testing.T, scenario string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedDir(), XRechnungConfig))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "<name>"+scenario+"</name>")
	if i < 0 {
		t.Fatalf("scenario %q not in configuration", scenario)
	}
	end := strings.Index(s[i:], "</scenario>")
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`<customLevel level="(\w+)">([^<]+)</customLevel>`).FindAllStringSubmatch(s[i:i+end], -1) {
		lv := m[1]
		if lv == "error" {
			lv = "fatal"
		}
		out[strings.TrimSpace(m[2])] = lv
	}
	return out
}

func TestXRechnungScenarios(t *testing.T) {
	c := catalogT(t)
	for _, syntax := range []string{SyntaxUBL, SyntaxCII} {
		p, _ := c.Profile(syntax, "xrechnung")
		if p.Err != nil {
			t.Fatal(p.Err)
		}
		scs := p.Scenarios()
		if len(scs) < 4 {
			t.Fatalf("%s: %d scenarios", syntax, len(scs))
		}
		for _, sc := range scs {
			if ref := xrRef(t, sc.Name); !mapsEqual(ref, sc.Levels) {
				t.Errorf("%s %q: levels %v, configuration says %v", syntax, sc.Name, sc.Levels, ref)
			}
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

const (
	xrUBL = "corpus/xrechnung-testsuite/technical-cases/cius/01.01_comprehensive_test_ubl.xml"
	xrCII = "corpus/xrechnung-testsuite/technical-cases/cius/01.01_comprehensive_test_uncefact.xml"
	xrCVD = "corpus/xrechnung-testsuite/technical-cases/cvd/02.01a-cvd_INVOICE_ubl.xml"
)

func replaceOnce(old, new string) func([]byte) []byte {
	return func(b []byte) []byte { return bytes.Replace(b, []byte(old), []byte(new), 1) }
}

func TestXRechnungOverridesChangeVerdict(t *testing.T) {
	c := catalogT(t)
	xu, _ := c.Profile(SyntaxUBL, "xrechnung")
	enu, _ := c.Profile(SyntaxUBL, "en16931")
	// The reference messages are accepted in their scenario.
	base := validate(t, xu, readDoc(t, xrUBL, nil))
	if !base.Valid || base.Scenario != "EN16931 XRechnung (UBL Invoice)" {
		t.Fatalf("CIUS reference message: %+v", base)
	}
	cvd := validate(t, xu, readDoc(t, xrCVD, nil))
	if !cvd.Valid || cvd.Scenario != "EN16931 XRechnung CVD (UBL Invoice)" {
		t.Fatalf("CVD reference message: %+v", cvd)
	}
	// BR-CL-23 (unit of measure code list) is fatal in EN 16931 and a
	// warning in the CIUS scenario: the invoice stays accepted.
	bad := readDoc(t, xrUBL, func(b []byte) []byte {
		return regexp.MustCompile(`unitCode="[A-Z0-9]+"`).ReplaceAll(b, []byte(`unitCode="QQQ"`))
	})
	r := validate(t, xu, bad)
	got := findingsOf(r, "BR-CL-23")
	if len(got) == 0 || got[0].Flag != "warning" || got[0].DeclaredFlag != "fatal" || !r.Valid {
		t.Fatalf("BR-CL-23 under xrechnung: %+v valid=%v", got, r.Valid)
	}
	if r2 := validate(t, enu, bad); r2.Valid || len(findingsOf(r2, "BR-CL-23")) == 0 || findingsOf(r2, "BR-CL-23")[0].DeclaredFlag != "" {
		t.Fatalf("BR-CL-23 under en16931 must reject: %+v", r2)
	}
	// Sub invoice lines (UBL-CR-646): a warning in EN 16931, raised to
	// error in the CIUS scenario (rejected) and lowered to information in
	// the Extension scenario (accepted as far as this rule goes).
	sub := func(custom string) func([]byte) []byte {
		return func(b []byte) []byte {
			b = replaceOnce("</cac:InvoiceLine>", "<cac:SubInvoiceLine><cbc:ID>1</cbc:ID></cac:SubInvoiceLine></cac:InvoiceLine>")(b)
			if custom != "" {
				b = regexp.MustCompile(`<cbc:CustomizationID>[^<]*</cbc:CustomizationID>`).ReplaceAll(b, []byte("<cbc:CustomizationID>"+custom+"</cbc:CustomizationID>"))
			}
			return b
		}
	}
	r = validate(t, xu, readDoc(t, xrUBL, sub("")))
	got = findingsOf(r, "UBL-CR-646")
	if len(got) == 0 || got[0].Flag != "fatal" || got[0].DeclaredFlag != "warning" || r.Valid {
		t.Fatalf("UBL-CR-646 under CIUS: %+v valid=%v", got, r.Valid)
	}
	ext := "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0"
	r = validate(t, xu, readDoc(t, xrUBL, sub(ext)))
	got = findingsOf(r, "UBL-CR-646")
	if r.Scenario != "EN16931 XRechnung Extension (UBL Invoice)" || len(got) == 0 || got[0].Flag != "information" || got[0].DeclaredFlag != "warning" {
		t.Fatalf("UBL-CR-646 under Extension: scenario %q %+v", r.Scenario, got)
	}
	// No scenario matches an unknown CustomizationID: rejected, as the
	// official validator does.
	r = validate(t, xu, readDoc(t, xrUBL, func(b []byte) []byte {
		return regexp.MustCompile(`<cbc:CustomizationID>[^<]*</cbc:CustomizationID>`).ReplaceAll(b, []byte("<cbc:CustomizationID>urn:example</cbc:CustomizationID>"))
	}))
	if r.Valid || r.Scenario != "" || !slices.ContainsFunc(r.Errors, func(e error) bool { return errors.Is(e, ErrNoScenario) }) {
		t.Fatalf("unknown CustomizationID: %+v", r)
	}
	// CII: CII-SR-452 is raised to error in the CIUS scenario.
	xc, _ := c.Profile(SyntaxCII, "xrechnung")
	rc := validate(t, xc, readDoc(t, xrCII, nil))
	if !rc.Valid || rc.Scenario != "EN16931 XRechnung (CII)" {
		t.Fatalf("CII reference message: %+v", rc)
	}
	if lv := xc.Scenarios()[0].Levels["CII-SR-452"]; lv != "fatal" {
		t.Fatalf("CII-SR-452 level %q", lv)
	}
}

// A rule set that cannot be loaded or cannot run makes the profile's
// results incomplete and invalid; the other profiles are unaffected.
func TestFailClosed(t *testing.T) {
	good := &engine.Tables{Name: "Good", Version: "1", Syntax: "ubl", Source: "good.sch", Phase: "#ALL",
		Patterns: []engine.Pattern{{ID: "p", NumRules: 1}},
		Rules:    []engine.Rule{{Context: "/*", NumChecks: 1}},
		Checks:   []engine.Check{{ID: "G-1", Flag: "warning", Kind: engine.KindAssert, Test: "false()"}}}
	broken := *good
	broken.Name, broken.Source = "Broken", "broken.sch"
	broken.Checks = []engine.Check{{ID: "B-1", Flag: "fatal", Test: "1 +"}}
	dynamic := *good
	dynamic.Name, dynamic.Source = "Dynamic", "dynamic.sch"
	dynamic.Checks = []engine.Check{{ID: "D-1", Flag: "fatal", Test: "xs:integer('x') = 1"}}
	src := func(t *engine.Tables) setDef {
		return setDef{tables: func() (*engine.Tables, error) { return t, nil }}
	}
	missing := setDef{tables: func() (*engine.Tables, error) { return nil, errors.New("generated tables missing") }}
	c, err := Load(func(cfg *loadConfig) {
		cfg.defs = []profileDef{
			{syntax: SyntaxUBL, name: "good", version: "1", sets: []setDef{src(good)}},
			{syntax: SyntaxUBL, name: "broken", version: "1", sets: []setDef{src(good), src(&broken)}},
			{syntax: SyntaxUBL, name: "missing", version: "1", sets: []setDef{missing, src(good)}},
			{syntax: SyntaxUBL, name: "dynamic", version: "1", sets: []setDef{src(&dynamic), src(good)}},
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := xmltree.Parse([]byte(`<Invoice/>`), xmltree.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"good", "broken", "missing", "dynamic"} {
		p, ok := c.Profile(SyntaxUBL, name)
		if p == nil || ok != (name == "good" || name == "dynamic") {
			t.Fatalf("%s: profile %v ok=%v", name, p, ok)
		}
		r := validate(t, p, doc)
		wantOK := name == "good"
		if r.Complete != wantOK || r.Valid != wantOK || (len(r.Errors) == 0) == !wantOK {
			t.Errorf("%s: complete=%v valid=%v errors=%v", name, r.Complete, r.Valid, r.Errors)
		}
		if name == "dynamic" && len(findingsOf(r, "G-1")) != 1 {
			t.Errorf("dynamic: the other rule set did not run: %+v", r.Findings)
		}
	}
	infos := c.Info()
	i := slices.IndexFunc(infos, func(in RulesetInfo) bool { return in.Name == "Broken" })
	if i < 0 || infos[i].Error == "" {
		t.Errorf("broken rule set not listed with its error: %+v", infos)
	}
	// Nothing loadable at all is an error of Load.
	if _, err := Load(func(cfg *loadConfig) {
		cfg.defs = []profileDef{{syntax: SyntaxUBL, name: "missing", version: "1", sets: []setDef{missing}}}
	}); err == nil {
		t.Error("Load with no loadable profile succeeded")
	}
}

// Order-X findings carry the derived ids through the catalog.
func TestOrderXFindingIDs(t *testing.T) {
	c := catalogT(t)
	p, ok := c.Profile(SyntaxOrderX, "basic")
	if !ok {
		t.Fatal("no Order-X basic profile")
	}
	r := validate(t, p, readDoc(t, "corpus/order-x/akretion/order-x-comfort.xml", nil))
	if len(r.Findings) == 0 || r.Valid {
		t.Fatalf("a COMFORT order under BASIC: %+v", r)
	}
	for _, f := range r.Findings {
		if !regexp.MustCompile(`^OX-[0-9a-f]{8}(-[0-9]+)?$`).MatchString(f.RuleID) {
			t.Errorf("finding without derived id: %+v", f)
		}
	}
}

// BR-FR through the catalog: a French UBL invoice of the corpus is
// accepted, an EN 16931 example without the French mentions is rejected by
// Flux 2 rules (custom:* functions compiled from the source).
func TestBRFRProfile(t *testing.T) {
	c := catalogT(t)
	p, ok := c.Profile(SyntaxUBL, "br_fr")
	if !ok {
		t.Fatalf("br_fr: %v", p.Err)
	}
	r := validate(t, p, readDoc(t, "corpus/br-fr/akretion/ubl-21-en16931.xml", nil))
	if !r.Valid || len(r.Findings) != 0 {
		t.Fatalf("French UBL invoice: %+v", r)
	}
	r = validate(t, p, readDoc(t, "corpus/en16931/ubl/examples/guide-example2.xml", nil))
	if r.Valid || len(findingsOf(r, "BR-FR-08_BT-23")) != 1 {
		t.Fatalf("EN 16931 example under BR-FR: valid=%v findings=%d", r.Valid, len(r.Findings))
	}
	// CII and the EXTENDED-CTC-FR flavours load and run their Flux 2 rules.
	for _, k := range []struct{ syntax, name, doc string }{
		{SyntaxCII, "br_fr", "corpus/en16931/cii/examples/CII_example1.xml"},
		{SyntaxCII, "br_fr_extended", "corpus/en16931/cii/examples/CII_example1.xml"},
		{SyntaxUBL, "br_fr_extended", "corpus/en16931/ubl/examples/guide-example2.xml"},
	} {
		p, ok := c.Profile(k.syntax, k.name)
		if !ok {
			t.Fatalf("%s/%s: %v", k.syntax, k.name, p.Err)
		}
		r := validate(t, p, readDoc(t, k.doc, nil))
		flux := 0
		for _, f := range r.Findings {
			if strings.HasPrefix(f.RuleID, "BR-FR-") {
				flux++
			}
		}
		if !r.Complete || r.Valid || flux == 0 {
			t.Errorf("%s/%s on an EN 16931 example: complete=%v valid=%v BR-FR findings=%d errors=%v", k.syntax, k.name, r.Complete, r.Valid, flux, r.Errors)
		}
	}
	cd, ok := c.Profile(SyntaxCDAR, "")
	if !ok || cd.Name != "br_fr" {
		t.Fatalf("CDAR default profile: %+v", cd)
	}
}

// WithLazy compiles nothing at Load; a profile compiles on first use and
// then behaves as in eager mode; a broken rule set still fails closed.
func TestLazy(t *testing.T) {
	c, err := Load(WithShared(sharedDir()), WithLazy())
	if err != nil {
		t.Fatal(err)
	}
	roots := c.XSDRoots()
	for _, j := range c.jobs {
		if j.rs != nil {
			t.Fatalf("%s compiled at Load or by XSDRoots", j.t.Name)
		}
	}
	if len(roots) < 10 || !slices.ContainsFunc(roots, func(x XSDRoot) bool { return x.Path == ublInvoiceXSD }) {
		t.Fatalf("XSD roots %v", roots)
	}
	for _, x := range roots {
		if _, err := os.Stat(filepath.Join(sharedDir(), x.Path)); err != nil {
			t.Errorf("XSD root %s: %v", x.Path, err)
		}
	}
	p, ok := c.Profile(SyntaxUBL, "xrechnung")
	if !ok {
		t.Fatal(p.Err)
	}
	r := validate(t, p, readDoc(t, xrUBL, nil))
	if !r.Valid || r.Scenario != "EN16931 XRechnung (UBL Invoice)" {
		t.Fatalf("lazy xrechnung: %+v", r)
	}
	compiled := 0
	for _, j := range c.jobs {
		if j.rs != nil {
			compiled++
		}
	}
	if compiled != 2 {
		t.Fatalf("%d rule sets compiled after one profile, want 2", compiled)
	}
	// Concurrent first uses of other profiles (run with -race).
	var wg sync.WaitGroup
	for _, name := range []string{"en16931", "peppol", "ro_cius", "en16931", "peppol"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p, ok := c.Profile(SyntaxUBL, name); !ok {
				t.Errorf("%s: %v", name, p.Err)
			}
		}()
	}
	wg.Wait()
	if n := len(c.Info()); n != 27 {
		t.Fatalf("lazy Info: %d", n)
	}
	good := &engine.Tables{Name: "Good", Version: "1", Syntax: "ubl", Source: "good.sch", Phase: "#ALL",
		Patterns: []engine.Pattern{{ID: "p", NumRules: 1}}, Rules: []engine.Rule{{Context: "/*", NumChecks: 1}},
		Checks: []engine.Check{{ID: "B-1", Test: "1 +"}}}
	c, err = Load(WithLazy(), func(cfg *loadConfig) {
		cfg.defs = []profileDef{{syntax: SyntaxUBL, name: "broken", version: "1",
			sets: []setDef{{tables: func() (*engine.Tables, error) { return good, nil }}}}}
	})
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := c.Profile(SyntaxUBL, "broken"); ok || p.Err == nil {
		t.Fatal("lazy broken profile did not fail closed")
	}
}
