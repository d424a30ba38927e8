package ops_test

import (
	"github.com/einvoice-dev/einvoice/internal/testshared"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
)

// sharedDir is the official data: EINVOICE_SHARED or ../shared from the
// repository root.
func sharedDir() string {
	return testshared.Path()
}

// loadValidator loads the engine validator once per test binary (2-3 s).
var loadValidator = sync.OnceValues(func() (*engineval.Validator, error) { return engineval.New(sharedDir()) })

// engineService returns a Service on the real engine validator.
func engineService(t testing.TB) *ops.Service {
	t.Helper()
	v, err := loadValidator()
	if err != nil {
		t.Fatalf("engine validator: %v", err)
	}
	return &ops.Service{Validator: v}
}

// randomBody is {"invoice": <a random valid invoice>} for seed.
func randomBody(t testing.TB, seed uint64, opts model.RandomOptions) []byte {
	t.Helper()
	b, err := model.EncodeInvoice(model.RandomInvoice(rand.New(rand.NewPCG(seed, 7)), opts))
	if err != nil {
		t.Fatal(err)
	}
	return append(append([]byte(`{"invoice":`), b...), '}')
}

// readShared reads a file of the official data.
func readShared(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sharedDir(), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
