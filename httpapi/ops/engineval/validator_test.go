package engineval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// shared locates the official data: EINVOICE_SHARED or ../shared next to the repo.
func shared() string {
	return testshared.Path()
}

// testValidator is loaded once for the package's tests (loading compiles
// every rule set and schema).
var testValidator *Validator

func TestMain(m *testing.M) {
	v, err := New(shared())
	if err != nil {
		// The rule tables are generated (make generate); without them the
		// engine-backed validator cannot exist and every test here would fail.
		os.Stderr.WriteString("engineval: " + err.Error() + "\n")
		os.Exit(1)
	}
	testValidator = v
	code := m.Run()
	v.Close()
	os.Exit(code)
}

func corpus(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(shared(), "corpus", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func svc() *ops.Service { return &ops.Service{Validator: testValidator} }

func TestValidExamples(t *testing.T) {
	for _, tc := range []struct{ syntax, file string }{
		{"ubl", "en16931/ubl/examples/ubl-tc434-example1.xml"},
		{"ubl", "en16931/ubl/examples/ubl-tc434-creditnote1.xml"},
		{"cii", "en16931/cii/examples/CII_business_example_01.xml"},
	} {
		rep, err := svc().Validate(context.Background(), ops.ValidateRequest{Syntax: tc.syntax, Profile: "en16931", Body: corpus(t, tc.file)})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if !rep.Valid || !rep.Complete || rep.Counts.Fatal != 0 {
			t.Errorf("%s: want valid, got %+v", tc.file, rep.Findings)
		}
		if len(rep.Rulesets) < 2 || rep.Rulesets[0].Name != "XSD" {
			t.Errorf("%s: rulesets %+v", tc.file, rep.Rulesets)
		}
		if tc.file == "en16931/ubl/examples/ubl-tc434-creditnote1.xml" && !strings.Contains(rep.Rulesets[0].Version, "CreditNote") {
			t.Errorf("credit note validated against %s", rep.Rulesets[0].Version)
		}
	}
}

func TestInvalidDocumentXSDFirst(t *testing.T) {
	doc := corpus(t, "en16931/ubl/examples/ubl-tc434-example1.xml")
	i := bytes.Index(doc, []byte("<cbc:ID>"))
	j := bytes.Index(doc[i:], []byte("</cbc:ID>"))
	if i < 0 || j < 0 {
		t.Fatal("example has no cbc:ID")
	}
	mutated := append(append([]byte{}, doc[:i]...), doc[i+j+len("</cbc:ID>"):]...)
	rep, err := svc().Validate(context.Background(), ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: mutated})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Valid || rep.Counts.Fatal < 2 {
		t.Fatalf("want invalid with XSD and BR-02: %+v", rep)
	}
	if f := rep.Findings[0]; f.RuleID != "XSD" || f.Source != "xsd" || f.Line == 0 || f.Flag != "fatal" {
		t.Errorf("first finding %+v, want the XSD error", f)
	}
	var br02 bool
	for _, f := range rep.Findings {
		if f.RuleID == "BR-02" && f.Flag == "fatal" && f.Location != "" {
			br02 = true
		}
	}
	if !br02 {
		t.Errorf("BR-02 not reported: %+v", rep.Findings)
	}
}

func TestRequestErrors(t *testing.T) {
	ctx := context.Background()
	var re *ops.RequestError
	// Malformed XML: xml_syntax with the line.
	_, err := svc().Validate(ctx, ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: []byte("<Invoice>\n<a>\n</Invoice>")})
	if !errors.As(err, &re) || re.Fields[0].Type != wire.TypeXMLSyntax || re.Fields[0].Ctx["line"] == nil {
		t.Errorf("malformed: %v", err)
	}
	// CII sent to the UBL route.
	_, err = svc().Validate(ctx, ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: corpus(t, "en16931/cii/examples/CII_business_example_01.xml")})
	if !errors.As(err, &re) || !strings.Contains(re.Fields[0].Msg, "not a UBL document") {
		t.Errorf("wrong root: %v", err)
	}
	// A profile of the interface whose rule set has not landed yet.
	// (Called on the validator directly: ops.Validate would already refuse a
	// name outside the interface's enum; every interface profile may land.)
	_, err = testValidator.Validate(ctx, ops.ValidateRequest{Syntax: "cii", Profile: "not_landed_yet", Body: []byte("<a/>")})
	if !errors.As(err, &re) || re.Fields[0].Type != wire.TypeNotLanded || !strings.Contains(re.Fields[0].Msg, "en16931") {
		t.Errorf("not landed: %v", err)
	}
	// Unknown version.
	_, err = svc().Validate(ctx, ops.ValidateRequest{Syntax: "cii", Profile: "en16931", Version: "0.0.1", Body: []byte("<a/>")})
	if !errors.As(err, &re) || re.Fields[0].Type != wire.TypeEnum {
		t.Errorf("version: %v", err)
	}
	// Cancelled: the context's error, never a verdict.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := svc().Validate(cctx, ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: corpus(t, "en16931/ubl/examples/ubl-tc434-example1.xml")}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestProfileVersions(t *testing.T) {
	doc := corpus(t, "en16931/ubl/examples/ubl-tc434-example1.xml")
	for _, version := range []string{"", "3.0.19"} {
		rep, err := svc().Validate(context.Background(), ops.ValidateRequest{Syntax: "ubl", Profile: "peppol", Version: version, Body: doc})
		if err != nil {
			t.Fatalf("peppol %q: %v", version, err)
		}
		if rep.Profile != "peppol" || len(rep.Rulesets) < 2 {
			t.Fatalf("peppol %q: %+v", version, rep.Rulesets)
		}
		joined := ""
		for _, r := range rep.Rulesets {
			joined += r.Name + " " + r.Version + "; "
		}
		want := "3.0.21"
		if version != "" {
			want = version
		}
		if !strings.Contains(joined, want) {
			t.Errorf("peppol %q applied %s, want version %s", version, joined, want)
		}
	}
}

