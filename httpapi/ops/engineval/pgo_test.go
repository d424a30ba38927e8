//go:build unix

package engineval

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/orderx"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/internal/profilecases"
)

// pgoSyntax is the syntax whose profiles validate body: ops.DetectSyntax's
// UBL or CII, or Order-X by its root's namespace; "" for any other document.
func pgoSyntax(body []byte) string {
	if syntax, err := ops.DetectSyntax(body); err == nil {
		return syntax
	}
	if ns, _, err := xmltree.RootName(body, xmltree.DefaultLimits()); err == nil && ns == orderx.NamespaceRSM {
		return ops.SyntaxOrderX
	}
	return ""
}

// pgoRequests is the training workload of the product's profile-guided
// build (make pgo, docs/PERFORMANCE.md "Profile-guided build"): every UBL,
// CII and Order-X document of ../shared/corpus (in WalkDir's lexical
// order), each validated with every profile the service offers for its
// syntax, except the profile benchmarks' own documents
// (internal/profilecases) and any copy of them elsewhere in the corpus,
// which stay held out so that the benchmarks measure the build on documents
// it was not trained on. Requests the service refuses are left out.
func pgoRequests(tb testing.TB) []ops.ValidateRequest {
	tb.Helper()
	held := heldOut(tb)
	root := filepath.Join(shared(), "corpus")
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && filepath.Ext(path) == ".xml" {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	s := svc()
	var reqs []ops.ValidateRequest
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		syntax := pgoSyntax(body)
		if syntax == "" || held[string(body)] {
			continue
		}
		for _, p := range strings.Split(ops.AllowedProfiles(syntax), ",") {
			req := ops.ValidateRequest{Syntax: syntax, Profile: p, Body: body}
			if _, err := s.Validate(ctx, req); err == nil {
				reqs = append(reqs, req)
			}
		}
	}
	if len(reqs) == 0 {
		tb.Fatal("no training request: is ../shared/corpus there?")
	}
	return reqs
}

// heldOut is the set of the profile benchmarks' documents, by content.
func heldOut(tb testing.TB) map[string]bool {
	held := map[string]bool{}
	for _, c := range profilecases.Cases {
		held[string(corpus(tb, c.Doc))] = true
	}
	return held
}

// BenchmarkPGOTraining runs pgoRequests in turn through ops.Service (parse,
// XSD, rule sets, report), one request an op. `make pgo` records its CPU
// profile as tools/einvoice/default.pgo:
//
//	go test -run '^$' -bench '^BenchmarkPGOTraining$' -benchtime 30s -cpu 1 -cpuprofile F ./httpapi/ops/engineval
func BenchmarkPGOTraining(b *testing.B) {
	reqs := pgoRequests(b)
	b.Logf("%d requests", len(reqs))
	ctx := context.Background()
	s := svc()
	i := 0
	for b.Loop() {
		if _, err := s.Validate(ctx, reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// TestPGORequests proves the training workload of the profile-guided build
// runs every profile the service offers for the three syntaxes on at least
// one document, and none of the held-out benchmark documents.
func TestPGORequests(t *testing.T) {
	reqs := pgoRequests(t)
	held := heldOut(t)
	seen := map[[2]string]int{}
	for _, r := range reqs {
		if held[string(r.Body)] {
			t.Fatalf("a held-out benchmark document (%s/%s) is in the training workload", r.Syntax, r.Profile)
		}
		seen[[2]string{r.Syntax, r.Profile}]++
	}
	for _, syntax := range []string{ops.SyntaxUBL, ops.SyntaxCII, ops.SyntaxOrderX} {
		for _, p := range strings.Split(ops.AllowedProfiles(syntax), ",") {
			if seen[[2]string{syntax, p}] == 0 {
				t.Errorf("profile %s/%s has no training request", syntax, p)
			}
		}
	}
	t.Logf("%d requests over %d profiles", len(reqs), len(seen))
}
