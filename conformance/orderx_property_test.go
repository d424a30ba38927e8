package conformance

// Property test of Order-X generation (issue 7): random orders
// (orderx.RandomOrder, built from model.RandomInvoice) go through
// ops.GenerateOrderX, the API's own code path, whose gate is our validator
// (Order-X BASIC XSD + Schematron); every document must then also be free
// of fatal findings for the reference oracle running the official BASIC
// Schematron. Run alone: go test ./conformance -run TestOrderXProperty.

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/einvoice-dev/einvoice/conformance/oracle"
	"github.com/einvoice-dev/einvoice/formats/orderx"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
)

// orderXBasicSch is the Order-X BASIC Schematron, relative to the shared dir.
const orderXBasicSch = "rulesets/order-x/1.0/basic/SCRDMCCBDACIOMessageStructure_100pD20B_BASIC.sch"

// orderXOracle starts the reference on the BASIC Schematron. The official
// file declares no queryBinding (so XSLT 1.0), which the reference's SchXslt
// 2.0 pipeline refuses to compile; its rules are plain XPath 1.0 (count(),
// attribute presence, contains()), which evaluate the same under XSLT 2.0,
// so the test runs a temporary copy that only adds queryBinding="xslt2".
func orderXOracle(t *testing.T, shared string) *oracle.Oracle {
	t.Helper()
	requireOracle(t)
	src, err := os.ReadFile(filepath.Join(shared, orderXBasicSch))
	if err != nil {
		t.Fatal(err)
	}
	const root = `schemaVersion="iso"`
	if !bytes.Contains(src, []byte(root)) || bytes.Contains(src, []byte("queryBinding")) {
		t.Fatalf("%s: the root element changed; revisit orderXOracle", orderXBasicSch)
	}
	tmp := filepath.Join(t.TempDir(), filepath.Base(orderXBasicSch))
	if err := os.WriteFile(tmp, bytes.Replace(src, []byte(root), []byte(root+` queryBinding="xslt2"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	o, err := oracle.Start(context.Background(), oracle.Options{Sch: []string{tmp}, Stderr: stderr, CacheDir: "-"})
	if err != nil {
		t.Fatalf("start oracle: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() { o.Close() })
	return o
}

func TestOrderXProperty(t *testing.T) {
	// The four reference-driven tests run side by side: each is mostly one JVM
	// and our engine on one core, and CI has two (make test stays under 25 min).
	t.Parallel()
	shared := mustShared(t)
	n := generateModels(t, 500) // issue 7: at least 500 per format
	if n < 500 && !testing.Short() {
		n = 500
	}
	v, err := engineval.New(shared, engineval.Lazy())
	if err != nil {
		t.Fatalf("engine validator: %v", err)
	}
	defer v.Close()
	svc := &ops.Service{Validator: v}
	ctx := context.Background()
	ref := orderXOracle(t, shared)
	failures, findings := 0, 0
	for i := range n {
		seed := uint64(i)
		body, err := json.Marshal(orderx.RandomOrder(rand.New(rand.NewPCG(seed, 0x0da))))
		if err != nil {
			t.Fatal(err)
		}
		res, err := svc.GenerateOrderX(ctx, body)
		if err != nil {
			t.Fatalf("seed %d: generate (our gate): %v\n%s", seed, err, body)
		}
		name := "orderx-basic-" + strconv.Itoa(i) + ".xml"
		r, err := ref.Validate(ctx, name, res.XML)
		if err != nil {
			t.Fatalf("seed %d: oracle: %v", seed, err)
		}
		var problems []string
		if r.Error != "" {
			problems = append(problems, "reference could not read it: "+r.Error)
		}
		var nf int
		problems, nf = referenceFatals(r, problems)
		findings += nf
		if len(problems) > 0 {
			failures++
			if failures <= 5 {
				t.Errorf("seed %d (%s): %v\n%s", seed, name, problems, res.XML)
			}
		}
	}
	t.Logf("%d orders, %d failing, %d reference findings (non-fatal)", n, failures, findings)
	if failures > 0 {
		t.Errorf("%d of %d generated orders failed", failures, n)
	}
}