func TestRulesetInfo(t *testing.T) {
	info := testValidator.RulesetInfo()
	if len(info) == 0 {
		t.Fatal("no rule-set info")
	}
	for _, r := range info {
		if r.Name == "" || r.Version == "" || r.Source == "" || (r.Error == "" && (len(r.SHA256) != 64 || r.Asserts+r.Reports == 0 || len(r.Profiles) == 0)) {
			t.Errorf("incomplete info %+v", r)
		}
	}
}

func TestRulesetsListed(t *testing.T) {
	rs := testValidator.Rulesets()
	if len(rs) == 0 {
		t.Fatal("no rule sets")
	}
	for _, r := range rs {
		if r.Name == "" || r.Version == "" {
			t.Errorf("%+v", r)
		}
	}
}

func TestOrderXProfileFromDocument(t *testing.T) {
	for file, want := range map[string]string{
		"order-x/akretion/order-x-basic.xml":                              "basic",
		"order-x/mustang/ORDER-X_EX01_ORDER_FULL_DATA-COMFORTorder-x.xml": "comfort",
	} {
		rep, err := svc().Validate(context.Background(), ops.ValidateRequest{Syntax: "orderx", Body: corpus(t, file)})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if rep.Profile != want || !rep.Valid || !strings.Contains(rep.Rulesets[0].Version, "/"+want+"/") {
			t.Errorf("%s: profile %s valid %v rulesets %+v findings %+v", file, rep.Profile, rep.Valid, rep.Rulesets, rep.Findings)
		}
	}
}

func TestFatturaPAIsXSDOnly(t *testing.T) {
	rep, err := svc().Validate(context.Background(), ops.ValidateRequest{Syntax: "fatturapa",
		Body: corpus(t, "fatturapa/1.2.2/official-examples/IT01234567890_FPA01.xml")})
	if err != nil || !rep.Valid || len(rep.Rulesets) != 1 {
		t.Fatalf("official example: %+v %v", rep, err)
	}
	rep, err = svc().Validate(context.Background(), ops.ValidateRequest{Syntax: "fatturapa",
		Body: corpus(t, "fatturapa/1.2.2/bad/IT01234567890_FPA01.xml")})
	if err != nil || rep.Valid || rep.Findings[0].RuleID != "XSD" {
		t.Fatalf("bad example: %+v %v", rep, err)
	}
}

