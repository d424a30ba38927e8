package mix

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
)

// Op is one operation of the mix: a POST route and the bodies it cycles
// through.
type Op struct {
	Name        string // route below /v1/, e.g. "validate/ubl"
	ContentType string
	Bodies      [][]byte
}

// Path returns the request path of the operation.
func (o Op) Path() string { return "/v1/" + o.Name }

// corpusSources names, per operation, the corpus files (globs below the
// shared directory) its bodies come from.
var corpusSources = []struct {
	name, contentType string
	globs             []string
}{
	{"validate/ubl", "application/xml", []string{"corpus/en16931/ubl/examples/*.xml"}},
	{"validate/cii", "application/xml", []string{"corpus/en16931/cii/examples/*.xml"}},
	{"convert/ubl-to-cii", "application/xml", []string{"corpus/en16931/ubl/examples/ubl-tc434-*.xml"}},
	{"render/html", "application/xml", []string{"corpus/en16931/ubl/examples/ubl-tc434-*.xml"}},
	{"extract/xml", "application/pdf", []string{"corpus/pdf/mustang/*.pdf", "corpus/pdf/horstoeko/*.pdf"}},
}

// MaxBodiesPerOp bounds the bodies kept per operation (memory of the tool).
const MaxBodiesPerOp = 12

// Workload builds the default mix: corpus files read from shared at run
// time, and generate/ubl bodies made of random invoices (seeded, so two runs
// send the same requests).
func Workload(shared string, seed uint64) ([]Op, error) {
	var out []Op
	for _, src := range corpusSources {
		var files []string
		for _, g := range src.globs {
			m, err := filepath.Glob(filepath.Join(shared, g))
			if err != nil {
				return nil, fmt.Errorf("mix: glob %s: %w", g, err)
			}
			files = append(files, m...)
		}
		sort.Strings(files)
		op := Op{Name: src.name, ContentType: src.contentType}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, fmt.Errorf("mix: read corpus: %w", err)
			}
			op.Bodies = append(op.Bodies, b)
		}
		if len(op.Bodies) == 0 {
			return nil, fmt.Errorf("mix: no corpus files for %s under %s (want %s)", src.name, shared, strings.Join(src.globs, ", "))
		}
		out = append(out, op)
	}
	gen, err := GenerateBodies(seed, MaxBodiesPerOp)
	if err != nil {
		return nil, err
	}
	return append(out, Op{Name: "generate/ubl", ContentType: "application/json", Bodies: gen}), nil
}

// GenerateBodies returns n generate request bodies ({"invoice": ...}) of
// random standard-rated invoices.
func GenerateBodies(seed uint64, n int) ([][]byte, error) {
	r := rand.New(rand.NewPCG(seed, 9))
	out := make([][]byte, 0, n)
	for i := 0; i < n; i++ {
		inv := model.RandomInvoice(r, model.RandomOptions{Lines: 1 + r.IntN(6), Categories: []model.VATCategoryCode{model.VATStandard}})
		b, err := model.EncodeInvoice(inv)
		if err != nil {
			return nil, fmt.Errorf("mix: encode random invoice: %w", err)
		}
		out = append(out, append(append([]byte(`{"invoice":`), b...), '}'))
	}
	return out, nil
}

// Skipped is an operation left out of a run and why.
type Skipped struct {
	Name, Reason string
}

// Probe sends every body of every operation once and keeps the operations
// the server implements: an operation answering 501 is skipped, and so is one
// none of whose bodies gets a 2xx. Bodies answered with a 4xx are dropped
// (the mix measures the work, not the refusals); a 5xx other than 501 is an
// error. At most MaxBodiesPerOp bodies are kept per operation.
func Probe(ctx context.Context, c *http.Client, base, key string, ops []Op) (live []Op, skipped []Skipped, err error) {
	for _, op := range ops {
		kept := Op{Name: op.Name, ContentType: op.ContentType}
		var notImpl bool
		var last int
		for _, b := range op.Bodies {
			if len(kept.Bodies) == MaxBodiesPerOp {
				break
			}
			status, _, err := Do(ctx, c, base, key, op, b)
			if err != nil {
				return nil, nil, fmt.Errorf("mix: probe %s: %w", op.Name, err)
			}
			last = status
			switch {
			case status == http.StatusNotImplemented:
				notImpl = true
			case status >= 500:
				return nil, nil, fmt.Errorf("mix: probe %s: status %d", op.Name, status)
			case status < 300:
				kept.Bodies = append(kept.Bodies, b)
			}
			if notImpl {
				break
			}
		}
		switch {
		case notImpl:
			skipped = append(skipped, Skipped{op.Name, "501 not implemented on this server"})
		case len(kept.Bodies) == 0:
			skipped = append(skipped, Skipped{op.Name, fmt.Sprintf("no body answered 2xx (last status %d)", last)})
		default:
			live = append(live, kept)
		}
	}
	return live, skipped, nil
}

// Do sends one request of op and drains the answer; it returns the status
// and the body size.
func Do(ctx context.Context, c *http.Client, base, key string, op Op, body []byte) (int, int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+op.Path(), bytes.NewReader(body))
	if err != nil {
		return 0, 0, fmt.Errorf("mix: request %s: %w", op.Name, err)
	}
	req.Header.Set("Content-Type", op.ContentType)
	if key != "" {
		req.Header.Set("x-api-key", key)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, 0, fmt.Errorf("mix: %s: %w", op.Name, err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return resp.StatusCode, n, fmt.Errorf("mix: %s: read answer: %w", op.Name, err)
	}
	return resp.StatusCode, n, nil
}