// TestValidationSlots: with every slot taken, a validation waits and ends
// with its context (the server answers 503 at the request deadline), and
// runs once a slot is free.
func TestValidationSlots(t *testing.T) {
	body := corpus(t, "en16931/ubl/examples/ubl-tc434-example1.xml")
	req := ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: body}
	v := testValidator
	if cap(v.slots) < 2 {
		t.Fatalf("%d validation slots, want at least 2", cap(v.slots))
	}
	for range cap(v.slots) {
		v.slots <- struct{}{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := v.Validate(ctx, req)
	for range cap(v.slots) {
		<-v.slots
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("validation with every slot taken: %v, want the context's deadline", err)
	}
	if rep, err := v.Validate(context.Background(), req); err != nil || !rep.Valid {
		t.Fatalf("validation after the slots were freed: %v %v", rep, err)
	}
}

// TestXSDStageOnLane: Validate runs its XSD stage on the validator's
// lane: validations one after the other share one polling worker.
func TestXSDStageOnLane(t *testing.T) {
	v, err := New(shared(), Lazy(), XSDSpin(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	defer stopPolling(t, v.xsd)
	req := ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: corpus(t, "en16931/ubl/examples/ubl-tc434-example1.xml")}
	for i := range 3 {
		rep, err := v.Validate(context.Background(), req)
		if err != nil || !rep.Valid || rep.Counts.Fatal != 0 {
			t.Fatalf("validation %d: %v %+v", i, err, rep)
		}
		waitPolling(t, v.xsd, i)
	}
	if n := v.xsd.started.Load(); n != 1 {
		t.Fatalf("%d goroutines started for three validations in a row, want 1", n)
	}
}

// TestEarlyXSD proves that the XSD stage started before the parse (small
// documents, startXSD reading the root with xmltree.RootName) validates
// against the schema the parse would choose and gives the same reports and
// errors as the stage started after the parse. The later validator also
// starts a goroutine per stage (no spin), so the comparison covers both
// ways a stage reaches its goroutine.
func TestEarlyXSD(t *testing.T) {
	late, err := New(shared(), XSDSpin(0))
	if err != nil {
		t.Fatal(err)
	}
	defer late.Close()
	late.earlyXSD = -1
	ex1 := corpus(t, "en16931/ubl/examples/ubl-tc434-example1.xml")
	cases := []struct {
		req    ops.ValidateRequest
		schema string // the schema the early run must choose; "" none
	}{
		{ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: ex1}, "UBL-Invoice-2.1.xsd"},
		{ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: bytes.Replace(ex1, []byte("</cbc:IssueDate>"), []byte("</cbc:IssueDate><cac:Shipment/>"), 1)}, "UBL-Invoice-2.1.xsd"},
		{ops.ValidateRequest{Syntax: "ubl", Profile: "peppol", Body: corpus(t, "en16931/ubl/examples/ubl-tc434-creditnote1.xml")}, "UBL-CreditNote-2.1.xsd"},
		{ops.ValidateRequest{Syntax: "cii", Profile: "en16931", Body: corpus(t, "en16931/cii/examples/CII_example1.xml")}, "CrossIndustryInvoice_100pD16B.xsd"},
		{ops.ValidateRequest{Syntax: "cii", Profile: "facturx_basic", Body: corpus(t, "factur-x/1.09.2/phive-test-files/basic/factur-x-1.xml")}, "FACTUR-X_BASIC.xsd"},
		{ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: []byte("<Invoice xmlns='urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'><a></b></Invoice>")}, "UBL-Invoice-2.1.xsd"},
		{ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: []byte("<Invoice xmlns='urn:oasis:names:specification:ubl:schema:xsd:Invoice-2' a='1' a='2'/>")}, ""},
		{ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: []byte("<!DOCTYPE Invoice [<!ENTITY e 'x'>]><Invoice/>")}, ""},
		{ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: corpus(t, "en16931/cii/examples/CII_example1.xml")}, ""},
		{ops.ValidateRequest{Syntax: "ubl", Profile: "nosuch", Body: ex1}, ""},
	}
	ctx := context.Background()
	canon := func(v *Validator, req ops.ValidateRequest) string { return reportJSON(ctx, v, req) }
	before := testValidator.lateXSD.Load()
	for i, tc := range cases {
		r := testValidator.startXSD(ctx, tc.req, "", nil)
		r.wait()
		if path.Base(r.path) != path.Base(tc.schema) {
			t.Errorf("case %d: early run chose %q, want %q", i, r.path, tc.schema)
		}
		if got, want := canon(testValidator, tc.req), canon(late, tc.req); got != want {
			t.Errorf("case %d: early XSD report differs:\n got %s\nwant %s", i, got, want)
		}
	}
	// Every document the parse accepted used its early run.
	if n := testValidator.lateXSD.Load() - before; n != 0 {
		t.Errorf("%d validations ran the XSD stage again after the parse", n)
	}
}

// TestOwnedBody: a request that gives its body up (ValidateRequest.Owned,
// the HTTP route and the CLI) gets the report of one that does not, for
// valid and invalid documents, findings with values from the document and
// malformed input, and its parse does not copy the body (at least the
// body's size less allocated).
func TestOwnedBody(t *testing.T) {
	ex1 := corpus(t, "en16931/ubl/examples/ubl-tc434-example1.xml")
	reqs := []ops.ValidateRequest{
		{Syntax: "ubl", Profile: "en16931", Body: ex1},
		{Syntax: "ubl", Profile: "peppol", Body: corpus(t, "en16931/ubl/examples/ubl-tc434-creditnote1.xml")},
		{Syntax: "cii", Profile: "peppol", Body: corpus(t, "en16931/cii/examples/CII_example1.xml")},
		{Syntax: "ubl", Profile: "en16931", Body: bytes.Replace(ex1, []byte("<cbc:IssueDate>"), []byte("<cbc:IssueDate>x"), 1)},
		{Syntax: "ubl", Profile: "en16931", Body: []byte("<Invoice xmlns='urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'><a></b></Invoice>")},
	}
	ctx := context.Background()
	for i, req := range reqs {
		want := reportJSON(ctx, testValidator, req)
		owned := req
		owned.Owned, owned.Body = true, bytes.Clone(req.Body)
		if got := reportJSON(ctx, testValidator, owned); got != want {
			t.Errorf("case %d: the owned body's report differs:\n got %s\nwant %s", i, got, want)
		}
	}
	if raceEnabled {
		return // the reports agree; the race detector's pools drop buffers at random
	}
	// Bytes allocated a validation: the fewest of five rounds of twenty.
	// Other work of a validation allocates now and then (a pool growing,
	// the XSD stage's goroutine), never less, so the fewest is the
	// validation's own; one round of twenty made the difference miss the
	// body's size by a few bytes about once in three runs.
	allocated := func(owned bool) float64 {
		req := ops.ValidateRequest{Syntax: "ubl", Profile: "en16931", Body: ex1, Owned: owned}
		least := math.Inf(1)
		for range 5 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range 20 {
				if _, err := testValidator.Validate(ctx, req); err != nil {
					t.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			least = min(least, float64(after.TotalAlloc-before.TotalAlloc)/20)
		}
		return least
	}
	// No collection meanwhile: it would empty the recycler's pools, and
	// the next parses would allocate their arrays again.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	allocated(true) // the pools filled
	copied, kept := allocated(false), allocated(true)
	if copied-kept < float64(len(ex1)) {
		t.Errorf("an owned body: %.0f bytes a validation, a copied one %.0f: the parse still copies the %d-byte body", kept, copied, len(ex1))
	}
}

// reportJSON is v's report on req as JSON without its duration, or its
// error: two validations that should agree compare equal.
func reportJSON(ctx context.Context, v *Validator, req ops.ValidateRequest) string {
	rep, err := v.Validate(ctx, req)
	if err != nil {
		return "error: " + err.Error()
	}
	rep.DurationMS = 0
	b, _ := json.Marshal(rep)
	return string(b)
}
